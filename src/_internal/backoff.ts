/**
 * The SDK's one backoff (retries, stream reconnects, watcher polls): `base × 2^n` capped at `max`, optionally with
 * "equal jitter" (50–100 % of the step) so that clients that failed together do not return together.
 */
export function backoffStep(
  n: number,
  options: { baseMs: number; maxMs: number; random?: (() => number) | undefined },
): number {
  // 2^30 is already past any cap; larger exponents would only overflow to Infinity.
  const step = Math.min(options.maxMs, options.baseMs * 2 ** Math.min(Math.max(0, n), 30));
  return options.random ? Math.round(step / 2 + (options.random() * step) / 2) : step;
}
