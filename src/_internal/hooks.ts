// The `hooks` option, built only when set. Events name the endpoint and the path TEMPLATE, never a query, body,
// signature, API key or JWT. Kept small (every bundle carries it).
import type { FuturesError } from '../errors/futures-error.ts';
import { sealError } from '../errors/seal-error.ts';
import type { ClientHooks, HookEventBase, Logger } from '../options.ts';
import type { EndpointCall, RequestTraceContext } from './endpoint-call.ts';
import type { Scrubber } from './redact.ts';
import type { AttemptResult } from './retry-policy.ts';

/** A client's hook events: `attempt` runs one attempt between its `request` and `response` events. */
export interface HookEmitter {
  attempt<T>(call: EndpointCall<T>, attempt: number, run: () => Promise<AttemptResult<T>>): Promise<AttemptResult<T>>;
  /** A retry of `call` after `attempt`, in `delayMs`; without a result, the clock re-sync's. */
  retry(call: EndpointCall<unknown>, attempt: number, delayMs: number, result?: AttemptResult<unknown>): void;
}

/** The status of an answer that came whole, else undefined (a timeout or a broken connection came with none). */
export function statusOf(result: AttemptResult<unknown>): unknown {
  return result.kind === 'ok' ? result.status : result.kind === 'http' && (result.error as { status?: unknown }).status;
}

/** Starts timing: the returned function tells the milliseconds since. */
export function stopwatch(): () => number {
  const start = performance.now();
  return () => performance.now() - start;
}

/** What events and traces say of a call: its endpoint and path template, never an id, a query or a body. */
export function describeCall(call: EndpointCall<unknown>): RequestTraceContext {
  const clientOrderId = (call.body as { clientOrderId?: unknown } | undefined)?.clientOrderId;
  return {
    endpoint: call.endpoint ?? call.path,
    method: call.method,
    path: (call.template ?? call.path).replace(/\{(\w+)\}/g, ':$1'),
    ...(typeof clientOrderId === 'string' && { clientOrderId }),
  };
}

export function hookEmitter(hooks: ClientHooks, logger: Logger | undefined, redactor: Scrubber): HookEmitter {
  const emit = (name: keyof ClientHooks, event: object) => {
    const warn = (error: unknown) =>
      logger?.warn(`hooks.${name} threw (ignored): ${redactor.text(String((error as Error)?.message ?? error))}`);
    try {
      // An async hook's rejection is reported the same way, never left unhandled.
      Promise.resolve((hooks[name] as ((event: object) => unknown) | undefined)?.(event)).catch(warn);
    } catch (error) {
      warn(error);
    }
  };
  const base = (call: EndpointCall<unknown>, attempt: number): HookEventBase => ({ ...describeCall(call), attempt });
  return {
    async attempt(call, attempt, run) {
      const event = base(call, attempt);
      emit('request', { ...event });
      const elapsed = stopwatch();
      const end = (status: unknown, error: unknown) =>
        emit('response', {
          ...event,
          durationMs: elapsed(),
          ...(typeof status === 'number' ? { status } : { error: sealError(error as FuturesError, redactor) }),
        });
      try {
        const result = await run();
        end(statusOf(result), result.kind !== 'ok' && result.error);
        return result;
      } catch (error) {
        end((error as { status?: unknown }).status, error);
        throw error;
      }
    },
    retry(call, attempt, delayMs, result) {
      const reason = !result ? 'clock-resync' : String(statusOf(result) || result.kind);
      emit('retry', { ...base(call, attempt), delayMs, reason });
    },
  };
}
