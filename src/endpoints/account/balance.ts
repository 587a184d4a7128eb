import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import { futuresAssetBalanceSchema } from '../../schemas/account.ts';
import { okTrue } from '../../schemas/common.ts';
import type { Strict } from '../../schemas/strict.ts';
import { subAccountIdParam } from '../_shared.ts';

/** Query of `GET /v2/futures/balance`. */
export interface BalanceParameters {
  /** Sub-account; defaults to the client's `subAccountId`, else the primary sub-account. */
  subAccountId?: string | undefined;
}

/** Run-time check of {@link BalanceParameters}. */
export const balanceParamsSchema = /* @__PURE__ */ pure(() => z.strictObject({ subAccountId: subAccountIdParam }));

/** Response of `GET /v2/futures/balance`. */
export const balanceResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, balances: z.looseObject({ assets: z.array(futuresAssetBalanceSchema) }) }),
);
/** `{ ok: true, balances: { assets: FuturesAssetBalance[] } }`. */
export type BalanceReturnType = Strict<z.infer<typeof balanceResponseSchema>>;

/** Futures wallet */
export const balanceEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'account.balance',
  path: '/v2/futures/balance',
  params: balanceParamsSchema,
  subAccountDefault: true,
  response: balanceResponseSchema,
});

/**
 * `GET /v2/futures/balance` — the futures wallet. Auth `API_KEY (READ_ONLY+)`, `default` bucket.
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
  query: BalanceParameters = {},
  options?: CallOptions,
): Promise<BalanceReturnType> {
  return await callEndpoint(contextOf(client), balanceEndpoint, { params: query, options });
}
