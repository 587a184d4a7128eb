import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { symbolParam } from '../../_internal/validate.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import type { PublicClient } from '../../public-client.ts';
import { okTrue } from '../../schemas/common.ts';
import { depthLevelSchema } from '../../schemas/market.ts';
import type { Strict } from '../../schemas/strict.ts';
import { optionalPositiveInt } from '../_shared.ts';

/** Query of `GET /v2/depth`. */
export interface DepthParameters {
  /** Contract symbol. Required. */
  symbol: string;
  /** Levels per side (the server's maximum is not documented). @default 100 */
  limit?: number | undefined;
}

/** Run-time check of {@link DepthParameters}. */
export const depthParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({ symbol: symbolParam, limit: optionalPositiveInt }),
);

/** Response of `GET /v2/depth`. */
export const depthResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, bids: z.array(depthLevelSchema), asks: z.array(depthLevelSchema) }),
);
/** `{ ok: true, bids, asks }`, each `[price, quantity]` string pairs; no `lastUpdateId`. */
export type DepthReturnType = Strict<z.infer<typeof depthResponseSchema>>;

/** `bids`/`asks` as `[price, quantity]` string pairs, no `lastUpdateId` */
export const depthEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'market.depth',
  path: '/v2/depth',
  auth: 'public',
  params: depthParamsSchema,
  response: depthResponseSchema,
});

/**
 * `GET /v2/depth` — top `limit` bids and asks. Public, `public` bucket. There is no `lastUpdateId`, so a
 * snapshot cannot be stitched to a diff stream.
 *
 * @throws {RequestValidationError} missing `symbol`, `limit` < 1.
 * @throws {ServerError | ConnectionError | TimeoutError}
 *
 * @example
 * ```ts
 * import { depth } from 'futures-sdk/market';
 * const book = await depth(client, { symbol: 'BTCUSDT' });
 * ```
 */
export async function depth(
  client: BaseClient | PublicClient,
  query: DepthParameters,
  options?: CallOptions,
): Promise<DepthReturnType> {
  return await callEndpoint(contextOf(client), depthEndpoint, { params: query, options });
}
