import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { symbolParam } from '../../_internal/validate.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import type { PublicClient } from '../../public-client.ts';
import { okTrue } from '../../schemas/common.ts';
import { KLINE_INTERVALS, type KlineInterval, klineSchema } from '../../schemas/market.ts';
import type { Strict } from '../../schemas/strict.ts';
import { optionalPositiveInt } from '../_shared.ts';

/** Query of `GET /v2/klines`. */
export interface KlinesParameters {
  /** Contract symbol. Required. */
  symbol: string;
  /** Candle interval: `1m 3m 5m 15m 30m 1h 2h 4h 6h 8h 12h 1d 3d 1w 1M`. */
  interval: KlineInterval;
  /** Number of candles (the newest ones). @default 300 */
  limit?: number | undefined;
  /** Rejected: the server ignores time ranges (a backfill would quietly get the newest `limit` candles). */
  startTime?: never;
  /** Not supported, see `startTime`. */
  endTime?: never;
}

const ignoredByServer = /* @__PURE__ */ pure(() =>
  z.optional(
    z.undefined({
      error:
        'is not supported (the server ignores it and returns the newest `limit` candles): filter by openTime yourself',
    }),
  ),
);

/** Run-time check of {@link KlinesParameters}. */
export const klinesParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({
    symbol: symbolParam,
    interval: z.enum(KLINE_INTERVALS, { error: `must be one of ${KLINE_INTERVALS.join(' ')}` }),
    limit: optionalPositiveInt,
    startTime: ignoredByServer,
    endTime: ignoredByServer,
  }),
);

/** Response of `GET /v2/klines`. */
export const klinesResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, data: z.array(klineSchema) }),
);
/** `{ ok: true, data: Kline[] }` — each candle a 12-tuple; `parseKline` names the fields. */
export type KlinesReturnType = Strict<z.infer<typeof klinesResponseSchema>>;

/** 12-tuples; newest `limit` only */
export const klinesEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'market.klines',
  path: '/v2/klines',
  auth: 'public',
  params: klinesParamsSchema,
  response: klinesResponseSchema,
});

/**
 * `GET /v2/klines` — the newest `limit` candles, each a 12-tuple (`parseKline` names the fields); `startTime`/`endTime`
 * are rejected, as the server ignores them. Public, `public` bucket.
 *
 * @throws {RequestValidationError} missing `symbol`, interval outside the documented set, `limit` < 1,
 *   `startTime`/`endTime` given.
 * @throws {ServerError | ConnectionError | TimeoutError}
 *
 * @example
 * ```ts
 * import { klines } from 'futures-sdk/market';
 * const candles = await klines(client, { symbol: 'BTCUSDT', interval: '1m', limit: 100 });
 * ```
 */
export async function klines(
  client: BaseClient | PublicClient,
  query: KlinesParameters,
  options?: CallOptions,
): Promise<KlinesReturnType> {
  return await callEndpoint(contextOf(client), klinesEndpoint, { params: query, options });
}
