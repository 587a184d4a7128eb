import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { symbolParam } from '../../_internal/validate.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import type { PublicClient } from '../../public-client.ts';
import { okTrue } from '../../schemas/common.ts';
import { tickerSchema } from '../../schemas/market.ts';
import type { Strict } from '../../schemas/strict.ts';

/** Query of `GET /v2/ticker/24hr`. */
export interface Ticker24hrParameters {
  /** One symbol; omitted returns every cached ticker. */
  symbol?: string | undefined;
}

/** Run-time check of {@link Ticker24hrParameters}. */
export const ticker24hrParamsSchema = /* @__PURE__ */ pure(() => z.strictObject({ symbol: z.optional(symbolParam) }));

/** Response of `GET /v2/ticker/24hr`: always an array (one element when filtered). */
export const ticker24hrResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, tickers: z.array(tickerSchema) }),
);
/** `{ ok: true, tickers }` — an array even for one symbol; there is no singular `ticker`. */
export type Ticker24hrReturnType = Strict<z.infer<typeof ticker24hrResponseSchema>>;

/** Always `tickers: Ticker[]`, one element when `symbol` is given */
export const ticker24hrEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'market.ticker24hr',
  path: '/v2/ticker/24hr',
  auth: 'public',
  params: ticker24hrParamsSchema,
  response: ticker24hrResponseSchema,
});

/**
 * `GET /v2/ticker/24hr` — 24-hour statistics. Public (no key), `public` bucket; may be CDN-cached.
 *
 * @throws {RequestValidationError} empty `symbol`, unknown keys.
 * @throws {ServerError | ConnectionError | TimeoutError}
 *
 * @example
 * ```ts
 * import { ticker24hr } from 'futures-sdk/market';
 * const { tickers } = await ticker24hr(client, { symbol: 'BTCUSDT' });
 * ```
 */
export async function ticker24hr(
  client: BaseClient | PublicClient,
  query: Ticker24hrParameters = {},
  options?: CallOptions,
): Promise<Ticker24hrReturnType> {
  return await callEndpoint(contextOf(client), ticker24hrEndpoint, { params: query, options });
}
