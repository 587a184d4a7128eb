/**
 * Options of {@link ManualClock}.
 *
 * @example
 * ```ts
 * import { ManualClock, type ManualClockOptions } from 'futures-sdk/testing';
 * const options: ManualClockOptions = { start: 0, sleep: 'wait', random: 0 }; // waits end only on advance()
 * const clock = new ManualClock(options);
 * ```
 */
export interface ManualClockOptions {
  /**
   * Start time, ms since the epoch.
   * @default Date.UTC(2026, 0, 1)
   */
  start?: number | undefined;
  /**
   * What `sleep(ms)` does: `'jump'` moves time forward by `ms` at once (firing the timers it passes), so
   * backoff and pacing cost no real time; `'wait'` resolves only when {@link ManualClock.advance} reaches the
   * deadline, for tests that must control exactly when a wait ends.
   * @default 'jump'
   */
  sleep?: 'jump' | 'wait' | undefined;
  /**
   * What `random()` returns; 0.5 is the middle of every jitter range.
   * @default 0.5
   */
  random?: number | undefined;
}

interface Timer {
  id: number;
  at: number;
  callback: () => void;
}

/**
 * A clock (a complete `Clock` of futures-sdk) whose time moves only when the test (or a `sleep`) moves it: one fake for a client, its
 * stream and watcher, and the simulated exchange. Give the same instance to `createExchange({ clock })` and
 * `new FuturesClient({ clock })`, and `clock.advance(ms)` moves both: timestamps stay valid, timers of the
 * stream and the watcher fire in order, and timed work of the exchange (funding, stop triggers, JWT expiry)
 * catches up.
 *
 * @example
 * ```ts
 * import { FuturesClient } from 'futures-sdk';
 * import { createExchange, ManualClock } from 'futures-sdk/testing';
 * const clock = new ManualClock({ start: Date.parse('2026-01-01T00:00:00Z') });
 * const ex = createExchange({ seed: 1, clock });
 * const { accountId } = ex.createAccount({ balances: { USDT: '1000' } });
 * const client = new FuturesClient({ baseUrl: ex.baseUrl, ...ex.createApiKey(accountId), fetch: ex.fetch, clock });
 * const watcher = client.watch({ intervalMs: 5_000 });
 * clock.advance(60_000); // twelve polls of 5 s, fired in order, and no real waiting
 * await client.account.balance();
 * watcher.stop();
 * ```
 */
// Structurally a complete `Clock` of futures-sdk (checked by the tests that pass it as one): the simulator imports
// nothing of the client.
export class ManualClock {
  /** Current time, ms since the epoch. */
  time: number;
  /** What `random()` returns. */
  randomValue: number;
  /** Every `sleep` duration asked for, in call order. */
  readonly sleeps: number[] = [];
  /** Every timer delay asked for (`setTimeout`), in call order. */
  readonly scheduled: number[] = [];
  private readonly sleepMode: 'jump' | 'wait';
  private readonly timers = new Map<number, Timer>();
  private nextId = 1;

  constructor(options: ManualClockOptions = {}) {
    this.time = options.start ?? Date.UTC(2026, 0, 1);
    this.randomValue = options.random ?? 0.5;
    this.sleepMode = options.sleep ?? 'jump';
  }

  /** The current time (moves only with {@link ManualClock.advance} and jumping sleeps). */
  now(): number {
    return this.time;
  }

  /** {@link ManualClock.randomValue}: jitter is deterministic. */
  random(): number {
    return this.randomValue;
  }

  /** Arms a timer that fires when time reaches now + `ms`; returns its handle. */
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.scheduled.push(ms);
    this.timers.set(id, { id, at: this.time + Math.max(0, ms), callback });
    return id;
  }

  /** Disarms a timer of {@link ManualClock.setTimeout}. */
  clearTimeout(handle: unknown): void {
    if (typeof handle === 'number') this.timers.delete(handle);
  }

  /** Waits `ms` of this clock's time: jumps there at once, or (`sleep: 'wait'`) until advanced there. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.sleepMode === 'jump') {
      // Each sleeper wakes at its own deadline (two 500 ms waits started together end at +500, not +1000);
      // after a microtask, so that a caller that aborts right after starting the wait still sees it reject.
      const wakeAt = this.time + Math.max(0, ms);
      return Promise.resolve().then(() => {
        signal?.throwIfAborted();
        this.advance(Math.max(0, wakeAt - this.time));
      });
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.clearTimeout(id);
        reject(signal?.reason);
      };
      const id = this.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      this.scheduled.pop(); // a sleep, not a timer the code under test armed
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Timers armed and not yet fired or cleared. */
  get pending(): number {
    return this.timers.size;
  }

  /**
   * Moves time to the earliest armed timer (or `sleep: 'wait'` sleeper) and fires everything due then; returns
   * false when nothing is armed. Drives a discrete-event simulation: call it whenever the code under test is idle.
   */
  advanceToNext(): boolean {
    let at: number | undefined;
    for (const timer of this.timers.values()) if (at === undefined || timer.at < at) at = timer.at;
    if (at === undefined) return false;
    this.advance(Math.max(0, at - this.time));
    return true;
  }

  /** Moves time forward by `ms`, firing due timers in deadline order (each sees `now()` at its deadline). */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance(ms) needs a non-negative number, got ${ms}`);
    const target = this.time + ms;
    for (;;) {
      let next: Timer | undefined;
      for (const timer of this.timers.values()) if (timer.at <= target && (!next || timer.at < next.at)) next = timer;
      if (!next) break;
      this.timers.delete(next.id);
      this.time = Math.max(this.time, next.at);
      next.callback();
    }
    this.time = Math.max(this.time, target);
  }
}
