import type { BucketBudget, BucketName, SharedBudget } from '../fleet/types.ts';
import { BucketQueue, type BucketQueueDeps } from './bucket-queue.ts';
import type { Clock } from './clock.ts';
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

type RateLimiterOptions = Omit<BucketQueueDeps, 'clock' | 'counted'> & { enforceLimits: boolean };

/**
 * Client-side pacing per bucket on a {@link SharedBudget}: a slot is taken before sending and settled as the server
 * counts the attempt. A 429 pauses its bucket for every call; with `enforceLimits` false only pauses apply.
 */
export class RateLimiter {
  readonly #queues = new Map<BucketName, BucketQueue>();
  readonly #clock: Clock;
  readonly #options: RateLimiterOptions;

  constructor(clock: Clock, options: RateLimiterOptions) {
    this.#clock = clock;
    this.#options = options;
  }

  #queue(name: BucketName): BucketQueue {
    let queue = this.#queues.get(name);
    if (!queue) {
      const limits = SPEC_BUCKET_LIMITS[name];
      const { enforceLimits, budget } = this.#options;
      queue = new BucketQueue(name, limits, {
        ...this.#options,
        clock: this.#clock,
        counted: enforceLimits && Number.isFinite(limits.limit) && budget !== undefined,
      });
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
    const now = this.#clock.now();
    const views: RateLimitView[] = [];
    for (const [bucket, { limit, windowMs }] of Object.entries(SPEC_BUCKET_LIMITS) as [BucketName, BucketBudget][]) {
      if (!Number.isFinite(limit)) continue;
      const queue = this.#queues.get(bucket)?.view();
      const budget = this.#options.budget as Partial<MemoryBudget> | undefined;
      const usage = budget?.usage?.(bucket, { limit, windowMs });
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
  pause(name: BucketName, forMs: number, byKillSwitch = false): void {
    this.#queue(name).pause(forMs, byKillSwitch);
  }
}
