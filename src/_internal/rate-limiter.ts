import type { BucketBudget, BucketName, SharedBudget } from '../fleet/types.ts';
import { BucketQueue, type BucketQueueDeps } from './bucket-queue.ts';
import type { MemoryBudget } from './memory-budget.ts';
import type { AcquireOptions, Slot } from './slot.ts';

/** One rate-limit bucket as a client sees it, from `client.rateLimits()`. Nothing secret. */
export interface RateLimitView {
  /** The spec's bucket: `orders`, `batch`, `close` or `default`. */
  bucket: BucketName;
  /** Requests per window this client may send: the spec's limit, or this member's share of it in a fleet. */
  limit: number;
  /** The window's length in milliseconds. */
  windowMs: number;
  /** Slots used in the window ending now (requests sent or in flight, 429s not counted). */
  used: number;
  /** Calls of this client waiting in the bucket's queue. */
  queued: number;
  /** While a 429 pauses the bucket: when the pause ends, in epoch milliseconds (on the client's clock). */
  pausedUntil?: number | undefined;
}

export type { AcquireOptions, BucketName, Slot };

/** Requests per window of each bucket. */
export type BucketLimits = Record<BucketName, { limit: number; windowMs: number }>;

const perMinute = (limit: number) => ({ limit, windowMs: 60_000 });

/** The spec's limits: orders 300/min, batch 100/min, close 300/min, everything else 1000/min per account. */
export const SPEC_BUCKET_LIMITS: BucketLimits = {
  orders: perMinute(300),
  batch: perMinute(100),
  close: perMinute(300),
  default: perMinute(1000),
  public: perMinute(Infinity),
};

/** The client's settings the limiter reads (the transport's config): `rateLimit` false paces nothing. */
type RateLimiterConfig = BucketQueueDeps & { rateLimit: boolean };

/**
 * Client-side pacing per bucket on a {@link SharedBudget}: a slot is taken before sending and settled as the server
 * counts the attempt. A 429 pauses its bucket for every call; with `enforceLimits` false only pauses apply.
 */
export class RateLimiter {
  readonly #queues = new Map<BucketName, BucketQueue>();
  readonly #config: RateLimiterConfig;

  constructor(config: RateLimiterConfig) {
    this.#config = config;
  }

  #queue(name: BucketName): BucketQueue {
    let queue = this.#queues.get(name);
    if (!queue) {
      const limits = SPEC_BUCKET_LIMITS[name];
      const config = this.#config;
      const counted = config.rateLimit && Number.isFinite(limits.limit) && config.budget !== undefined;
      queue = new BucketQueue(name, limits, counted, config);
      this.#queues.set(name, queue);
    }
    return queue;
  }

  /** A slot of `name`; rejects with the signal's reason, a `RateLimitError` or a `FleetUnavailableError`. */
  acquire(name: BucketName, options: AcquireOptions): Promise<Slot> {
    return this.#queue(name).acquire(options);
  }

  /** Each spec bucket for `BaseClient.rateLimits`; with a Redis fleet: the spec limit, this client's in flight. */
  view(): RateLimitView[] {
    const now = this.#config.clock.now();
    const views: RateLimitView[] = [];
    for (const [bucket, limits] of Object.entries(SPEC_BUCKET_LIMITS) as [BucketName, BucketBudget][]) {
      const { limit, windowMs } = limits;
      if (!Number.isFinite(limit)) continue;
      const queue = this.#queues.get(bucket)?.view();
      const budget = this.#config.budget as Partial<MemoryBudget> | undefined;
      const usage = budget?.usage?.(bucket, limits);
      const view: RateLimitView = {
        bucket,
        limit: usage?.limit ?? limit,
        windowMs,
        used: usage?.used ?? queue?.inFlight ?? 0,
        queued: queue?.queued ?? 0,
      };
      const pausedUntil = Math.max(queue?.pausedUntil ?? 0, usage?.pausedUntil ?? 0);
      if (pausedUntil > now) view.pausedUntil = pausedUntil;
      views.push(view);
    }
    return views;
  }

  /** Holds every request of `name` for `forMs` (a 429's `Retry-After`), in the fleet's budget too. */
  pause(name: BucketName, forMs: number, byKillSwitch?: boolean): void {
    this.#queue(name).pause(forMs, byKillSwitch);
  }
}
