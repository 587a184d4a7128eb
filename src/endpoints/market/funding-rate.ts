import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { symbolParam } from '../../_internal/validate.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import type { PublicClient } from '../../public-client.ts';
import { decimalString, okTrue } from '../../schemas/common.ts';
import type { Strict } from '../../schemas/strict.ts';

/** Query of `GET /v2/funding-rate`. */
export interface FundingRateParameters {
  /** Contract symbol. Required. */
  symbol: string;
}

/** Run-time check of {@link FundingRateParameters}. */
export const fundingRateParamsSchema = /* @__PURE__ */ pure(() => z.strictObject({ symbol: symbolParam }));

/** Response of `GET /v2/funding-rate`. */
export const fundingRateResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, symbol: z.string(), fundingRate: z.nullable(decimalString) }),
);
/** `{ ok: true, symbol, fundingRate }` — `fundingRate` is `null` while the rate is not cached yet. */
export type FundingRateReturnType = Strict<z.infer<typeof fundingRateResponseSchema>>;

/** `fundingRate: string | null` (null until cached) */
export const fundingRateEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'market.fundingRate',
  path: '/v2/funding-rate',
  auth: 'public',
  params: fundingRateParamsSchema,
  response: fundingRateResponseSchema,
});

/**
 * `GET /v2/funding-rate` — current funding rate (decimal string), `null` when not cached yet. Public, `public` bucket.
 *
 * @throws {RequestValidationError} missing `symbol`.
 * @throws {ServerError | ConnectionError | TimeoutError}
 *
 * @example
 * ```ts
 * import { fundingRate } from 'futures-sdk/market';
 * const funding = await fundingRate(client, { symbol: 'BTCUSDT' });
 * ```
 */
export async function fundingRate(
  client: BaseClient | PublicClient,
  query: FundingRateParameters,
  options?: CallOptions,
): Promise<FundingRateReturnType> {
  return await callEndpoint(contextOf(client), fundingRateEndpoint, { params: query, options });
}
