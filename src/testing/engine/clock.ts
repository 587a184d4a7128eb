/**
 * The simulated exchange's clock. Server time is `base() + advancedMs`: by default `base` is the real
 * `Date.now()`, so the server follows real time, and every `advance(ms)` jumps it forward. Nothing in the engine
 * uses a real timer; timed work is caught up lazily against this clock.
 */
export class VirtualClock {
  private advancedMs = 0;
  private readonly base: () => number;

  constructor(base: () => number = Date.now) {
    this.base = base;
  }

  /** Simulated server time in ms since the epoch. */
  now(): number {
    return this.base() + this.advancedMs;
  }

  /** Moves server time forward by `ms` (must be ≥ 0). */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance(ms) needs a non-negative number, got ${ms}`);
    this.advancedMs += ms;
  }
}
