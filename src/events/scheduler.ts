import { backoffStep } from '../_internal/backoff.ts';
import { systemClock } from '../_internal/clock.ts';
// For the {@link Clock} references in TSDoc.
import type { Clock } from '../options.ts';

/**
 * Time for the event machinery (backoff, watchdog, polling).
 *
 * @deprecated Since 0.2 the stream and the watcher take their time from a {@link Clock} (the client's, or the
 * `clock` option), which has the same `now`, `random`, `setTimeout` and `clearTimeout`. An `EventScheduler`
 * passed as `scheduler` still works.
 *
 * @example
 * ```ts
 * import type { EventScheduler } from 'futures-sdk';
 * const scheduler: EventScheduler = {
 *   now: () => Date.now(),
 *   random: () => 0.5,
 *   setTimeout: (callback, ms) => setTimeout(callback, ms),
 *   clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
 * };
 * ```
 */
export interface EventScheduler {
  /** Milliseconds since the epoch. */
  now(): number;
  /** A number in [0, 1) (backoff jitter). */
  random(): number;
  /** Runs `callback` once after `ms`; returns a handle for {@link EventScheduler.clearTimeout}. */
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The real scheduler: `Date.now`, `Math.random`, global timers.
 *
 * @deprecated Since 0.2: the stream and the watcher use the client's {@link Clock}.
 *
 * @example
 * ```ts
 * import { type EventScheduler, systemScheduler } from 'futures-sdk';
 * // wrap it to log every timer the stream arms
 * const scheduler: EventScheduler = {
 *   ...systemScheduler,
 *   setTimeout: (callback, ms) => (console.debug('timer', ms), systemScheduler.setTimeout(callback, ms)),
 * };
 * const stream = client.stream({ url, token, scheduler });
 * ```
 */
export const systemScheduler: EventScheduler = systemClock;

/**
 * Reconnect backoff settings.
 *
 * @example
 * ```ts
 * import type { BackoffOptions } from 'futures-sdk';
 * const backoff: BackoffOptions = { baseDelayMs: 1_000, maxDelayMs: 10_000 };
 * const stream = client.stream({ url, token, reconnect: { ...backoff, maxAttempts: 20 } });
 * ```
 */
export interface BackoffOptions {
  /**
   * First delay.
   * @default 500
   */
  baseDelayMs?: number | undefined;
  /**
   * Largest delay.
   * @default 30000
   */
  maxDelayMs?: number | undefined;
}

/**
 * Delay before reconnect attempt `attempt` (1-based): exponential from `baseDelayMs`, capped at `maxDelayMs`,
 * with "equal jitter" (50–100 % of the step) so that many clients dropped together do not return together.
 */
export function backoffDelay(attempt: number, options: BackoffOptions, random: () => number): number {
  return backoffStep(attempt - 1, { baseMs: options.baseDelayMs ?? 500, maxMs: options.maxDelayMs ?? 30_000, random });
}
