import ky from 'ky';
import type * as z from 'zod';
import { AbortError } from '../errors/abort-error.ts';
import { ApiError } from '../errors/api-error.ts';
import { ConfigurationError } from '../errors/configuration-error.ts';
import { ConnectionError } from '../errors/connection-error.ts';
import { FleetUnavailableError } from '../errors/fleet-unavailable-error.ts';
import { apiErrorFromResponse } from '../errors/from-response.ts';
import { FuturesError, sealError } from '../errors/futures-error.ts';
import { RedirectError } from '../errors/redirect-error.ts';
import { RequestValidationError } from '../errors/request-validation-error.ts';
import { ResponseValidationError } from '../errors/response-validation-error.ts';
import { TimeoutError } from '../errors/timeout-error.ts';
import type { Fleet, FleetLane } from '../fleet/types.ts';
import { canonicalQuery, type QueryParams } from '../signer.ts';
import { type Clock, ClockSync } from './clock.ts';
import { classifyNetworkFailure } from './network-failure.ts';
import { markOutcomeUnknown } from './outcome.ts';
import { type BucketName, fleetCall, RateLimiter, type Slot } from './rate-limiter.ts';
import { Redactor, redact } from './redact.ts';

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/**
 * When a failed attempt may be repeated.
 * - `idempotent`: repeating is harmless (GETs, cancel-all, the setters, order creation with its fixed
 *   clientOrderId): retried on 429, 5xx, timeouts and network errors.
 * - `once`: repeating could act twice (cancel, close-position, close-and-switch-margin): retried only when the
 *   server certainly did not act (429, connection refused, the 401 clock re-sync).
 */
export type RetrySafety = 'idempotent' | 'once';

/**
 * Per-call options every method accepts as its last argument.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const { order } = await client.orders.get(orderId, { signal: controller.signal, timeoutMs: 2_000 });
 * ```
 */
export interface CallOptions {
  /** Aborts the call (and any retry wait); the call rejects with `AbortError`. */
  signal?: AbortSignal | undefined;
  /** Per-attempt timeout for this call, overriding the client's `timeoutMs`. */
  timeoutMs?: number | undefined;
}

/**
 * Order of service inside a rate-limit bucket: `trading` (create, batch, cancel, cancel-all, close, setters)
 * before `normal` (a user's reads) before `background` (the watcher's polls).
 * @internal
 */
export type CallPriority = 'trading' | 'normal' | 'background';

/**
 * {@link CallOptions} plus what only the SDK's own callers set (the watcher marks its polls `background`).
 * @internal
 */
export interface InternalCallOptions extends CallOptions {
  priority?: CallPriority | undefined;
}

/**
 * Retry settings of the client's `retry` option; omitted fields keep their defaults.
 *
 * @example
 * ```ts
 * import { FuturesClient, type RetryOptions } from 'futures-sdk';
 * const retry: RetryOptions = { limit: 2, maxRetryAfterMs: 5_000 };
 * const client = new FuturesClient({ baseUrl: 'https://api.example.com', apiKey, apiSecret, retry });
 * ```
 */
export interface RetryOptions {
  /**
   * Retries after the first attempt.
   * @default 4
   */
  limit?: number;
  /**
   * First backoff for 5xx and network errors; doubles each retry, with jitter (50–100 % of the step).
   * @default 500
   */
  baseDelayMs?: number;
  /**
   * Largest backoff step for 5xx and network errors.
   * @default 8000
   */
  maxDelayMs?: number;
  /**
   * A 429 whose `Retry-After` asks for longer than this is not retried: the `RateLimitError` is returned to
   * you at once instead of the call hanging.
   * @default 60000
   */
  maxRetryAfterMs?: number;
}

/**
 * Minimal logger; receives only redacted strings. `console` fits as it is.
 *
 * @example
 * ```ts
 * import { FuturesClient, type Logger } from 'futures-sdk';
 * const logger: Logger = console;
 * const client = new FuturesClient({ baseUrl: 'https://api.example.com', apiKey, apiSecret, logger });
 * ```
 */
