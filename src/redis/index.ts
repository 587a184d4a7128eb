/**
 * futures-sdk/redis (Node only): a `Fleet` whose members share one API key through Redis — timestamp lanes
 * leased from Redis and rate-limit buckets counted by atomic scripts on Redis's clock. Needs the optional peer
 * dependency `ioredis` (`npm install ioredis`) when given a `url`. See docs/fleet.md.
 *
 * @example
 * ```ts
 * import { FuturesClient } from 'futures-sdk';
 * import { createRedisFleet } from 'futures-sdk/redis';
 *
 * const fleet = await createRedisFleet({ url: process.env.REDIS_URL!, namespace: 'main-key' });
 * const client = new FuturesClient({ baseUrl: 'https://api.example.com', apiKey, apiSecret, fleet });
 * ```
 * @packageDocumentation
 * @module futures-sdk/redis
 */

export type { RedisFleet, RedisFleetClient, RedisFleetOptions } from './options.ts';
export { createRedisFleet } from './redis-fleet.ts';
