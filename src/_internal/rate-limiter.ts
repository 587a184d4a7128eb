import type { BucketName, SharedBudget } from '../fleet/types.ts';
import type { Logger } from '../options.ts';
import { type AcquireOptions, BucketQueue, type Slot } from './bucket-queue.ts';
import type { Clock } from './clock.ts';

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
  readonly budget: SharedBudget | undefined;
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

  /** Holds every request of `name` for `forMs` (a 429's `Retry-After`), in the fleet's budget too. */
  pause(name: BucketName, forMs: number, byKillSwitch = false): void {
    this.queue(name).pause(forMs, byKillSwitch);
  }
}