export interface Logger {
  debug(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  error(message: string, meta?: Record<string, unknown>): void;
}

/**
 * Computes the hex HMAC of a payload somewhere else (a KMS, a worker, a server), so the secret never enters
 * this process.
 *
 * @example
 * ```ts
 * import { FuturesClient, type Signer } from 'futures-sdk';
 * const signer: Signer = async (payload) => {
 *   const res = await fetch('https://signer.internal/sign', { method: 'POST', body: payload });
 *   return res.text(); // lowercase hex HMAC-SHA256 of payload
 * };
 * const client = new FuturesClient({ baseUrl: 'https://api.example.com', apiKey, signer });
 * ```
 */
export type Signer = (payload: string) => string | Promise<string>;

/** One endpoint call, as resources describe it to the transport. */
export interface EndpointCall<T> {
  method: HttpMethod;
  /** Path with every id already percent-encoded, e.g. `/v2/orders/a%2Fb`. */
  path: string;
  query?: QueryParams | undefined;
  body?: unknown;
  signed: boolean;
  bucket: BucketName;
  safety: RetrySafety;
  /**
   * Order of service inside the bucket. Default: `trading` for anything but a GET and for the orders, batch and
   * close buckets, else `normal`; `options.priority` (the watcher's `background`) overrides both.
   */
  priority?: CallPriority | undefined;
  /** Response schema; validated on 2xx. */
  schema: z.ZodType<T>;
  options?: InternalCallOptions | undefined;
}

const PRIORITY_VALUES: ReadonlySet<unknown> = new Set<CallPriority>(['trading', 'normal', 'background']);

/** The call's class of service inside its bucket (see {@link EndpointCall.priority}). */
function priorityOf(call: EndpointCall<unknown>): CallPriority {
  const asked = call.options?.priority ?? call.priority;
  if (PRIORITY_VALUES.has(asked)) return asked as CallPriority;
  const trading =
    call.method !== 'GET' || call.bucket === 'orders' || call.bucket === 'batch' || call.bucket === 'close';
  return trading ? 'trading' : 'normal';
}

/** Everything the transport needs, resolved from the client options. */
export interface TransportConfig {
  baseUrl: string;
  apiKey: string | undefined;
  sign: Signer | undefined;
  timeoutMs: number;
  retry: Required<RetryOptions> | false;
  fetch: typeof globalThis.fetch;
  clock: Clock;
  rateLimit: boolean;
  logger: Logger | undefined;
  /** Shared timestamp lanes and budget of a fleet; none: this client alone, in memory. */
  fleet?: Fleet | undefined;
  /** This client's credentials, scrubbed from every error and log line (a new, empty one when omitted). */
  redactor?: Redactor | undefined;
}

type ParsedBody = { json: true; value: unknown } | { json: false; value: string };

function parseBody(text: string): ParsedBody {
  if (text.trim() === '') return { json: false, value: text };
  try {
    return { json: true, value: JSON.parse(text) };
  } catch {
    return { json: false, value: text };
  }
}

/** Milliseconds from a `Retry-After` header (delta-seconds or HTTP-date), or undefined. */
export function parseRetryAfter(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  // Only an HTTP-date (`Wed, 21 Oct 2015 07:28:00 GMT`): Date.parse alone accepts junk such as "-1" or "7".
  if (!/^[A-Za-z]{3},\s/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** The longest timer a runtime honours: `setTimeout` fires at once for anything above 2^31 − 1 ms. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** A `timeoutMs` the SDK accepts: an integer number of milliseconds from 1 to 2^31 − 1. */
export function isValidTimeoutMs(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_TIMEOUT_MS;
}

/** Redirect statuses: the SDK never follows them (see RedirectError). */
const REDIRECT_STATUSES = new Set([300, 301, 302, 303, 307, 308]);

/** Scheme, host and path of a redirect target, resolved against the request URL; never its query. */
function redirectTarget(location: string | null, requestUrl: string): string | undefined {
  if (!location) return undefined;
  try {
    const url = new URL(location, requestUrl);
    return `${url.origin}${url.pathname}`;
  } catch {
    return undefined;
  }
}

/**
 * The call's options, read once and checked before anything else happens: a getter that throws or a revoked
 * Proxy must end as a `RequestValidationError`, and a `timeoutMs` of `Infinity`, `2 ** 31`, `-1` or `NaN` would
 * otherwise become a 1 ms timer.
 */
function readCallOptions(call: EndpointCall<unknown>): InternalCallOptions | undefined {
  const context = `${call.method} ${call.path}`;
  let signal: unknown;
  let timeoutMs: unknown;
  let priority: unknown;
  try {
    const options: unknown = call.options;
    if (options === undefined || options === null) return undefined;
    if (typeof options !== 'object') {
      throw new RequestValidationError([{ path: ['options'], message: 'must be an object' }], context);
    }
    ({ signal, timeoutMs, priority } = options as InternalCallOptions);
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

/** Why an attempt's body or headers stopped being awaited. */
const DEADLINE = Symbol('deadline');
const CALLER_ABORT = Symbol('caller abort');
const noop = () => {};

/**
 * Reads a body to text, chunk by chunk, each read raced against `stopped`. The attempt's deadline and the
 * caller's signal end the read themselves: an abort that only travels through fetch's `Request` can be lost
 * (Node links a Request's signal weakly, and a GC during a stalled body drops the link), which would leave the
 * call pending forever.
 */
async function readText(response: Response, stopped: Promise<never>): Promise<string> {
  const body = response.body;
  if (body === null) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), stopped]);
      if (done) return text + decoder.decode();
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    reader.cancel().catch(noop);
    throw error;
  }
}

/**
 * The one HTTP path of the SDK: signs every attempt afresh, paces buckets, retries what is safe to retry,
 * learns the clock offset, and turns every failure into a {@link FuturesError}.
 */
export class Transport {
  readonly clockSync: ClockSync;
  readonly limiter: RateLimiter;

