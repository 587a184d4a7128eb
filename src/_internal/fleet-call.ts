import { FleetUnavailableError } from '../errors/fleet-unavailable-error.ts';
import { MAX_TIMEOUT_MS } from './endpoint-call.ts';

/** `work()`, unless the deadline (real time) or the signal comes first: guards user code that may never answer. */
export function within<T>(
  work: () => Promise<T>,
  ms: number,
  late: () => unknown,
  signal?: AbortSignal,
  aborted: (reason: unknown) => unknown = (reason) => reason,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: () => void;
  return new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => reject(late()), Math.min(ms, MAX_TIMEOUT_MS));
    onAbort = () => reject(aborted(signal?.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    work().then(resolve, reject);
  }).finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  });
}

/** Fleet code (user-replaceable, often remote) under {@link within}: failing or late, a `FleetUnavailableError`. */
export function fleetCall<T>(
  what: string,
  run: () => T | Promise<T>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<T> {
  const failed = (detail: string, cause?: unknown) =>
    new FleetUnavailableError(`The fleet's ${what} failed${detail}; nothing was sent`, { cause });
  const work = () =>
    Promise.resolve()
      .then(run)
      .catch((cause: unknown) => {
        throw cause instanceof FleetUnavailableError ? cause : failed('', cause);
      });
  return within(work, timeoutMs, () => failed(`: no answer within ${timeoutMs} ms`), signal);
}
