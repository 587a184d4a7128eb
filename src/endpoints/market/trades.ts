import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { symbolParam } from '../../_internal/validate.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import type { PublicClient } from '../../public-client.ts';
import { okTrue } from '../../schemas/common.ts';
import { publicTradeSchema } from '../../schemas/market.ts';
import type { Strict } from '../../schemas/strict.ts';
import { optionalPositiveInt } from '../_shared.ts';

/** Query of `GET /v2/trades`. */
export interface TradesParameters {
  /** Contract symbol. Required. */
  symbol: string;
  /** Number of trades (the server's maximum is not documented). @default 20 */
  limit?: number | undefined;
}

/** Run-time check of {@link TradesParameters}. */
export const tradesParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({ symbol: symbolParam, limit: optionalPositiveInt }),
);

/** Response of `GET /v2/trades`. */
export const tradesResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, trades: z.array(publicTradeSchema) }),
);
/** `{ ok: true, trades }`. */
export type TradesReturnType = Strict<z.infer<typeof tradesResponseSchema>>;

/** `id` integer, `time` ms */
export const tradesEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'market.trades',
  path: '/v2/trades',
  auth: 'public',
  params: tradesParamsSchema,
  response: tradesResponseSchema,
});

/**
 * `GET /v2/trades` — recent public trades. Public, `public` bucket.
 *
 * @throws {RequestValidationError} missing `symbol`, `limit` < 1.
 * @throws {ServerError | ConnectionError | TimeoutError}
 *
 * @example
 * ```ts
 * import { trades } from 'futures-sdk/market';
 * const recent = await trades(client, { symbol: 'BTCUSDT' });
 * ```
 */
export async function trades(
  client: BaseClient | PublicClient,
  query: TradesParameters,
  options?: CallOptions,
): Promise<TradesReturnType> {
  return await callEndpoint(contextOf(client), tradesEndpoint, { params: query, options });
}
