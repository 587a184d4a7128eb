import { backoffStep } from '../_internal/backoff.ts';

/** Reconnect backoff settings. */
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