  readonly config: TransportConfig;

  /** Host (with a non-default port) of the base URL, named in connection errors. */
  private readonly host: string;
  /** This client's credentials: every error leaving {@link Transport.call} is sealed with it. */
  readonly redactor: Redactor;

  constructor(config: TransportConfig) {
    this.redactor = config.redactor ?? new Redactor();
    this.config = { ...config, logger: config.logger && this.redactor.logger(config.logger) };
    this.host = new URL(config.baseUrl).host;
    this.clockSync = new ClockSync(config.clock);
    this.limiter = new RateLimiter(config.clock, {
      enforceLimits: config.rateLimit,
      budget: config.fleet?.budget,
      logger: this.config.logger,
    });
  }

  async call<T>(call: EndpointCall<T>): Promise<T> {
    if (call.signed && (!this.config.apiKey || !this.config.sign)) {
      throw new ConfigurationError(
        `${call.method} ${call.path} needs credentials: create the client with apiKey and apiSecret (or signer)`,
      );
    }
    try {
      const options = readCallOptions(call);
      return await this.run(options === call.options ? call : { ...call, options });
    } catch (error) {
      // Defensive: nothing but FuturesError may escape.
      const failure =
        error instanceof FuturesError
          ? error
          : new FuturesError(`${call.method} ${call.path} failed unexpectedly`, { cause: error });
      throw sealError(failure, this.redactor);
    }
  }

