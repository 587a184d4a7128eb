/**
 * futures-sdk/account: every method of `client.account` (account) as a standalone function taking the client
 * first. Import only the functions you call, with a client from `createBaseClient`, and a bundler keeps only
 * those endpoints. A {@link futures-sdk!FuturesClient | FuturesClient} is accepted too; each function returns exactly what the resource method
 * returns (the resource methods call these functions).
 *
 * @example
 * ```ts
 * import { createBaseClient } from 'futures-sdk';
 * import { balance } from 'futures-sdk/account';
 * const client = createBaseClient({ baseUrl: 'https://api.example.com', apiKey, apiSecret });
 * const summary = await balance(client);
 * ```
 * @packageDocumentation
 * @module futures-sdk/account
 */

import { type BaseClient, contextOf } from '../base-client.ts';
import {
  type ActivitiesAllParameters,
  type ActivitiesParameters,
  type ActivitiesReturnType,
  activities as activitiesAction,
  activitiesAll as activitiesAllAction,
} from '../endpoints/account/activities.ts';
import {
  type BalanceParameters,
  type BalanceReturnType,
  balance as balanceAction,
} from '../endpoints/account/balance.ts';
import { type ExposureReturnType, exposure as exposureAction } from '../endpoints/account/exposure.ts';
import {
  type PnlHistoryParameters,
  type PnlHistoryReturnType,
  pnlHistory as pnlHistoryAction,
} from '../endpoints/account/pnl-history.ts';
import {
  type PositionsParameters,
  type PositionsReturnType,
  positions as positionsAction,
} from '../endpoints/account/positions.ts';
import { type SpotBalancesReturnType, spotBalances as spotBalancesAction } from '../endpoints/account/spot-balances.ts';
import {
  type TransfersAllParameters,
  type TransfersParameters,
  type TransfersReturnType,
  transfers as transfersAction,
  transfersAll as transfersAllAction,
} from '../endpoints/account/transfers.ts';
import type { CallOptions } from '../options.ts';
// For the {@link futures-sdk!FuturesClient | FuturesClient} references in TSDoc.
import type { Activity, Transfer } from '../schemas/account.ts';

/**
 * `GET /v2/futures/balance` — the futures wallet. Auth `API_KEY (READ_ONLY+)`, `default` bucket.
 * Same as `client.account.balance(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {RequestValidationError} unknown keys, empty `subAccountId`.
 * @throws {PermissionDeniedError} `Unauthorized subAccountId` (not yours).
 * @throws {BadRequestError} `No sub account found`.
 * @throws {AuthenticationError | RateLimitError | ServerError}
 *
 * @example
 * ```ts
 * import { balance } from 'futures-sdk/account';
 * const summary = await balance(client);
 * ```
 */
export async function balance(
  client: BaseClient,
  query?: BalanceParameters,
  options?: CallOptions,
): Promise<BalanceReturnType> {
  return balanceAction(contextOf(client), query, options);
}

/**
 * `GET /v2/positions` — the caller's positions (open by default). Auth `API_KEY`, `default` bucket.
 * Same as `client.account.positions(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {ConfigurationError} without credentials.
 * @throws {RequestValidationError} for a status other than OPEN/CLOSED.
 * @throws {AuthenticationError | PermissionDeniedError | RateLimitError | ServerError}
 *
 * @example
 * ```ts
 * import { positions } from 'futures-sdk/account';
 * const { positions: open } = await positions(client);
 * ```
 */
export async function positions(
  client: BaseClient,
  params?: PositionsParameters,
  options?: CallOptions,
): Promise<PositionsReturnType> {
  return positionsAction(contextOf(client), params, options);
}

/**
 * `GET /v2/risk/exposure` — gross exposure (sum of absolute quantities, a decimal string) and the open
 * positions behind it. Auth `API_KEY`, `default` bucket.
 * Same as `client.account.exposure(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {AuthenticationError | PermissionDeniedError | RateLimitError | ServerError}
 *
 * @example
 * ```ts
 * import { exposure } from 'futures-sdk/account';
 * const risk = await exposure(client);
 * ```
 */
export async function exposure(client: BaseClient, options?: CallOptions): Promise<ExposureReturnType> {
  return exposureAction(contextOf(client), options);
}

/**
 * `GET /v2/me/transfers` — one page of deposits and withdrawals. Auth `API_KEY`, `default` bucket.
 * `transferType` is 1 (deposit) or 2 (withdraw); `SUCCESS` and `CONFIRMED` both mean done.
 * Same as `client.account.transfers(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {RequestValidationError} `take` outside 1..100, negative `skip`, bad `type`.
 * @throws {AuthenticationError | RateLimitError | ServerError}
 *
 * @example
 * ```ts
 * import { transfers } from 'futures-sdk/account';
 * const page = await transfers(client, { take: 50 });
 * ```
 */
