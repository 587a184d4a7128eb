/**
 * Time as the SDK sees it. Injectable so that tests of backoff, buckets and polling need no real waiting.
 */
export interface Clock {
  /** Milliseconds since the epoch, like `Date.now()`. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason if it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1), like `Math.random()` (backoff jitter). */
  random(): number;
}

/** The real clock: `Date.now`, `setTimeout`, `Math.random`. */
export const systemClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
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

interface OffsetSample {
  /** Lowest offset (server − local) consistent with the sample. */
  low: number;
  /** Highest offset consistent with the sample. */
  high: number;
  roundTripMs: number;
}

const MAX_SAMPLES = 8;

/**
 * Learns the offset between the local clock and the server's from `Date` headers, and hands out strictly
 * increasing timestamps.
 *
 * A `Date` header has one-second resolution, so one sample says only that the server's clock read
 * [D, D + 1000) at some instant between sending and receiving: offset ∈ [D − received, D + 1000 − sent].
 * The lowest-latency samples (at most 8) are intersected, which narrows that window; if they disagree (the
 * local clock was stepped) only the newest sample is kept.
 */
export class ClockSync {
  private samples: OffsetSample[] = [];
  private offsetMs = 0;
  private lastTimestamp = 0;

  constructor(private readonly clock: Clock) {}

  /** Current estimate of server time − local time, in ms. */
  get offset(): number {
    return this.offsetMs;
  }

  /** A timestamp for the next signed request: server time, strictly greater than any handed out before. */
  nextTimestamp(): number {
    const ts = Math.max(Math.round(this.clock.now() + this.offsetMs), this.lastTimestamp + 1);
    this.lastTimestamp = ts;
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
  }
}
