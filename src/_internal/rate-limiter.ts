import type { Clock } from './clock.ts';

/** The spec's rate-limit buckets, plus `public` (no documented limit; paused only by a 429). */
export type BucketName = 'orders' | 'batch' | 'close' | 'default' | 'public';

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

class Bucket {
  /** Start times of the requests in the current window, oldest first. */
  private readonly starts: number[] = [];
  private pausedUntil = 0;
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly clock: Clock,
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly enforceLimit: boolean,
  ) {}

  pause(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }

  /** Waits (first come, first served) until a request may start, then counts it. */
  acquire(signal?: AbortSignal): Promise<void> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    const run = async () => {
      try {
        await waitOrAbort(previous, signal);
        await this.waitForSlot(signal);
      } finally {
        release();
      }
    };
    return run();
  }

  private async waitForSlot(signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const now = this.clock.now();
      if (now < this.pausedUntil) {
        await this.clock.sleep(this.pausedUntil - now, signal);
        continue;
      }
      if (this.enforceLimit) {
        while (this.starts.length > 0 && this.starts[0]! <= now - this.windowMs) this.starts.shift();
        if (this.starts.length >= this.limit) {
          await this.clock.sleep(this.starts[0]! + this.windowMs - now, signal);
          continue;
        }
        this.starts.push(now);
      }
      return;
    }
  }
}

function waitOrAbort(promise: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

/**
 * Client-side pacing per bucket: a call beyond a bucket's budget waits its turn instead of earning a 429, and
 * a 429's `Retry-After` pauses its bucket for every caller. With `enforceLimits` false only the pauses apply.
 */
export class RateLimiter {
  private readonly buckets = new Map<BucketName, Bucket>();

  constructor(
    private readonly clock: Clock,
    private readonly limits: BucketLimits = SPEC_BUCKET_LIMITS,
    private readonly enforceLimits = true,
  ) {}

  private bucket(name: BucketName): Bucket {
    let bucket = this.buckets.get(name);
    if (!bucket) {
      const { limit, windowMs } = this.limits[name];
      bucket = new Bucket(this.clock, limit, windowMs, this.enforceLimits && Number.isFinite(limit));
      this.buckets.set(name, bucket);
    }
    return bucket;
  }

  acquire(name: BucketName, signal?: AbortSignal): Promise<void> {
    return this.bucket(name).acquire(signal);
  }

  /** Holds every request of `name` until the local time `until`. */
  pause(name: BucketName, until: number): void {
    this.bucket(name).pause(until);
  }
}