export async function transfers(
  client: BaseClient,
  query?: TransfersParameters,
  options?: CallOptions,
): Promise<TransfersReturnType> {
  return transfersAction(contextOf(client), query, options);
}

/**
 * Every transfer over all pages of `GET /v2/me/transfers`, 100 at a time (the documented maximum). Auth
 * `API_KEY`, `default` bucket. Ends when `total` is reached or a page comes back short.
 * Same as `client.account.transfersAll(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {RequestValidationError} bad `type` (when iteration starts).
 * @throws {AuthenticationError | RateLimitError | ServerError} from any page.
 *
 * @example
 * ```ts
 * import { transfersAll } from 'futures-sdk/account';
 * for await (const transfer of transfersAll(client)) console.log(transfer.id, transfer.status);
 * ```
 */
export async function* transfersAll(
  client: BaseClient,
  query?: TransfersAllParameters,
  options?: CallOptions,
): AsyncGenerator<Transfer, void, undefined> {
  yield* transfersAllAction(contextOf(client), query, options);
}

/**
 * `GET /v2/me/activities` — one page of the activity feed (orders, executions, transfers). Auth `API_KEY`,
 * `default` bucket. Narrow each entry on `type`.
 * Same as `client.account.activities(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {RequestValidationError} negative `skip`, `take` < 1, unknown keys.
 * @throws {AuthenticationError | RateLimitError | ServerError}
 *
 * @example
 * ```ts
 * import { activities } from 'futures-sdk/account';
 * const page = await activities(client);
 * ```
 */
export async function activities(
  client: BaseClient,
  query?: ActivitiesParameters,
  options?: CallOptions,
): Promise<ActivitiesReturnType> {
  return activitiesAction(contextOf(client), query, options);
}

/**
 * Every activity over all pages of `GET /v2/me/activities`, {@link ACTIVITIES_PAGE_SIZE} at a time. Auth
 * `API_KEY`, `default` bucket. Ends at `total` or an empty page.
 * Same as `client.account.activitiesAll(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {RequestValidationError} unknown keys (when iteration starts).
 * @throws {AuthenticationError | RateLimitError | ServerError} from any page.
 *
 * @example
 * ```ts
 * import { activitiesAll } from 'futures-sdk/account';
 * for await (const activity of activitiesAll(client)) console.log(activity);
 * ```
 */
export async function* activitiesAll(
  client: BaseClient,
  query?: ActivitiesAllParameters,
  options?: CallOptions,
): AsyncGenerator<Activity, void, undefined> {
  yield* activitiesAllAction(contextOf(client), query, options);
}

/**
 * `GET /v2/account/pnl-history` — PnL per day/week/month. Auth `API_KEY`, `default` bucket.
 *
 * The fields are JSON NUMBERS (the only such endpoint); the series covers only the latest 1000 executions,
 * `pnl` has fees subtracted and no funding. For ledger-grade figures the spec points at `/v2/me/stats`.
 * Same as `client.account.pnlHistory(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {RequestValidationError} bad `period`, `limit` < 1.
 * @throws {AuthenticationError | RateLimitError | ServerError}
 *
 * @example
 * ```ts
 * import { pnlHistory } from 'futures-sdk/account';
 * const history = await pnlHistory(client);
 * ```
 */
export async function pnlHistory(
  client: BaseClient,
  query?: PnlHistoryParameters,
  options?: CallOptions,
): Promise<PnlHistoryReturnType> {
  return pnlHistoryAction(contextOf(client), query, options);
}

/**
 * `GET /v2/accounts/:id/balances` — the SPOT wallet of the primary sub-account (the futures wallet is
 * `account.balance`). `accountId` must be your own (percent-encoded into the path). Auth `API_KEY`, `default`
 * bucket.
 * Same as `client.account.spotBalances(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {RequestValidationError} empty `accountId`.
 * @throws {NotFoundError} the id is not your account.
 * @throws {AuthenticationError | RateLimitError | ServerError}
 *
 * @example
 * ```ts
 * import { spotBalances } from 'futures-sdk/account';
 * const { balances } = await spotBalances(client, accountId);
 * ```
 */
export async function spotBalances(
  client: BaseClient,
  accountId: string,
  options?: CallOptions,
): Promise<SpotBalancesReturnType> {
  return spotBalancesAction(contextOf(client), accountId, options);
}
