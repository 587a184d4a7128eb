/**
 * futures-sdk/testing: a deterministic, in-memory simulated exchange that follows the spec, for the SDK's own
 * tests, the examples, and your bot's unit tests. It needs nothing but the platform (fetch, Request, Web Crypto):
 * Node.js, Bun, Deno, Cloudflare Workers and browsers. The MSW handlers (`futures-sdk/testing/msw`) and the
 * loopback server (`futures-sdk/testing/server`, also `ex.listen()`) are separate entries, loaded only when used.
 *
 * @example
 * ```ts
 * import { createExchange } from 'futures-sdk/testing';
 * import { FuturesClient } from 'futures-sdk';
 *
 * const ex = createExchange({ seed: 1 });
 * const { accountId } = ex.createAccount({ balances: { USDT: '10000' } });
 * const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
 * const client = new FuturesClient({ baseUrl: ex.baseUrl, apiKey, apiSecret, fetch: ex.fetch });
 * ```
 * @packageDocumentation
 * @module futures-sdk/testing
 */

export {
  ACCOUNT_CHANNEL_PATH,
  type AccountChannelSocket,
  type AccountEvent,
  type CorsOptions,
  type ExchangeEndpoint,
  type ExchangeHandler,
  type ListeningExchange,
  type ListenOptions,
  type RequestMeta,
  SimulatedNetworkError,
} from './_types.ts';
export {
  CLOSE_QUANTITY_ERROR,
  DEFAULT_LEVERAGE,
  FUNDING_INTERVAL_MS,
  MAINTENANCE_MARGIN_RATE,
  MAKER_FEE_RATE,
  TAKER_FEE_RATE,
  TRANSFER_SETTLE_MS,
} from './engine/constants.ts';
// Renamed on export: the SDK entry has its own MarginType, PositionMode and OrderStatus types, and a test
// file often imports from both entries.
export type {
  MarginType as SimMarginType,
  OrderStatus as SimOrderStatus,
  OrderType as SimOrderType,
  Permission as ApiKeyPermission,
  PositionMode as SimPositionMode,
  PositionSide as SimPositionSide,
  Side as SimSide,
} from './engine/state.ts';
export {
  type AccountView,
  type CreateAccountOptions,
  createExchange,
  Exchange,
  type ExchangeOptions,
  type RequestLogEntry,
  type SimMakerFill,
} from './exchange.ts';
export type { CreateApiKeyOptions } from './http/auth.ts';
export { type FaultSpec, Faults } from './http/faults.ts';
export { BUCKET_LIMITS, type SimBucket } from './http/rate-limits.ts';
export type { SimOrder, SimPosition, SimTrade, SimTransfer } from './http/routes/shapes.ts';
export { ManualClock, type ManualClockOptions } from './manual-clock.ts';
export { MarketSimulator } from './market/simulator.ts';
export type {
  Candle,
  MarketSimulatorOptions,
  SimKlineInterval,
  SimLeaderboardPeriod,
  SimLeaderboardType,
  SimMarketChannel,
  SimPlatformStatus,
  SimPlatformToken,
  SimPublicTrade,
  SimTicker,
} from './market/types.ts';
