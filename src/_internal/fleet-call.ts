import { FleetUnavailableError } from '../errors/fleet-unavailable-error.ts';
import { MAX_TIMEOUT_MS } from './endpoint-call.ts';

/**
 * Runs fleet code (user-replaceable, often remote) under a real-time deadline and the caller's signal. A failure
 * or no answer in time is a `FleetUnavailableError` (`The fleet's <what> failed…; nothing was sent`); the signal
 * rejects with its reason.
 */
export function fleetCall<T>(
  what: string,
  run: () => T | Promise<T>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<T> {
  const failed = (detail: string, cause?: unknown) =>
    new FleetUnavailableError(`The fleet's ${what} failed${detail}; nothing was sent`, { cause });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  return new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => reject(failed(`: no answer within ${timeoutMs} ms`)), Math.min(timeoutMs, MAX_TIMEOUT_MS));
    onAbort = () => reject(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    Promise.resolve()
      .then(run)
      .then(resolve, (cause: unknown) => reject(cause instanceof FleetUnavailableError ? cause : failed('', cause)));
  }).finally(() => {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  });
}
