/**
 * futures-sdk: the typed client of the perpetual-futures trading REST API. Bundles that need only part of the API
 * import `createBaseClient` from here and standalone functions from `futures-sdk/orders`, `/futures`, `/account` or
 * `/market`.
 * @example
 * ```ts
 * import { FuturesClient } from 'futures-sdk';
 * const client = new FuturesClient({ baseUrl: 'https://api.example.com', apiKey, apiSecret });
 * ```
 * @packageDocumentation
 * @module futures-sdk
 */

export type { RequestTraceContext } from './_internal/endpoint-call.ts';
export type { RateLimitView } from './_internal/rate-limiter.ts';
export { type BaseClient, createBaseClient } from './base-client.ts';
export { FuturesClient, type FuturesClientOptions, type WebSocketConstructor } from './client.ts';
export * from './endpoints/index.ts';
export * from './errors/index.ts';
export * from './events/index.ts';
export { type StaticFleetOptions, staticFleet } from './fleet/static-fleet.ts';
export type { BucketBudget, Fleet, FleetLane, SharedBudget, SlotGrant } from './fleet/types.ts';
export * from './helpers/index.ts';
export type { MarketDepth, MarketFeed, MarketFeedOptions, MarketMessageSource } from './market-feed/market-feed.ts';
export type {
  CallOptions,
  ClientHooks,
  Clock,
  FetchOptions,
  HookEventBase,
  Logger,
  RateLimitOptions,
  RequestHookEvent,
  ResponseHookEvent,
  RetryHookEvent,
  RetryOptions,
  Signer,
} from './options.ts';
export { createPublicClient, type PublicClient, type PublicClientOptions } from './public-client.ts';
export { AccountResource } from './resources/account.ts';
export { FuturesResource } from './resources/futures.ts';
export { MarketResource } from './resources/market.ts';
export { OrdersResource } from './resources/orders.ts';
export * from './schemas/index.ts';
export { canonicalQuery, hmacSha256Hex, type QueryParams, type QueryValue } from './signer.ts';
