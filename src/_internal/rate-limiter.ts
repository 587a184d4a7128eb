import type { BucketName, SharedBudget } from '../fleet/types.ts';
import type { Logger } from '../options.ts';
import { type AcquireOptions, BucketQueue, type Slot } from './bucket-queue.ts';
import type { Clock } from './clock.ts';
import type { MemoryBudget } from './memory-budget.ts';

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

/** The spec's limits: orders 300/min, batch 100/min, close 300/min, everything else 1000/min per account. */
export const SPEC_BUCKET_LIMITS: BucketLimits = {
  orders: { limit: 300, windowMs: 60_000 },
  batch: { limit: 100, windowMs: 60_000 },
  close: { limit: 300, windowMs: 60_000 },
  default: { limit: 1000, windowMs: 60_000 },
  public: { limit: Number.POSITIVE_INFINITY, windowMs: 60_000 },
};

/**
 * Client-side pacing per bucket, on top of a {@link SharedBudget} (in memory, or a fleet's): a call takes a slot
 * before it is sent and settles it with what became of the attempt, so the client counts requests the way the
 * server does. Waiting calls are served `trading` first, then `normal`, then `background`, FIFO within a class.
 * A 429's `Retry-After` pauses its bucket for everyone. With `enforceLimits` false only the pauses apply.
 */
export class RateLimiter {
  private readonly queues = new Map<BucketName, BucketQueue>();
  private readonly budget: SharedBudget | undefined;
  private readonly limits: BucketLimits;
  private readonly enforceLimits: boolean;
  private readonly logger: Logger | undefined;
  private readonly maxPauseMs: number;

  private readonly clock: Clock;

  constructor(
    clock: Clock,
    options: {
      limits?: BucketLimits | undefined;
      enforceLimits?: boolean | undefined;
      budget?: SharedBudget | undefined;
      logger?: Logger | undefined;
      maxPauseMs?: number | undefined;
    } = {},
  ) {
    this.clock = clock;
    this.limits = options.limits ?? SPEC_BUCKET_LIMITS;
    this.enforceLimits = options.enforceLimits ?? true;
    this.budget = options.budget;
    this.logger = options.logger;
    this.maxPauseMs = options.maxPauseMs ?? Number.POSITIVE_INFINITY;
  }

  private queue(name: BucketName): BucketQueue {
    let queue = this.queues.get(name);
    if (!queue) {
      const limits = this.limits[name];
      queue = new BucketQueue(name, limits, {
        clock: this.clock,
        budget: this.budget,
        counted: this.enforceLimits && Number.isFinite(limits.limit) && this.budget !== undefined,
        logger: this.logger,
        maxPauseMs: this.maxPauseMs,
      });
      this.queues.set(name, queue);
    }
    return queue;
  }

  /**
   * Waits for a slot of `name`. Rejects with the signal's reason when it aborts, with `RateLimitError` when the
   * bucket is paused for longer than `timeoutMs`, and with `FleetUnavailableError` when a fleet's budget fails.
   */
  acquire(name: BucketName, options: AcquireOptions): Promise<Slot> {
    return this.queue(name).acquire(options);
  }

  /**
   * Each spec bucket as this client sees it (see `BaseClient.rateLimits`): its limit (this member's share with a
   * fleet), the slots used in the current window, the calls waiting, and the end of a pause. A budget that cannot
   * be read without I/O (a Redis fleet's) shows the spec limit and this client's own requests in flight.
   */
  view(): RateLimitView[] {
    const now = this.clock.now();
    const views: RateLimitView[] = [];
    for (const bucket of Object.keys(this.limits) as BucketName[]) {
      const { limit, windowMs } = this.limits[bucket];
      if (!Number.isFinite(limit)) continue;
      const queue = this.queues.get(bucket)?.view();
      const usage = (this.budget as Partial<MemoryBudget> | undefined)?.usage?.(bucket, { limit, windowMs });
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
    this.queue(name).pause(forMs, byKillSwitch);
  }
}
