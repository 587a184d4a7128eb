// What a finished attempt means for the rate-limit window and for the transport's retry loop.
import { ApiError } from '../errors/api-error.ts';
import type { FuturesError } from '../errors/futures-error.ts';
import type { RetryOptions } from '../options.ts';
import { backoffStep } from './backoff.ts';
import type { RetrySafety } from './endpoint-call.ts';

/** Whether the server may have counted the attempt (it counts arrivals, not 429s; nor what never left). */
export function settlementOf(result: AttemptResult<unknown>): 'counted' | 'refunded' {
  return isRateLimited(result) || (result.kind === 'network' && result.neverSent) ? 'refunded' : 'counted';
}

export function isRateLimited(result: AttemptResult<unknown>): result is HttpFailure {
  return result.kind === 'http' && apiStatus(result.error) === 429;
}

/** The status of an {@link ApiError}, else 0. */
export const apiStatus = (error: unknown): number => (error instanceof ApiError ? error.status : 0);

/** A 4xx answer: the server refused, whatever its body (a too-large error carries the status). */
export function isRefusal(error: FuturesError): boolean {
  const { status } = error as { status?: unknown };
  return typeof status === 'number' && status >= 400 && status < 500;
}

export function isReplay(error: FuturesError): boolean {
  return apiStatus(error) === 401 && (error as ApiError).error === 'Signature replay detected';
}

interface HttpFailure {
  kind: 'http';
  error: FuturesError;
  retryAfterMs: number | undefined;
  dateHeader: string | null;
  sentAt: number;
  receivedAt: number;
}

export type Failure =
  | HttpFailure
  | { kind: 'network'; error: FuturesError; neverSent: boolean }
  | { kind: 'redirect'; error: FuturesError }
  /** The body passed maxResponseBytes: the server answered, and would send the same again. */
  | { kind: 'too-large'; error: FuturesError }
  | { kind: 'timeout'; error: FuturesError };

export type AttemptResult<T> = { kind: 'ok'; value: T; status?: number } | Failure;

/** The spec's wait after the `n`-th 429 without Retry-After: 1 s, 2 s, 4 s, 8 s… (no jitter, no cap). */
export const spec429Wait = (n: number): number => backoffStep(n, { baseMs: 1000, maxMs: Infinity });

/** The wait before the next attempt, or undefined when this failure must not be retried (pure; `random` jitters). */
export function retryDelay(
  retry: Required<RetryOptions> | false,
  random: () => number,
  safety: RetrySafety,
  failure: Failure,
  retries: number,
): number | undefined {
  if (retry === false) return undefined;
  const idempotent = safety === 'idempotent';
  const jittered = () => backoffStep(retries, { baseMs: retry.baseDelayMs, maxMs: retry.maxDelayMs, random });
  if (failure.kind === 'http') {
    const { status } = failure.error as ApiError;
    if (status === 429) {
      const asked = failure.retryAfterMs;
      if (asked === undefined) return spec429Wait(retries);
      return asked > retry.maxRetryAfterMs ? undefined : asked;
    }
    if (status >= 500 && idempotent) return jittered();
    // A fresh signature at once: the rejected attempt was not acted on, and waiting changes nothing.
    return isReplay(failure.error) && idempotent ? 0 : undefined;
  }
  // DNS, TLS and refused connections happen before anything is sent: safe to repeat for every endpoint.
  const retried =
    failure.kind === 'network' ? idempotent || failure.neverSent : failure.kind === 'timeout' && idempotent;
  return retried ? jittered() : undefined;
}
