import type { FleetLane } from '../fleet/types.ts';
import type { Clock } from '../options.ts';

export type { Clock };

/** The real clock: `Date.now`, `Math.random` and the runtime's timers. */
export const systemClock: Required<Clock> = {
  now: () => Date.now(),
  random: () => Math.random(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, Math.max(0, ms)),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
  sleep(ms, signal) {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
};

/**
 * `clock` with timers: its own when it has both `setTimeout` and `clearTimeout`, else the runtime's (a clock
 * written before timers were part of `Clock` keeps the behaviour it had: real timers, its own `now`).
 */
export function withTimers(clock: Clock): Required<Clock> {
  if (clock === systemClock) return systemClock;
  const own = hasTimers(clock);
  return {
    now: () => clock.now(),
    random: () => clock.random(),
    sleep: (ms, signal) => clock.sleep(ms, signal),
    setTimeout: own ? (callback, ms) => clock.setTimeout!(callback, ms) : systemClock.setTimeout,
    clearTimeout: own ? (handle) => clock.clearTimeout!(handle) : systemClock.clearTimeout,
  };
}

/** True when `clock` brings its own timers (both `setTimeout` and `clearTimeout`). */
export function hasTimers(clock: Clock): boolean {
  return typeof clock.setTimeout === 'function' && typeof clock.clearTimeout === 'function';
}

const SOLO_LANE: FleetLane = { index: 0, count: 1 };

/** The smallest `t' >= t` in the lane (`t' % count === index`). */
function alignToLane(t: number, lane: FleetLane): number {
  const rest = (((t - lane.index) % lane.count) + lane.count) % lane.count;
  return rest === 0 ? t : t + lane.count - rest;
}

interface OffsetSample {
  /** Lowest offset (server − local) consistent with the sample. */
  low: number;
  /** Highest offset consistent with the sample. */
  high: number;
  roundTripMs: number;
}

const MAX_SAMPLES = 8;

/** How long a handed-out timestamp is remembered: the server's 60 s replay window plus its 5 s drift. */
const REPLAY_MEMORY_MS = 65_000;

/**
 * Learns the offset between the local clock and the server's from `Date` headers, and hands out timestamps
 * that never repeat.
 *
 * A `Date` header has one-second resolution, so one sample says only that the server's clock read
 * [D, D + 1000) at some instant between sending and receiving: offset ∈ [D − received, D + 1000 − sent].
 * The lowest-latency samples (at most 8) are intersected, which narrows that window; if they disagree (the
 * local clock was stepped) only the newest sample is kept.
 *
 * Timestamps are strictly increasing while the estimate holds. A re-sync that moves the estimate backwards
 * (the local clock was ahead) must let timestamps go back too, or every later request would still be rejected
 * as too far in the future; uniqueness then comes from skipping every value handed out in the replay window.
 */
export class ClockSync {
  private samples: OffsetSample[] = [];
  private offsetMs = 0;
  /** Lower bound of the next timestamp (last handed out + 1) within the current estimate. */
  private floor = 0;
  /** Timestamps handed out recently, with the local time they were handed out, oldest first. */
  private readonly issued: Array<{ timestamp: number; at: number }> = [];
  private readonly issuedSet = new Set<number>();
  private readonly clock: Clock;

  constructor(clock: Clock) {
    this.clock = clock;
  }

  /** Current estimate of server time − local time, in ms. */
  get offset(): number {
    return this.offsetMs;
  }

  /**
   * A timestamp for the next signed request: server time, never one handed out in the last 65 s. With a fleet
   * `lane`, only values `t` with `t % lane.count === lane.index` and `t >= lane.floor` are used, so members of one
   * fleet never sign the same timestamp (each value is at most `count − 1` ms later than it would be alone).
   */
  nextTimestamp(lane: FleetLane = SOLO_LANE): number {
    const now = this.clock.now();
    while (this.issued.length > 0 && this.issued[0]!.at <= now - REPLAY_MEMORY_MS) {
      this.issuedSet.delete(this.issued.shift()!.timestamp);
    }
    let ts = alignToLane(Math.max(Math.round(now + this.offsetMs), this.floor, lane.floor ?? 0), lane);
    while (this.issuedSet.has(ts)) ts += lane.count;
    this.floor = ts + 1;
    this.issued.push({ timestamp: ts, at: now });
    this.issuedSet.add(ts);
    return ts;
  }

  /** Feeds a response's `Date` header, with the local send and receive times of that request. */
  addSample(dateHeader: string | null, sentAt: number, receivedAt: number): void {
    if (!dateHeader) return;
    const serverMs = Date.parse(dateHeader);
    if (Number.isNaN(serverMs)) return;
    const sample: OffsetSample = {
      low: serverMs - receivedAt,
      high: serverMs + 1000 - sentAt,
      roundTripMs: Math.max(0, receivedAt - sentAt),
    };
    this.samples.push(sample);
    this.samples.sort((a, b) => a.roundTripMs - b.roundTripMs);
    if (this.samples.length > MAX_SAMPLES) this.samples.length = MAX_SAMPLES;
    let low = Number.NEGATIVE_INFINITY;
    let high = Number.POSITIVE_INFINITY;
    for (const s of this.samples) {
      low = Math.max(low, s.low);
      high = Math.min(high, s.high);
    }
    if (low > high) {
      this.samples = [sample];
      low = sample.low;
      high = sample.high;
    }
    this.offsetMs = Math.round((low + high) / 2);
  }

  /** Forgets every sample (after the server said our timestamp was off) and starts again from this one. */
  resync(dateHeader: string | null, sentAt: number, receivedAt: number): void {
    this.samples = [];
    this.addSample(dateHeader, sentAt, receivedAt);
    this.floor = 0;
  }
}
