import type { Clock } from '../../src/_internal/clock.ts';

/**
 * A clock that never waits: `sleep(ms)` records `ms` and moves time to (time at the call + ms) at once, so
 * backoff and pacing are observable as numbers without real sleeping. Concurrent sleepers each wake at their
 * own deadline and time never runs backwards.
 */
export class FakeClock implements Clock {
  /** Every `sleep` duration asked for, in call order. */
  readonly sleeps: number[] = [];
  /** Returned by `random()`; 0.5 puts jittered backoff in the middle of its range. */
  randomValue = 0.5;

  constructor(public time = Date.UTC(2026, 3, 26, 12, 0, 0)) {}

  now(): number {
    return this.time;
  }

  random(): number {
    return this.randomValue;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    this.sleeps.push(ms);
    const wakeAt = this.time + Math.max(0, ms);
    await Promise.resolve();
    signal?.throwIfAborted();
    this.time = Math.max(this.time, wakeAt);
  }

  advance(ms: number): void {
    this.time += ms;
  }
}

/**
 * A clock that moves only when the test calls `advance`: sleepers wake when time reaches their deadline. Use it
 * when time must not jump while requests are still on the wire.
 */
export class ManualClock implements Clock {
  readonly sleeps: number[] = [];
  private readonly timers: Array<{ at: number; resolve: () => void }> = [];

  constructor(public time = Date.UTC(2026, 3, 26, 12, 0, 0)) {}

  now(): number {
    return this.time;
  }

  random(): number {
    return 0.5;
  }

  /** How many sleepers are waiting. */
  get pending(): number {
    return this.timers.length;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = { at: this.time + Math.max(0, ms), resolve };
      this.timers.push(timer);
      signal?.addEventListener('abort', () => {
        this.timers.splice(this.timers.indexOf(timer), 1);
        reject(signal.reason);
      });
    });
  }

  advance(ms: number): void {
    this.time += ms;
    for (const timer of [...this.timers]) {
      if (timer.at <= this.time) {
        this.timers.splice(this.timers.indexOf(timer), 1);
        timer.resolve();
      }
    }
  }
}
