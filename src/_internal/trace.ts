// The TracingChannel `futures-sdk:request`: one trace per call, found via `process.getBuiltinModule` (never imported).
import type { FuturesError } from '../errors/futures-error.ts';
import type { EndpointCall, RequestTraceContext } from './endpoint-call.ts';
import { describeCall, statusOf, stopwatch } from './hooks.ts';
import type { AcquireOptions, RateLimiter, Slot } from './rate-limiter.ts';
import type { AttemptResult } from './retry-policy.ts';

type Tracing = Record<'start' | 'end' | 'asyncStart' | 'asyncEnd' | 'error', { hasSubscribers: boolean }> & {
  hasSubscribers?: boolean;
  tracePromise(run: () => Promise<void>, context: object): Promise<void>;
};
type Process = { getBuiltinModule?(id: string): { tracingChannel(name: string): Tracing } | undefined };
let tracing: Tracing | null | undefined;

/** The channel when someone listens (Bun's TracingChannel has no `hasSubscribers`: its channels are asked). */
export function listened(): Tracing | undefined {
  tracing ??=
    (globalThis as { process?: Process }).process
      ?.getBuiltinModule?.('node:diagnostics_channel')
      ?.tracingChannel('futures-sdk:request') ?? null;
  const channel = tracing;
  const names = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;
  return channel && (channel.hasSubscribers ?? names.some((name) => channel[name].hasSubscribers))
    ? channel
    : undefined;
}

/** Runs `send` as the trace of `call` in `channel`; the transport records into `call.trace`. */
export async function traced<T>(channel: Tracing, call: EndpointCall<T>, send: () => Promise<T>): Promise<T> {
  const elapsed = stopwatch();
  const trace = describeCall(call);
  call.trace = trace;
  let value!: T;
  // The value is kept out of the context: a response may echo the request's body.
  await channel.tracePromise(async () => {
    try {
      value = await send();
    } catch (error) {
      trace.outcomeUnknown = (error as FuturesError).outcomeUnknown === true;
      throw error;
    } finally {
      trace.attempts ??= 0;
      trace.queuedMs ??= 0;
      trace.outcomeUnknown ??= false;
      trace.durationMs = elapsed();
    }
  }, trace);
  return value;
}

/** Waits for the call's slot; a traced call counts the wait and the attempt. */
export function acquireSlot(
  limiter: RateLimiter,
  call: EndpointCall<unknown>,
  options: Omit<AcquireOptions, 'method' | 'path'>,
): Promise<Slot> {
  const waiting = limiter.acquire(call.bucket, { ...options, method: call.method, path: call.path });
  const { trace } = call;
  if (!trace) return waiting;
  const waited = stopwatch();
  const queued = () => {
    trace.queuedMs = (trace.queuedMs ?? 0) + waited();
  };
  waiting.then(() => {
    trace.attempts = (trace.attempts ?? 0) + 1;
    queued();
  }, queued);
  return waiting;
}

/** A traced call's last HTTP status, from each attempt's result. */
export function traceStatus(trace: RequestTraceContext, result: AttemptResult<unknown>): void {
  const status = statusOf(result);
  if (typeof status === 'number') trace.status = status;
}
