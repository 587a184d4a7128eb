/**
 * futures-sdk/market: every method of `client.market` (public market data and platform status) as a standalone function taking the client
 * first. Import only the functions you call, with a client from `createBaseClient`, and a bundler keeps only
 * those endpoints. A {@link futures-sdk!FuturesClient | FuturesClient} is accepted too; each function returns exactly what the resource method
 * returns (the resource methods call these functions).
 *
 * @example
 * ```ts
 * import { createBaseClient } from 'futures-sdk';
 * import { health } from 'futures-sdk/market';
 * const client = createBaseClient({ baseUrl: 'https://api.example.com', apiKey, apiSecret });
 * await health(client);
 * ```
 * @packageDocumentation
 * @module futures-sdk/market
 */

import { type BaseClient, contextOf } from '../base-client.ts';
import { type DepthParameters, type DepthReturnType, depth as depthAction } from '../endpoints/market/depth.ts';
import {
  type FundingRateParameters,
  type FundingRateReturnType,
  fundingRate as fundingRateAction,
} from '../endpoints/market/funding-rate.ts';
import { type HealthReturnType, health as healthAction } from '../endpoints/market/health.ts';
import { type KlinesParameters, type KlinesReturnType, klines as klinesAction } from '../endpoints/market/klines.ts';
import {
  type LeaderboardParameters,
  type LeaderboardReturnType,
  leaderboard as leaderboardAction,
} from '../endpoints/market/leaderboard.ts';
import {
  type PlatformStatusReturnType,
  platformStatus as platformStatusAction,
} from '../endpoints/market/platform-status.ts';
import {
  type PlatformTokensReturnType,
  platformTokens as platformTokensAction,
} from '../endpoints/market/platform-tokens.ts';
import { type SymbolsReturnType, symbols as symbolsAction } from '../endpoints/market/symbols.ts';
import {
  type Ticker24hrParameters,
  type Ticker24hrReturnType,
  ticker24hr as ticker24hrAction,
} from '../endpoints/market/ticker-24hr.ts';
import { type TradesParameters, type TradesReturnType, trades as tradesAction } from '../endpoints/market/trades.ts';
import type { CallOptions } from '../options.ts';
// For the {@link futures-sdk!FuturesClient | FuturesClient} references in TSDoc.
import type { LeaderboardType } from '../schemas/market.ts';

/**
 * `GET /health` — liveness probe. Public (no key, no signature), unversioned path, `public` bucket.
 * Same as `client.market.health(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {ServerError | ConnectionError | TimeoutError}
 *
 * @example
 * ```ts
 * import { health } from 'futures-sdk/market';
 * await health(client);
 * ```
 */
export async function health(client: BaseClient, options?: CallOptions): Promise<HealthReturnType> {
  return healthAction(contextOf(client), options);
}

/**
 * `GET /v2/symbols` — every active contract symbol. Public, `public` bucket.
 * Same as `client.market.symbols(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {ServerError | ConnectionError | TimeoutError}
 *
 * @example
 * ```ts
 * import { symbols } from 'futures-sdk/market';
 * const { symbols: all } = await symbols(client);
 * ```
 */
export async function symbols(client: BaseClient, options?: CallOptions): Promise<SymbolsReturnType> {
  return symbolsAction(contextOf(client), options);
}

/**
 * `GET /v2/ticker/24hr` — 24-hour statistics. Public (no key), `public` bucket; may be CDN-cached.
 * Same as `client.market.ticker24hr(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
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
  client: BaseClient,
  query?: Ticker24hrParameters,
  options?: CallOptions,
): Promise<Ticker24hrReturnType> {
  return ticker24hrAction(contextOf(client), query, options);
}

/**
 * `GET /v2/depth` — top `limit` bids and asks. Public, `public` bucket. There is no `lastUpdateId`, so a
 * snapshot cannot be stitched to a diff stream.
 * Same as `client.market.depth(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
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
  client: BaseClient,
  query: DepthParameters,
  options?: CallOptions,
): Promise<DepthReturnType> {
  return depthAction(contextOf(client), query, options);
}

/**
 * `GET /v2/trades` — recent public trades. Public, `public` bucket.
 * Same as `client.market.trades(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
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
  client: BaseClient,
  query: TradesParameters,
  options?: CallOptions,
): Promise<TradesReturnType> {
  return tradesAction(contextOf(client), query, options);
}

/**
 * `GET /v2/funding-rate` — current funding rate (decimal string), or `null` when not cached yet. Public,
 * `public` bucket.
 * Same as `client.market.fundingRate(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
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
  client: BaseClient,
  query: FundingRateParameters,
  options?: CallOptions,
): Promise<FundingRateReturnType> {
  return fundingRateAction(contextOf(client), query, options);
}

/**
 * `GET /v2/klines` — the newest `limit` candles. Public, `public` bucket.
 *
 * Time ranges are not supported by the server (it ignores `startTime`/`endTime`), so the SDK does not accept
 * them; a 12-tuple per candle comes back — convert with `parseKline`.
 * Same as `client.market.klines(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
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
  client: BaseClient,
  query: KlinesParameters,
  options?: CallOptions,
): Promise<KlinesReturnType> {
  return klinesAction(contextOf(client), query, options);
}

/**
 * `GET /v2/leaderboard` — ranking by volume, referrals or commission. Public, `public` bucket. The result is
 * typed by the `type` you pass.
 * Same as `client.market.leaderboard(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {RequestValidationError} missing/unknown `type`, `limit` outside 1..100, `period` not 7d/30d/all.
 * @throws {BadRequestError} the server rejected the period.
 * @throws {ServerError | ConnectionError | TimeoutError}
 *
 * @example
 * ```ts
 * import { leaderboard } from 'futures-sdk/market';
 * const board = await leaderboard(client, { type: 'volume', limit: 10 });
 * ```
 */
export async function leaderboard<T extends LeaderboardType>(
  client: BaseClient,
  query: LeaderboardParameters<T>,
  options?: CallOptions,
): Promise<LeaderboardReturnType<T>> {
  return leaderboardAction(contextOf(client), query, options);
}

/**
 * `GET /v2/platform/tokens` — the (chainId, asset) → decimals registry used for typed-data signatures. Public,
 * `public` bucket; cached up to 300 s (compare `hash` to detect changes).
 * Same as `client.market.platformTokens(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {ServerError | ConnectionError | TimeoutError}
 *
 * @example
 * ```ts
 * import { platformTokens } from 'futures-sdk/market';
 * const tokens = await platformTokens(client);
 * ```
 */
export async function platformTokens(client: BaseClient, options?: CallOptions): Promise<PlatformTokensReturnType> {
  return platformTokensAction(contextOf(client), options);
}

/**
 * `GET /v2/platform/status` — which platform features are switched on. Public, `public` bucket.
 * Same as `client.market.platformStatus(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {ServerError | ConnectionError | TimeoutError}
 *
 * @example
 * ```ts
 * import { platformStatus } from 'futures-sdk/market';
 * const status = await platformStatus(client);
 * ```
 */
export async function platformStatus(client: BaseClient, options?: CallOptions): Promise<PlatformStatusReturnType> {
  return platformStatusAction(contextOf(client), options);
}
