import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import { spotBalanceSchema } from '../../schemas/account.ts';
import { okTrue } from '../../schemas/common.ts';
import type { Strict } from '../../schemas/strict.ts';

/** Response of `GET /v2/accounts/:id/balances`: `balances` is an array, or the upstream object when it has none. */
export const spotBalancesResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, balances: z.union([z.array(spotBalanceSchema), z.looseObject({})]) }),
);
/** `{ ok: true, balances }` — `balances` is `SpotBalance[]` or the raw upstream object; check `Array.isArray`. */
export type SpotBalancesReturnType = Strict<z.infer<typeof spotBalancesResponseSchema>>;

/** Spot wallet; your own `accountId` only */
export const spotBalancesEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'account.spotBalances',
  path: '/v2/accounts/{id}/balances',
  idName: 'accountId',
  response: spotBalancesResponseSchema,
});

/**
 * `GET /v2/accounts/:id/balances` — the SPOT wallet of the primary sub-account (the futures wallet is
 * `account.balance`). `accountId` must be your own (percent-encoded into the path). Auth `API_KEY`, `default` bucket.
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
  return await callEndpoint(contextOf(client), spotBalancesEndpoint, { id: accountId, options });
}
