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

export {
  createMarketFeed,
  type MarketDepth,
  type MarketFeed,
  type MarketFeedOptions,
  type MarketMessageSource,
} from '../../market-feed/market-feed.ts';
export { depth } from './depth.ts';
export { fundingRate } from './funding-rate.ts';
export { health } from './health.ts';
export { klines } from './klines.ts';
export { leaderboard } from './leaderboard.ts';
export { platformStatus } from './platform-status.ts';
export { platformTokens } from './platform-tokens.ts';
export { symbols } from './symbols.ts';
export { ticker24hr } from './ticker-24hr.ts';
export { trades } from './trades.ts';
