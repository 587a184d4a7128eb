import type { KyInstance } from 'ky';
import { AbortError } from '../errors/abort-error.ts';
import { ApiError } from '../errors/api-error.ts';
import { ConfigurationError } from '../errors/configuration-error.ts';
import { ConnectionError } from '../errors/connection-error.ts';
import { apiErrorFromResponse } from '../errors/from-response.ts';
import { FuturesError } from '../errors/futures-error.ts';
import { RedirectError } from '../errors/redirect-error.ts';
import { ResponseValidationError } from '../errors/response-validation-error.ts';
import { sealError } from '../errors/seal-error.ts';
import { TimeoutError } from '../errors/timeout-error.ts';
import type { Fleet } from '../fleet/types.ts';
import type { Logger, RetryOptions, Signer } from '../options.ts';
import { canonicalQuery } from '../signer.ts';
import { backoffStep } from './backoff.ts';
import { type Clock, ClockSync } from './clock.ts';
import { type EndpointCall, priorityOf, readCallOptions } from './endpoint-call.ts';
import { validateResponse } from './fast-validate.ts';
import { loadedKy, loadKy } from './ky-loader.ts';
import { classifyNetworkFailure } from './network-failure.ts';
import { markOutcomeUnknown } from './outcome.ts';
import { RateLimiter, type Slot } from './rate-limiter.ts';
import { Redactor, redact } from './redact.ts';
import {
  isFailureEnvelope,
  noop,
  parseBody,
  parseRetryAfter,
  REDIRECT_STATUSES,
  readText,
  redirectTarget,
  toPathKey,
} from './response.ts';
import { type AttemptResult, isReplay, retryDelay, settlementOf } from './retry-policy.ts';
import { fleetLane, type SigningContext, signWithin } from './signing.ts';

// The option types live in a public module; re-exported for the SDK's internal importers.
export type { CallOptions, Logger, RetryOptions, Signer } from '../options.ts';
export type { CallPriority, EndpointCall, HttpMethod, InternalCallOptions, RetrySafety } from './endpoint-call.ts';
export { isValidTimeoutMs, MAX_TIMEOUT_MS } from './endpoint-call.ts';
export { parseRetryAfter } from './response.ts';

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

