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
const TRADING_BUCKETS: readonly BucketName[] = ['orders', 'batch', 'close'];

/**
 * The call's order of service in its bucket: `options.priority`, else `call.priority`, else `trading` for anything
 * but a GET and for the orders, batch and close buckets, `normal` otherwise.
 */
export function priorityOf(call: EndpointCall<unknown>): CallPriority {
  const asked = call.options?.priority ?? call.priority;
  if (PRIORITY_VALUES.includes(asked)) return asked as CallPriority;
  return call.method !== 'GET' || TRADING_BUCKETS.includes(call.bucket) ? 'trading' : 'normal';
}

/** The longest timer a runtime honours: `setTimeout` fires at once for anything above 2^31 − 1 ms. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** A `timeoutMs` the SDK accepts: an integer number of milliseconds from 1 to 2^31 − 1. */
export function isValidTimeoutMs(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_TIMEOUT_MS;
}

/** Whether `value` is an object with a function under each of `names`. */
export const hasMethods = (value: unknown, names: string[]): boolean =>
  typeof value === 'object' &&
  value !== null &&
  names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function');

/**
 * The call's options, read once and checked first: a throwing getter or revoked Proxy ends as a
 * `RequestValidationError`, and a `timeoutMs` of `Infinity`, `2 ** 31`, `-1` or `NaN` would be a 1 ms timer.
 */
export function readCallOptions(call: EndpointCall<unknown>): InternalCallOptions | undefined {
  const issues: Array<{ path: string[]; message: string }> = [];
  const refuse = (message: string, ...key: string[]) => issues.push({ path: ['options', ...key], message });
  let options: InternalCallOptions | undefined;
  try {
    const given: unknown = call.options;
    if (given === undefined || given === null) return undefined;
    if (typeof given !== 'object') refuse('must be an object');
    else {
      const { signal, timeoutMs, priority, killSwitch } = given as InternalCallOptions;
      options = { signal, timeoutMs, priority, killSwitch: killSwitch === true };
    }
  } catch {
    refuse('could not be read');
  }
  if (options) {
    const { signal, timeoutMs } = options;
    if (timeoutMs !== undefined && !isValidTimeoutMs(timeoutMs)) {
      refuse(`must be an integer number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`, 'timeoutMs');
    }
    if (signal !== undefined && !isAbortSignal(signal)) refuse('must be an AbortSignal', 'signal');
  }
  if (!options || issues.length > 0) throw new RequestValidationError(issues, `${call.method} ${call.path}`);
  return options;
}

function isAbortSignal(value: unknown): boolean {
  try {
    // (`null.aborted` throws: not a signal either.)
    return (
      typeof (value as AbortSignal).aborted === 'boolean' &&
      hasMethods(value, ['addEventListener', 'removeEventListener'])
    );
  } catch {
    return false;
  }
}
