import type { FleetLane } from '../fleet/types.ts';
import type { Clock } from '../options.ts';

export type { Clock };

/** The real clock: `Date.now`, `Math.random` and the runtime's timers. */
export const systemClock: Required<Clock> = {
  now: () => Date.now(),
  random: () => Math.random(),
  setTimeout: (callback, ms) => setTimeout(callback, Math.max(0, ms)),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        systemClock.clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = systemClock.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** `clock` with timers: its own when it has both, else the runtime's. */
export function withTimers(clock: Clock): Required<Clock> {
  if (clock === systemClock) return systemClock;
  const timers = hasTimers(clock) ? clock : systemClock;
  return {
    now: () => clock.now(),
    random: () => clock.random(),
    sleep: (ms, signal) => clock.sleep(ms, signal),
    setTimeout: (callback, ms) => timers.setTimeout!(callback, ms),
    clearTimeout: (handle) => timers.clearTimeout!(handle),
  };
}

export function hasTimers(clock: Clock): boolean {
  return typeof clock.setTimeout === 'function' && typeof clock.clearTimeout === 'function';
}

const SOLO_LANE: FleetLane = { index: 0, count: 1 };

/** The smallest `t' >= t` in the lane (`t' % count === index`). */
function alignToLane(t: number, lane: FleetLane): number {
  const rest = (((t - lane.index) % lane.count) + lane.count) % lane.count;
  return rest === 0 ? t : t + lane.count - rest;
}

/** The offsets (server − local) consistent with one sample: `[low, high]`; `rttMs`, its request's round trip. */
type OffsetSample = Record<'low' | 'high' | 'rttMs', number>;

const MAX_SAMPLES = 8;

/** How long a handed-out timestamp is remembered: the server's 60 s replay window plus its 5 s drift. */
const REPLAY_MEMORY_MS = 65_000;

/**
 * Learns the server's clock offset from `Date` headers and hands out timestamps that never repeat on the server's
 * time axis, whatever the local clock does. A `Date` (1 s resolution) puts the offset in [D − received,
 * D + 1000 − sent]; the 8 lowest-latency samples are intersected (only the newest kept if they disagree: a clock
 * step), and the point closest to zero is used, so processes on one machine (a bot and its restarted successor)
 * share one time axis. Timestamps strictly increase; on the system clock a request leaves only once the clock has
 * passed its timestamp (signing.ts), so a later process signs later values; and every value is skipped for 65 s of
 * monotonic time (the server's replay cache ignores wall-clock jumps). A clock step shows up as `401 Invalid or
 * expired timestamp`: re-synced from that response's `Date` and retried once (the server did not act).
 */
export class ClockSync {
  #samples: OffsetSample[] = [];
  #offsetMs = 0;
  /** Lower bound of the next timestamp (last handed out + 1), on the server's time axis. */
  #floor = 0;
  /** Timestamps handed out recently → the monotonic time they were handed out (insertion order: oldest first). */
  readonly #issued = new Map<number, number>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Current estimate of server time − local time, in ms. */
  get offset(): number {
    return this.#offsetMs;
  }

  /**
   * Server time, never a value handed out in the last 65 s. With a fleet `lane`, only `t % count === index` and
   * `t >= floor`, so members of one fleet never sign the same timestamp (at most `count − 1` ms later).
   */
  nextTimestamp(lane: FleetLane = SOLO_LANE): number {
    const at = monotonicNow();
    const issued = this.#issued;
    for (const [timestamp, issuedAt] of issued) {
      if (issuedAt > at - REPLAY_MEMORY_MS) break;
      issued.delete(timestamp);
    }
    let ts = alignToLane(Math.max(this.#serverNow(), this.#floor, lane.floor ?? 0), lane);
    while (issued.has(ts)) ts += lane.count;
    this.#floor = ts + 1;
    issued.set(ts, at);
    return ts;
  }

  /** How far `timestamp` is ahead of the server's time now, in ms (≤ 0 when it is not). */
  aheadMs(timestamp: number): number {
    return timestamp - this.#serverNow();
  }

  #serverNow(): number {
    return Math.round(this.#clock.now() + this.#offsetMs);
  }

  /** Feeds a response's `Date` header, with the local send and receive times of that request. */
  addSample(dateHeader: string | null, sentAt: number, receivedAt: number): void {
    if (!dateHeader) return;
    const serverMs = Date.parse(dateHeader);
    // A receive time before the send time is a local clock stepped back during the request: no information.
    if (Number.isNaN(serverMs) || receivedAt < sentAt) return;
    const sample: OffsetSample = {
      low: serverMs - receivedAt,
      high: serverMs + 1000 - sentAt,
      rttMs: receivedAt - sentAt,
    };
    const samples = this.#samples;
    samples.push(sample);
    samples.sort((a, b) => a.rttMs - b.rttMs);
    if (samples.length > MAX_SAMPLES) samples.length = MAX_SAMPLES;
    let low = Math.max(...samples.map((s) => s.low));
    let high = Math.min(...samples.map((s) => s.high));
    if (low > high) {
      this.#samples = [sample];
      low = sample.low;
      high = sample.high;
    }
    // The point of [low, high] closest to zero.
    this.#offsetMs = low > 0 ? low : Math.min(high, 0);
  }

  /** Starts again from this sample (our timestamp was refused); the floor drops back (issued values stay skipped). */
  resync(dateHeader: string | null, sentAt: number, receivedAt: number): void {
    this.#samples = [];
    this.addSample(dateHeader, sentAt, receivedAt);
    this.#floor = Math.min(this.#floor, this.#serverNow());
  }
}

function monotonicNow(): number {
  return typeof performance === 'object' && typeof performance.now === 'function' ? performance.now() : Date.now();
}