/** Why an attempt's body or headers stopped being awaited. */
const DEADLINE = /* @__PURE__ */ Symbol('deadline');
const CALLER_ABORT = /* @__PURE__ */ Symbol('caller abort');

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
  /** What signing an attempt needs (unset without credentials: signed calls are refused before any network). */
  private readonly signing: SigningContext | undefined;

  constructor(config: TransportConfig) {
    this.redactor = config.redactor ?? new Redactor();
    this.config = { ...config, logger: config.logger && this.redactor.logger(config.logger) };
    this.host = new URL(config.baseUrl).host;
    this.clockSync = new ClockSync(config.clock);
    this.signing = config.sign && { clockSync: this.clockSync, sign: config.sign, redactor: this.redactor };
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
      let result: AttemptResult<T>;
      try {
        result = await this.attempt(call, timeoutMs, signal, attempt, flight, slot);
      } catch (error) {
        slot.settle(slot.sent ? 'counted' : 'refunded');
        throw error instanceof FuturesError ? fail(error) : error;
      }
      if (result.kind === 'http' && result.error instanceof ApiError && result.error.status === 429) {
        // The pause is set before the refund, so the freed slot cannot go to a call the pause must hold.
        const pauseMs =
          result.retryAfterMs ??
          (config.retry === false ? 1000 : backoffStep(retries, { baseMs: 1000, maxMs: Number.POSITIVE_INFINITY }));
        this.pauseBucket(call, pauseMs);
      }
      slot.settle(settlementOf(result));

      if (result.kind === 'ok') return result.value;
      const error = result.error;
      if (
        result.kind === 'timeout' ||
        result.kind === 'redirect' ||
        (result.kind === 'network' && !result.neverSent) ||
        (result.kind === 'http' && error instanceof ApiError && (error.status >= 500 || isReplay(error)))
      ) {
        // A replay 401 means THIS attempt was not acted on, but also that a request with the same signature
        // arrived before: possibly a copy of this one that was accepted.
        flight.mayHaveActed = true;
      }

      // The server rejected our timestamp before acting: learn its clock from this response and try once more.
      if (
        result.kind === 'http' &&
        error instanceof ApiError &&
        error.status === 401 &&
        error.error === 'Invalid or expired timestamp' &&
        !resynced
      ) {
        resynced = true;
        this.clockSync.resync(result.dateHeader, result.sentAt, result.receivedAt);
        config.logger?.warn(
          `${call.method} ${call.path}: timestamp rejected, clock re-synced (offset ${this.clockSync.offset} ms)`,
        );
        continue;
      }

      const delay = retryDelay(config.retry, () => config.clock.random(), call.safety, result, retries);
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

  private abortError<T>(call: EndpointCall<T>, cause: unknown): AbortError {
    return new AbortError({ method: call.method, path: call.path, cause });
  }

  private async attempt<T>(
    call: EndpointCall<T>,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    attempt: number,
    flight: { mayHaveActed: boolean },
    slot: Slot,
  ): Promise<AttemptResult<T>> {
    const { config } = this;
    const query = call.query ?? {};
    if (signal?.aborted) throw this.abortError(call, signal.reason);
    // One deadline for the attempt from here: a slow lane or signer leaves less time for the wire, so an attempt
    // never takes more than timeoutMs in all. Monotonic real time, like the timers below.
    const startedAt = performance.now();
    const leftMs = () => Math.max(1, Math.ceil(timeoutMs - (performance.now() - startedAt)));
    const lane = call.signed ? await fleetLane(this.config.fleet, call, timeoutMs, signal) : undefined;
    let search: string;
    try {
      search = call.signed
        ? await signWithin(this.signing!, call, query, timeoutMs, signal, lane, leftMs())
        : canonicalQuery(query);
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
    const timer = setTimeout(() => stop(DEADLINE), leftMs());
    const timeoutError = () => ({
      kind: 'timeout' as const,
      error: new TimeoutError({ method: call.method, path: call.path, timeoutMs }),
    });
    const interrupted = (error: unknown): AttemptResult<T> | undefined => {
      const why = stoppedBy ?? error;
      if (why === DEADLINE) return timeoutError();
      if (why === CALLER_ABORT) {
        // Aborted while the request was on the wire: the server may have received it.
        flight.mayHaveActed = true;
        throw this.abortError(call, signal?.reason);
      }
      return undefined;
    };

    let ky: KyInstance;
    try {
      ky = loadedKy() ?? (await Promise.race([loadKy(), stopped]));
    } catch (error) {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
      // Nothing was sent: a stopped wait is this deadline or this signal, anything else a failed module load.
      if (stoppedBy === CALLER_ABORT) throw this.abortError(call, signal?.reason);
      if (stoppedBy === DEADLINE) {
        throw new TimeoutError({
          method: call.method,
          path: call.path,
          timeoutMs,
          details: 'the HTTP layer (ky) did not load in time; nothing was sent',
        });
      }
      throw new FuturesError(`${call.method} ${call.path}: the HTTP layer (ky) could not be loaded; nothing was sent`, {
        cause: error,
      });
    }
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
        const stoppedResult = interrupted(error);
        if (stoppedResult) return stoppedResult;
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
        const stoppedResult = interrupted(error);
        if (stoppedResult) return stoppedResult;
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
      const result = validateResponse(call.schema, parsed.value, text);
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
    const init = { status: response.status, method: call.method, path: call.path, body: parsed.value, retryAfterMs };
    const error = call.errorFor?.(init) ?? apiErrorFromResponse(init);
    config.logger?.debug(`${call.method} ${call.path} -> ${response.status}`);
    return { kind: 'http', error, retryAfterMs, dateHeader, sentAt, receivedAt };
  }
}
