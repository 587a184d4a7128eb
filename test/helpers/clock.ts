import { ManualClock as PublicManualClock } from '../../src/testing/manual-clock.ts';

/**
 * The public fake (`ManualClock` of futures-sdk/testing) with sleeps that jump: `sleep(ms)` records `ms` and moves
 * time to (time at the call + ms) at once, so backoff and pacing are observable as numbers without real sleeping.
 */
export class FakeClock extends PublicManualClock {
  constructor(time = Date.UTC(2026, 3, 26, 12, 0, 0)) {
    super({ start: time });
  }
}

/**
 * The public fake with sleeps that wait: sleepers wake only when the test calls `advance`. Use it when time must
 * not jump while requests are still on the wire.
 */
export class ManualClock extends PublicManualClock {
  constructor(time = Date.UTC(2026, 3, 26, 12, 0, 0)) {
    super({ start: time, sleep: 'wait' });
  }
}

/**
 * A discrete-event clock: time stands still while anything else can run, and jumps to the next sleeper's
 * deadline only when the process is idle (no pending microtask or immediate). Client and simulator share it,
 * and latency injected with `sleep` then behaves like real latency, but a minute of traffic takes milliseconds.
 */
export class SteppingClock extends PublicManualClock {
  constructor(time = Date.UTC(2026, 3, 26, 12, 0, 0)) {
    super({ start: time, sleep: 'wait' });
  }

  /** Runs until `work` settles, moving time from one sleeper to the next whenever nothing else is runnable. */
  async run<T>(work: Promise<T>, maxSteps = 1_000_000): Promise<T> {
    let settled = false;
    const watched = work.finally(() => {
      settled = true;
    });
    watched.catch(() => {});
    let idle = 0;
    for (let step = 0; step < maxSteps; step++) {
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      if (settled) return watched;
      if (!this.advanceToNext()) {
        // Something runs on real time (a socket, a real timer): give it a moment before calling it stuck.
        if (++idle > 400) throw new Error('SteppingClock: nothing left to wait for, but the work is not done');
        await new Promise((resolve) => setTimeout(resolve, 5));
        continue;
      }
      idle = 0;
    }
    throw new Error('SteppingClock: too many steps');
  }
}

/** A seeded PRNG (mulberry32) in [0, 1): jitter that is the same on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
