// One call as an endpoint describes it to the transport, and the check of its per-call options.
import type * as z from 'zod/mini';
import type { ApiError, ApiErrorInit } from '../errors/api-error.ts';
import type { FuturesError } from '../errors/futures-error.ts';
import { RequestValidationError } from '../errors/request-validation-error.ts';
import type { BucketName } from '../fleet/types.ts';
import type { CallOptions } from '../options.ts';
import type { QueryParams } from '../signer.ts';

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/**
 * When a failed attempt may be repeated. `idempotent` (GETs, cancel-all, setters, create with its fixed
 * clientOrderId): on 429, 5xx, timeouts and network errors. `at-most-once` (cancel, the closes): only when the
 * server certainly did not act (429, nothing sent, the 401 clock re-sync).
 */
export type RetrySafety = 'idempotent' | 'at-most-once';

/** Order of service inside a bucket: `trading`, then `normal` (a user's reads), then `background` (polls). @internal */
export type CallPriority = 'trading' | 'normal' | 'background';

/** {@link CallOptions} plus what only the SDK's own callers set (the watcher's `background` polls). @internal */
export interface InternalCallOptions extends CallOptions {
  priority?: CallPriority | undefined;
  /** A read the kill switch itself needs (cancel-all's listing of conditional orders): a probe like the rest. */
  killSwitch?: boolean | undefined;
}

/** The context object of a `futures-sdk:request` trace (docs/observability.md). Nothing secret. */
export interface RequestTraceContext {
  /** `resource.method` of the endpoint, e.g. `'orders.create'`. */
  endpoint: string;
  method: HttpMethod;
  /** The spec's path template with `:name` placeholders, e.g. `/v2/orders/:id/cancel`. */
  path: string;
  /** At the end: the last HTTP status that came (absent when none did). */
  status?: number;
  /** At the end: attempts sent (0 when the call failed before any). */
  attempts?: number;
  /** At the end: whether the server may have acted on a call that failed. */
  outcomeUnknown?: boolean;
  /** At the end: milliseconds waited in the pacer, all attempts together. */
  queuedMs?: number;
  /** At the end: the whole call, in milliseconds. */
  durationMs?: number;
  /** The order's `clientOrderId` where the call has one (`orders.create`). */
  clientOrderId?: string;
  /** At `error` and `asyncEnd` of a failed call: the error it rejects with. */
  error?: FuturesError;
}

/** One endpoint call, as `callEndpoint` describes it to the transport. */
export interface EndpointCall<T> {
  /** The endpoint's `resource.method` name (`orders.create`), for hook events and traces. */
  endpoint?: string | undefined;
  /** The endpoint's path as defined, `{id}` unreplaced, for hook events and traces. */
  template?: string | undefined;
  method: HttpMethod;
  /** Path with every id already percent-encoded, e.g. `/v2/orders/a%2Fb`. */
  path: string;
  query?: QueryParams | undefined;
  body?: unknown;
  signed: boolean;
  bucket: BucketName;
  safety: RetrySafety;
  /** Never held by a paused bucket (see `Endpoint.killSwitch`). */
  killSwitch?: true | undefined;
  /** Order of service in the bucket (see {@link priorityOf}). */
  priority?: CallPriority | undefined;
  /** Response schema; validated on 2xx. */
  schema: z.ZodMiniType<T>;
  /** The endpoint's own error class for a failed response, before the status → class mapping. */
  errorFor?: ((init: ApiErrorInit) => ApiError | undefined) | undefined;
  options?: InternalCallOptions | undefined;
  /** The call's `futures-sdk:request` trace, when someone listens: the transport records into it. */
  trace?: RequestTraceContext | undefined;
}

const PRIORITY_VALUES: readonly unknown[] = ['trading', 'normal', 'background'] satisfies CallPriority[];

/**
 * The call's order of service in its bucket: `options.priority`, else `call.priority`, else `trading` for anything
 * but a GET and for the orders, batch and close buckets, `normal` otherwise.
 */
export function priorityOf(call: EndpointCall<unknown>): CallPriority {
  const asked = call.options?.priority ?? call.priority;
  if (PRIORITY_VALUES.includes(asked)) return asked as CallPriority;
  const trading =
    call.method !== 'GET' || call.bucket === 'orders' || call.bucket === 'batch' || call.bucket === 'close';
  return trading ? 'trading' : 'normal';
}

/** The longest timer a runtime honours: `setTimeout` fires at once for anything above 2^31 − 1 ms. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** A `timeoutMs` the SDK accepts: an integer number of milliseconds from 1 to 2^31 − 1. */
export function isValidTimeoutMs(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_TIMEOUT_MS;
}

/**
 * The call's options, read once and checked first: a throwing getter or revoked Proxy ends as a
 * `RequestValidationError`, and a `timeoutMs` of `Infinity`, `2 ** 31`, `-1` or `NaN` would be a 1 ms timer.
 */
export function readCallOptions(call: EndpointCall<unknown>): InternalCallOptions | undefined {
  const context = `${call.method} ${call.path}`;
  let signal: unknown;
  let timeoutMs: unknown;
  let priority: unknown;
  let killSwitch: unknown;
  try {
    const options: unknown = call.options;
    if (options === undefined || options === null) return undefined;
    if (typeof options !== 'object') {
      throw new RequestValidationError([{ path: ['options'], message: 'must be an object' }], context);
    }
    ({ signal, timeoutMs, priority, killSwitch } = options as InternalCallOptions);
  } catch (error) {
    if (error instanceof RequestValidationError) throw error;
    throw new RequestValidationError([{ path: ['options'], message: 'could not be read' }], context);
  }
  const issues: Array<{ path: string[]; message: string }> = [];
  if (timeoutMs !== undefined && !isValidTimeoutMs(timeoutMs)) {
    issues.push({
      path: ['options', 'timeoutMs'],
      message: `must be an integer number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`,
    });
  }
  if (signal !== undefined && !isAbortSignal(signal)) {
    issues.push({ path: ['options', 'signal'], message: 'must be an AbortSignal' });
  }
  if (issues.length > 0) throw new RequestValidationError(issues, context);
  return {
    signal: signal as AbortSignal | undefined,
    timeoutMs: timeoutMs as number | undefined,
    priority: priority as CallPriority | undefined,
    killSwitch: killSwitch === true,
  };
}

function isAbortSignal(value: unknown): value is AbortSignal {
  try {
    const candidate = value as AbortSignal;
    return (
      typeof value === 'object' &&
      value !== null &&
      typeof candidate.aborted === 'boolean' &&
      typeof candidate.addEventListener === 'function' &&
      typeof candidate.removeEventListener === 'function'
    );
  } catch {
    return false;
  }
}