  private async run<T>(call: EndpointCall<T>): Promise<T> {
    const { config } = this;
    const signal = call.options?.signal;
    const timeoutMs = call.options?.timeoutMs ?? config.timeoutMs;
    const retryLimit = config.retry === false ? 0 : config.retry.limit;
    let retries = 0;
    let resynced = false;
    // Whether some attempt of this call may have been acted on by the server. A later attempt's 429 or refused
    // connection proves only that THAT attempt did nothing, so the call's failure must still say "unknown".
    const flight = { mayHaveActed: false };
    const fail = (error: FuturesError): FuturesError =>
      flight.mayHaveActed && call.method !== 'GET' ? markOutcomeUnknown(error) : error;

    const priority = priorityOf(call);
    for (let attempt = 1; ; attempt++) {
      let slot: Slot;
      try {
        slot = await this.limiter.acquire(call.bucket, {
          priority,
          timeoutMs,
          signal,
          method: call.method,
          path: call.path,
        });
      } catch (error) {
        // RateLimitError (bucket paused past this call's deadline), FleetUnavailableError, or the signal.
        throw fail(error instanceof FuturesError ? error : this.abortError(call, error));
      }
      let outcome: Outcome<T>;
      try {
        outcome = await this.attempt(call, timeoutMs, signal, attempt, flight, slot);
      } catch (error) {
        slot.settle(slot.sent ? 'counted' : 'refunded');
        throw error instanceof FuturesError ? fail(error) : error;
      }
      if (outcome.kind === 'http' && outcome.error instanceof ApiError && outcome.error.status === 429) {
        // The pause is set before the refund, so the freed slot cannot go to a call the pause must hold.
        const pauseMs = outcome.retryAfterMs ?? (config.retry === false ? 1000 : 1000 * 2 ** retries);
        this.pauseBucket(call, pauseMs);
      }
      slot.settle(settlementOf(outcome));

      if (outcome.kind === 'ok') return outcome.value;
      const error = outcome.error;
      if (
        outcome.kind === 'timeout' ||
        outcome.kind === 'redirect' ||
        (outcome.kind === 'network' && !outcome.neverSent) ||
        (outcome.kind === 'http' && error instanceof ApiError && (error.status >= 500 || isReplay(error)))
      ) {
        // A replay 401 means THIS attempt was not acted on, but also that a request with the same signature
        // arrived before: possibly a copy of this one that was accepted.
        flight.mayHaveActed = true;
      }

      // The server rejected our timestamp before acting: learn its clock from this response and try once more.
      if (
        outcome.kind === 'http' &&
        error instanceof ApiError &&
        error.status === 401 &&
        error.error === 'Invalid or expired timestamp' &&
        !resynced
      ) {
        resynced = true;
        this.clockSync.resync(outcome.dateHeader, outcome.sentAt, outcome.receivedAt);
        config.logger?.warn(
          `${call.method} ${call.path}: timestamp rejected, clock re-synced (offset ${this.clockSync.offset} ms)`,
        );
        continue;
      }

      const delay = this.retryDelay(call, outcome, retries);
      if (delay === undefined || retries >= retryLimit) throw fail(error);
      retries++;
      config.logger?.warn(`${call.method} ${call.path}: retry ${retries}/${retryLimit} in ${delay} ms`, {
        reason: error.shortMessage,
      });
      try {
        await config.clock.sleep(delay, signal);
      } catch (abortReason) {
        throw fail(this.abortError(call, abortReason));
      }
    }
  }

  /**
   * A 429 holds its bucket for the whole `Retry-After`, also past `retry.maxRetryAfterMs` (which only decides
   * whether THIS call waits to retry): sending sooner would earn another 429 at best. Calls that cannot wait that
   * long within their own `timeoutMs` fail at once with `RateLimitError` instead of stalling (see RateLimiter).
   */
  private pauseBucket<T>(call: EndpointCall<T>, pauseMs: number): void {
    const { config } = this;
    this.limiter.pause(call.bucket, pauseMs);
    const cap = config.retry === false ? undefined : config.retry.maxRetryAfterMs;
    config.logger?.warn(
      `${call.method} ${call.path}: 429, the ${call.bucket} bucket is paused for ${pauseMs} ms` +
        (cap === undefined
          ? ' (retries off)'
          : pauseMs > cap
            ? ` (over retry.maxRetryAfterMs ${cap} ms: not retried)`
            : ''),
    );
  }

