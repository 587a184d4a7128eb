/**
 * Server-side rate-limit buckets of the spec's Limits table, per accountId, over a sliding 60 s window.
 *
 * @example
 * ```ts
 * import type { SimBucket } from 'futures-sdk/testing';
 * const bucket: SimBucket = 'orders'; // POST /v2/orders
 * ```
 */
export type SimBucket = 'orders' | 'batch' | 'close' | 'default';

/**
 * Requests per 60 s per accountId, by bucket.
 *
 * @example
 * ```ts
 * import { BUCKET_LIMITS } from 'futures-sdk/testing'; // { orders: 300, batch: 100, close: 300, default: 1000 }
 * ```
 */
export const BUCKET_LIMITS: Readonly<Record<SimBucket, number>> = {
  orders: 300,
  batch: 100,
  close: 300,
  default: 1000,
};
const WINDOW_MS = 60_000;

export class RateLimits {
  private readonly hits = new Map<string, number[]>();

  /** Records a hit, or returns the seconds to wait (for `Retry-After`) when the bucket is full. */
  hit(accountId: string, bucket: SimBucket, now: number): number | undefined {
    const key = `${accountId}\u0000${bucket}`;
    const times = this.hits.get(key) ?? [];
    this.hits.set(key, times);
    while (times.length > 0 && times[0]! <= now - WINDOW_MS) times.shift();
    if (times.length >= BUCKET_LIMITS[bucket]) {
      return Math.max(1, Math.ceil((times[0]! + WINDOW_MS - now) / 1000));
    }
    times.push(now);
    return undefined;
  }
}
