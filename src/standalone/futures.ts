/**
 * futures-sdk/futures: every method of `client.futures` (futures configuration) as a standalone function taking the client
 * first. Import only the functions you call, with a client from `createBaseClient`, and a bundler keeps only
 * those endpoints. A {@link futures-sdk!FuturesClient | FuturesClient} is accepted too; each function returns exactly what the resource method
 * returns (the resource methods call these functions).
 *
 * @example
 * ```ts
 * import { createBaseClient } from 'futures-sdk';
 * import { setLeverage } from 'futures-sdk/futures';
 * const client = createBaseClient({ baseUrl: 'https://api.example.com', apiKey, apiSecret });
 * await setLeverage(client, { symbol: 'BTCUSDT', leverage: 10 });
 * ```
 * @packageDocumentation
 * @module futures-sdk/futures
 */

import { type BaseClient, contextOf } from '../base-client.ts';
import {
  type CloseAndSwitchMarginParameters,
  type CloseAndSwitchMarginReturnType,
  closeAndSwitchMargin as closeAndSwitchMarginAction,
} from '../endpoints/futures/close-and-switch-margin.ts';
import {
  type SetLeverageParameters,
  type SetLeverageReturnType,
  setLeverage as setLeverageAction,
} from '../endpoints/futures/set-leverage.ts';
import {
  type SetMarginTypeParameters,
  type SetMarginTypeReturnType,
  setMarginType as setMarginTypeAction,
} from '../endpoints/futures/set-margin-type.ts';
import {
  type SetPositionModeParameters,
  type SetPositionModeReturnType,
  setPositionMode as setPositionModeAction,
} from '../endpoints/futures/set-position-mode.ts';
import type { CallOptions } from '../options.ts';
// For the {@link futures-sdk!FuturesClient | FuturesClient} references in TSDoc.

/**
 * `POST /v2/futures/leverage` — sets the leverage of one symbol. Auth `API_KEY (TRADE)`, `default` bucket;
 * safe to retry (setting the same value twice is harmless).
 *
 * There is no read-back endpoint: the current leverage shows only on an open position's `leverage`.
 * Same as `client.futures.setLeverage(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {RequestValidationError} `leverage` not an integer in 1..125, missing `symbol`.
 * @throws {ConflictError} open position without `forceWithOpenPosition` (`err.isOpenPositionGuard`,
 *   `err.code === 'OPEN_POSITION_LEVERAGE_GUARD'`).
 * @throws {PermissionDeniedError} key lacks TRADE.
 * @throws {BadRequestError} the venue rejected the value.
 *
 * @example
 * ```ts
 * import { setLeverage } from 'futures-sdk/futures';
 * await setLeverage(client, { symbol: 'BTCUSDT', leverage: 10 });
 * ```
 */
export async function setLeverage(
  client: BaseClient,
  params: SetLeverageParameters,
  options?: CallOptions,
): Promise<SetLeverageReturnType> {
  return setLeverageAction(contextOf(client), params, options);
}

/**
 * `POST /v2/futures/margin-type` — sets ISOLATED or CROSSED. Auth `API_KEY (TRADE)`, `default` bucket; safe to
 * retry. The venue applies the mode to the whole sub-account. No read-back endpoint exists: a position's
 * `marginMode` is the only place the current mode shows.
 * Same as `client.futures.setMarginType(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {RequestValidationError} bad `marginType`, missing `symbol`.
 * @throws {ConflictError} open position without the force flag (`err.isOpenPositionGuard`,
 *   `code: 'OPEN_POSITION_MARGIN_GUARD'`); consider `futures.closeAndSwitchMargin`.
 * @throws {BadRequestError | ApiError} a venue reject (`code: 'OPEN_POSITION_MARGIN_REJECT'`).
 * @throws {PermissionDeniedError} key lacks TRADE.
 *
 * @example
 * ```ts
 * import { setMarginType } from 'futures-sdk/futures';
 * await setMarginType(client, { symbol: 'BTCUSDT', marginType: 'ISOLATED' });
 * ```
 */
export async function setMarginType(
  client: BaseClient,
  params: SetMarginTypeParameters,
  options?: CallOptions,
): Promise<SetMarginTypeReturnType> {
  return setMarginTypeAction(contextOf(client), params, options);
}

/**
 * `POST /v2/futures/close-and-switch-margin` — three legs, no rollback: (1) cancel every working order on the
 * symbol, (2) close every open position on it with reduce-only MARKET orders, (3) switch the margin type
 * (sub-account-wide). Auth `API_KEY (TRADE)`, `default` bucket.
 *
 * Never retried once it may have started (only a 429 or a refused connection is retried): a repeat could
 * close positions opened in between.
 * Same as `client.futures.closeAndSwitchMargin(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {RequestValidationError} missing `symbol`, bad `targetMarginType`.
 * @throws {MarginSwitchError} 502: `stage === 'close'` (leg 2 failed, `venueErrorCode` says why) or
 *   `stage === 'switch'` (positions ARE closed, orders canceled, mode unchanged); see `closedPositions`,
 *   `canceledOrders`.
 * @throws {PermissionDeniedError} key lacks TRADE.
 * @throws {TimeoutError | ConnectionError} outcome unknown: read positions and orders before doing anything.
 *
 * @example
 * ```ts
 * import { closeAndSwitchMargin } from 'futures-sdk/futures';
 * await closeAndSwitchMargin(client, { symbol: 'BTCUSDT', targetMarginType: 'CROSSED' });
 * ```
 */
export async function closeAndSwitchMargin(
  client: BaseClient,
  params: CloseAndSwitchMarginParameters,
  options?: CallOptions,
): Promise<CloseAndSwitchMarginReturnType> {
  return closeAndSwitchMarginAction(contextOf(client), params, options);
}

/**
 * `POST /v2/futures/position-mode` — one-way or hedge mode, account-wide. Auth `API_KEY (TRADE)`, `default`
 * bucket; safe to retry. No read-back endpoint exists (a position's `positionSide` hints at the mode).
 * Same as `client.futures.setPositionMode(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {RequestValidationError} bad `positionMode`.
 * @throws {BadRequestError} any open position exists (the venue rejects the change).
 * @throws {PermissionDeniedError} key lacks TRADE.
 *
 * @example
 * ```ts
 * import { setPositionMode } from 'futures-sdk/futures';
 * await setPositionMode(client, { positionMode: 'HEDGE' });
 * ```
 */
export async function setPositionMode(
  client: BaseClient,
  params: SetPositionModeParameters,
  options?: CallOptions,
): Promise<SetPositionModeReturnType> {
  return setPositionModeAction(contextOf(client), params, options);
}