  /** The wait before the next attempt, or undefined when this failure must not be retried. */
  private retryDelay<T>(call: EndpointCall<T>, outcome: Failure, retries: number): number | undefined {
    const retry = this.config.retry;
    if (retry === false) return undefined;
    const jittered = () => {
      const step = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** retries);
      return Math.round(step / 2 + (this.config.clock.random() * step) / 2);
    };
    if (outcome.kind === 'http') {
      const { status } = outcome.error as ApiError;
      if (status === 429) {
        if (outcome.retryAfterMs !== undefined) {
          return outcome.retryAfterMs > retry.maxRetryAfterMs ? undefined : outcome.retryAfterMs;
        }
        return 1000 * 2 ** retries;
      }
      if (status >= 500 && call.safety === 'idempotent') return jittered();
      // A fresh signature at once: the rejected attempt was not acted on, and waiting changes nothing.
      if (isReplay(outcome.error) && call.safety === 'idempotent') return 0;
      return undefined;
    }
    if (outcome.kind === 'network') {
      // DNS, TLS and refused connections happen before anything is sent: safe to repeat for every endpoint.
      if (call.safety === 'idempotent' || outcome.neverSent) return jittered();
      return undefined;
    }
    if (outcome.kind === 'timeout' && call.safety === 'idempotent') return jittered();
    return undefined;
  }

  private abortError<T>(call: EndpointCall<T>, cause: unknown): AbortError {
    return new AbortError({ method: call.method, path: call.path, cause });
  }

  private async sign(query: QueryParams, lane: FleetLane | undefined): Promise<string> {
    const { config } = this;
    const timestamp = this.clockSync.nextTimestamp(lane);
    const payload = canonicalQuery({ ...query, timestamp });
    const signature = await config.sign!(payload);
    if (typeof signature !== 'string' || signature === '') {
      throw new FuturesError('The signer returned no signature');
    }
    // Remembered (the last few) so that a server echoing even part of it cannot put it in an error or log line.
    this.redactor.addSignature(signature);
    const userPart = canonicalQuery(query);
    return `${userPart ? `${userPart}&` : ''}timestamp=${timestamp}&signature=${encodeURIComponent(signature)}`;
  }

  /**
   * Signs under the caller's signal and the attempt timeout: a `signer` is user code (often a remote KMS) that
   * may never answer, and nothing has been sent yet, so giving up here is always safe.
   */
  private async signWithin<T>(
    call: EndpointCall<T>,
    query: QueryParams,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    lane: FleetLane | undefined,
  ): Promise<string> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const guard = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new TimeoutError({
              method: call.method,
              path: call.path,
              timeoutMs,
              details: 'the signer did not return a signature in time; nothing was sent',
            }),
          ),
        timeoutMs,
      );
      onAbort = () => reject(this.abortError(call, signal?.reason));
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      // race() subscribes to both, so a signer that rejects after losing the race is not an unhandled rejection.
      return await Promise.race([this.sign(query, lane), guard]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * This member's timestamp lane, under the call's deadline and signal. Nothing is signed or sent without it:
   * a lane that cannot be had is a `FleetUnavailableError` (safe to repeat).
   */
  private async fleetLane<T>(
    call: EndpointCall<T>,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<FleetLane | undefined> {
    const fleet = this.config.fleet;
    if (!fleet) return undefined;
    const what = `lane (${call.method} ${call.path})`;
    let lane: FleetLane;
    try {
      lane = await fleetCall(what, () => fleet.lane(signal), timeoutMs, signal);
    } catch (error) {
      throw error instanceof FleetUnavailableError ? error : this.abortError(call, error);
    }
    const { index, count, floor } = lane ?? {};
    if (
      !Number.isSafeInteger(count) ||
      !Number.isSafeInteger(index) ||
      !(index >= 0 && index < count) ||
      !(floor === undefined || Number.isSafeInteger(floor))
    ) {
      throw new FleetUnavailableError(
        `The fleet's ${what} failed: not integers with 0 <= index < count; nothing was sent`,
      );
    }
    return lane;
  }

  private async attempt<T>(
    call: EndpointCall<T>,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    attempt: number,
    flight: { mayHaveActed: boolean },
    slot: Slot,
  ): Promise<Outcome<T>> {
    const { config } = this;
    const query = call.query ?? {};
    if (signal?.aborted) throw this.abortError(call, signal.reason);
    const lane = call.signed ? await this.fleetLane(call, timeoutMs, signal) : undefined;
    let search: string;
    try {
      search = call.signed ? await this.signWithin(call, query, timeoutMs, signal, lane) : canonicalQuery(query);
    } catch (error) {
      throw error instanceof FuturesError ? error : new FuturesError('Signing the request failed', { cause: error });
    }
    const url = `${config.baseUrl}${call.path}${search ? `?${search}` : ''}`;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (call.signed && config.apiKey) headers['X-API-KEY'] = config.apiKey;
    let body: string | undefined;
    if (call.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(call.body);
    }
    config.logger?.debug(`${call.method} ${call.path} attempt ${attempt}`);

    // One deadline for the whole attempt, headers AND body, on real time (an injected fake clock that jumps ahead
    // in sleep() must not fire timeouts of requests still on the wire). The deadline and the caller's signal end
    // the wait themselves (`stopped`): aborting the fetch is only a courtesy to free the socket, because an abort
    // that travels through fetch's Request can be lost, and the call would then never settle.
    const attemptController = new AbortController();
    if (signal?.aborted) throw this.abortError(call, signal.reason);
    let stoppedBy: typeof DEADLINE | typeof CALLER_ABORT | undefined;
    let rejectStopped!: (why: unknown) => void;
    const stopped = new Promise<never>((_, reject) => {
      rejectStopped = reject;
    });
    stopped.catch(noop);
    // Recorded before the courtesy abort: the aborted fetch or body may reject first, with an abort error of its
    // own, and must still be reported as this deadline or this signal.
    const stop = (why: typeof DEADLINE | typeof CALLER_ABORT) => {
      stoppedBy ??= why;
      rejectStopped(why);
      attemptController.abort(why === CALLER_ABORT ? signal?.reason : undefined);
    };
    // One macrotask later: a response (or body) that has already arrived when the signal fires is kept, so an
    // abort racing a completed request does not turn a known outcome into an unknown one.
    const onCallerAbort = () => setTimeout(() => stop(CALLER_ABORT), 0);
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    const timer = setTimeout(() => stop(DEADLINE), timeoutMs);
    const timeoutError = () => ({
      kind: 'timeout' as const,
      error: new TimeoutError({ method: call.method, path: call.path, timeoutMs }),
    });
    const interrupted = (error: unknown): Outcome<T> | undefined => {
      const why = stoppedBy ?? error;
      if (why === DEADLINE) return timeoutError();
      if (why === CALLER_ABORT) {
        // Aborted while the request was on the wire: the server may have received it.
        flight.mayHaveActed = true;
        throw this.abortError(call, signal?.reason);
      }
      return undefined;
    };

    const sentAt = config.clock.now();
    slot.sent = true;
    let response: Response;
    let text: string;
    try {
      try {
        const sending = ky(url, {
          method: call.method,
          headers,
          ...(body === undefined ? {} : { body }),
          signal: attemptController.signal,
          // Never follow: the next hop would receive the API key and a signature valid on any endpoint for 5 s.
          redirect: 'manual',
          timeout: false,
          retry: 0,
          throwHttpErrors: false,
          fetch: config.fetch,
        });
        sending.catch(noop);
        response = await Promise.race([sending, stopped]);
      } catch (error) {
        const stoppedOutcome = interrupted(error);
        if (stoppedOutcome) return stoppedOutcome;
        if (signal?.aborted) {
          flight.mayHaveActed = true;
          throw this.abortError(call, signal.reason);
        }
        const failure = classifyNetworkFailure(error);
        return {
          kind: 'network',
          neverSent: failure.neverSent,
          error: new ConnectionError({
            method: call.method,
            path: call.path,
            host: this.host,
            code: failure.code,
            neverSent: failure.neverSent,
            reason: failure.reason,
            cause: error,
          }),
        };
      }
      if (response.type === 'opaqueredirect' || REDIRECT_STATUSES.has(response.status) || response.redirected) {
        // The server answered (so a state change may have happened), but whatever it points at is not the API.
        response.body?.cancel().catch(noop);
        return {
          kind: 'redirect',
          error: new RedirectError({
            method: call.method,
            path: call.path,
            status: response.type === 'opaqueredirect' ? 0 : response.status,
            location: redirectTarget(response.headers.get('location'), url),
          }),
        };
      }
      try {
        text = await readText(response, stopped);
      } catch (error) {
        flight.mayHaveActed = true; // the server answered: whatever it did is done
        const stoppedOutcome = interrupted(error);
        if (stoppedOutcome) return stoppedOutcome;
        const failure = classifyNetworkFailure(error);
        return {
          kind: 'network',
          neverSent: false,
          error: new ConnectionError({
            method: call.method,
            path: call.path,
            host: this.host,
            code: failure.code,
            neverSent: false,
            reason: 'the connection broke while the response was read',
            cause: error,
          }),
        };
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
    }
    const receivedAt = config.clock.now();
    const dateHeader = response.headers.get('date');
    this.clockSync.addSample(dateHeader, sentAt, receivedAt);
    const parsed = parseBody(text);

    if (response.ok && !(parsed.json && isFailureEnvelope(parsed.value))) {
      // A 2xx: the server acted, and if its body is unreadable the caller cannot know what it did.
      flight.mayHaveActed = true;
      if (!parsed.json) {
        throw new ResponseValidationError({
          issues: [{ path: [], message: `expected a JSON body, got ${JSON.stringify(redact(text).slice(0, 80))}` }],
          body: text,
          method: call.method,
          path: call.path,
        });
      }
      const result = call.schema.safeParse(parsed.value);
      if (!result.success) {
        throw new ResponseValidationError({
          issues: result.error.issues.map((issue) => ({ path: issue.path.map(toPathKey), message: issue.message })),
          body: parsed.value,
          method: call.method,
          path: call.path,
        });
      }
      return { kind: 'ok', value: result.data };
    }

    // An HTTP-date Retry-After is on the server's clock: measure it against the same response's Date (both have
    // one-second resolution, so their difference is exact), falling back to our estimate of the server's time.
    const serverDate = dateHeader === null ? Number.NaN : Date.parse(dateHeader);
    const retryAfterMs = parseRetryAfter(
      response.headers.get('retry-after'),
      Number.isNaN(serverDate) ? config.clock.now() + this.clockSync.offset : serverDate,
    );
    const error = apiErrorFromResponse({
      status: response.status,
      method: call.method,
      path: call.path,
      body: parsed.value,
      retryAfterMs,
    });
    config.logger?.debug(`${call.method} ${call.path} -> ${response.status}`);
    return { kind: 'http', error, retryAfterMs, dateHeader, sentAt, receivedAt };
  }
}

/**
 * Whether the server may have counted the attempt in its rate-limit window. It counts a request when it arrives
 * and not at all when it answers 429; a request that never left was not counted either.
 */
function settlementOf(outcome: Outcome<unknown>): 'counted' | 'refunded' {
  if (outcome.kind === 'http' && outcome.error instanceof ApiError && outcome.error.status === 429) return 'refunded';
  if (outcome.kind === 'network' && outcome.neverSent) return 'refunded';
  return 'counted';
}

function isReplay(error: FuturesError): boolean {
  return error instanceof ApiError && error.status === 401 && error.error === 'Signature replay detected';
}

function toPathKey(key: PropertyKey): string | number {
  return typeof key === 'number' ? key : String(key);
}

function isFailureEnvelope(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;
}

type Failure =
  | {
      kind: 'http';
      error: FuturesError;
      retryAfterMs: number | undefined;
      dateHeader: string | null;
      sentAt: number;
      receivedAt: number;
    }
  | { kind: 'network'; error: FuturesError; neverSent: boolean }
  | { kind: 'redirect'; error: FuturesError }
  | { kind: 'timeout'; error: FuturesError };

type Outcome<T> = { kind: 'ok'; value: T } | Failure;
