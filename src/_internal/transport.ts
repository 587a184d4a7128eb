import { AbortError } from '../errors/abort-error.ts';
import { ApiError } from '../errors/api-error.ts';
import { ConfigurationError } from '../errors/configuration-error.ts';
import { ConnectionError } from '../errors/connection-error.ts';
import { FuturesError } from '../errors/futures-error.ts';
import { RedirectError } from '../errors/redirect-error.ts';
import { ResponseTooLargeError } from '../errors/response-too-large-error.ts';
import { sealError } from '../errors/seal-error.ts';
import { TimeoutError } from '../errors/timeout-error.ts';
import type { SharedBudget } from '../fleet/types.ts';
import type { ClientHooks, Logger, RetryOptions } from '../options.ts';
import { canonicalQuery } from '../signer.ts';
import { answerOf } from './answer.ts';
import { type Clock, ClockSync } from './clock.ts';
import { type EndpointCall, priorityOf, readCallOptions } from './endpoint-call.ts';
import { type HookEmitter, hookEmitter } from './hooks.ts';
import { classifyNetworkFailure } from './network-failure.ts';
import { markOutcomeUnknown } from './outcome.ts';
import { RateLimiter, type Slot } from './rate-limiter.ts';
import { type Scrubber, shapeScrubber } from './redact.ts';
import { BodyTooLarge, isRejected, noop, REDIRECT_STATUSES, readText, redirectTarget } from './response.ts';
import { type AttemptResult, isRateLimited, isReplay, retryDelay, settlementOf, spec429Wait } from './retry-policy.ts';
import type { SignAttempt } from './signing.ts';
import { acquireSlot, traceStatus } from './trace.ts';

export type { CallOptions, Logger, RetryOptions, Signer } from '../options.ts';
export type { CallPriority, EndpointCall, HttpMethod, InternalCallOptions, RetrySafety } from './endpoint-call.ts';
export { isValidTimeoutMs, MAX_TIMEOUT_MS } from './endpoint-call.ts';
export { parseRetryAfter } from './response.ts';

/** Everything the transport needs, resolved from the client options. */
export interface TransportConfig {
  baseUrl: string;
  apiKey: string | undefined;
  /** None: signed calls are refused before any network. */
  signing?: ((clockSync: ClockSync) => SignAttempt) | undefined;
  timeoutMs: number;
  retry: Required<RetryOptions> | false;
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  /** Merged into every fetch init (a proxy `dispatcher`, …), under the SDK's own fields; `headers` as a record. */
  fetchOptions?: Readonly<Record<string, unknown>> | undefined;
  fetchHeaders?: Readonly<Record<string, string>> | undefined;
  maxResponseBytes: number;
  clock: Clock;
  rateLimit: boolean;
  maxPauseMs: number;
  logger: Logger | undefined;
  /** Where request slots are counted: a fleet's budget or this client's own; none counts nothing (public client). */
  budget?: SharedBudget | undefined;
  /** This client's credentials, scrubbed from every error and log line (the shape rules alone when omitted). */
  redactor?: Scrubber | undefined;
  hooks?: ClientHooks | undefined;
}

/** Why an attempt's headers or body stopped being awaited. */
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
  /** This client's credentials: every error leaving {@link Transport.call} is sealed with it. */
  readonly redactor: Scrubber;
  /** Host (with a non-default port) of the base URL, named in connection errors. */
  readonly #host: string;
  readonly #signAttempt: SignAttempt | undefined;
  readonly #hooks: HookEmitter | undefined;

  constructor(config: TransportConfig) {
    this.redactor = config.redactor ?? shapeScrubber;
    this.config = { ...config, logger: config.logger && this.redactor.logger(config.logger) };
    this.#host = new URL(config.baseUrl).host;
    this.clockSync = new ClockSync(config.clock);
    this.#signAttempt = config.signing?.(this.clockSync);
    this.#hooks = config.hooks && hookEmitter(config.hooks, this.config.logger, this.redactor);
    this.limiter = new RateLimiter(this.config);
  }

  async call<T>(call: EndpointCall<T>): Promise<T> {
    if (call.signed && (!this.config.apiKey || !this.#signAttempt)) {
      throw new ConfigurationError(
        `${call.method} ${call.path} needs credentials: create the client with apiKey and apiSecret (or signer)`,
      );
    }
    try {
      const options = readCallOptions(call);
      return await this.run(options === call.options ? call : { ...call, options });
    } catch (error) {
      // Nothing but FuturesError may escape.
      throw sealError(
        error instanceof FuturesError
          ? error
          : new FuturesError(`${call.method} ${call.path} failed unexpectedly`, { cause: error }),
        this.redactor,
      );
    }
  }

  private async run<T>(call: EndpointCall<T>): Promise<T> {
    const { config } = this;
    const { method, path } = call;
    const signal = call.options?.signal;
    const timeoutMs = call.options?.timeoutMs ?? config.timeoutMs;
    const retryLimit = config.retry ? config.retry.limit : 0;
    let retries = 0;
    let resynced = false;
    // Whether any attempt may have been acted on: a later 429 or refused connection clears only THAT attempt.
    let mayHaveActed = false;
    const acted = () => (mayHaveActed = true);
    const fail = (error: FuturesError): FuturesError =>
      mayHaveActed && method !== 'GET' ? markOutcomeUnknown(error) : error;

    const priority = priorityOf(call);
    const killSwitch = call.killSwitch === true || call.options?.killSwitch === true;
    // After this call's own 429 it waits out the pause in the queue (the pacer spreads the release).
    let waitOutPause = false;
    for (let attempt = 1; ; attempt++) {
      let slot: Slot;
      try {
        slot = await acquireSlot(this.limiter, call, { priority, killSwitch, waitOutPause, timeoutMs, signal });
      } catch (error) {
        // RateLimitError (bucket paused past this call's deadline), FleetUnavailableError, or the signal.
        throw fail(error instanceof FuturesError ? error : this.#abortError(call, error));
      }
      let result: AttemptResult<T>;
      try {
        const send = () => this.attempt(call, timeoutMs, signal, attempt, acted, slot);
        result = await (this.#hooks ? this.#hooks.attempt(call, attempt, send) : send());
      } catch (error) {
        slot.settle(slot.sent ? 'counted' : 'refunded');
        throw error instanceof FuturesError ? fail(error) : error;
      }
      const limited = isRateLimited(result) ? result : undefined;
      if (limited) {
        // The pause is set before the refund, so the freed slot cannot go to a call the pause must hold.
        this.#pauseBucket(call, limited.retryAfterMs ?? spec429Wait(config.retry ? retries : 0), killSwitch);
      }
      slot.settle(settlementOf(result));
      if (call.trace) traceStatus(call.trace, result);

      if (result.kind === 'ok') return result.value;
      const { kind, error } = result;
      // (A too-large body after a non-4xx status was told to `acted` by the attempt itself.)
      if (
        kind === 'timeout' ||
        kind === 'redirect' ||
        (kind === 'network' && !result.neverSent) ||
        (kind === 'http' && error instanceof ApiError && (error.status >= 500 || isReplay(error)))
      ) {
        // A replay 401: THIS attempt was not acted on, but an earlier copy with its signature may have been.
        acted();
      }

      // The server rejected our timestamp before acting: learn its clock from this response and try once more.
      const stale = error instanceof ApiError && error.status === 401 && error.error === 'Invalid or expired timestamp';
      if (kind === 'http' && stale && !resynced) {
        resynced = true;
        this.clockSync.resync(result.dateHeader, result.sentAt, result.receivedAt);
        config.logger?.warn(
          `${method} ${path}: timestamp rejected, clock re-synced (offset ${this.clockSync.offset} ms)`,
        );
        this.#hooks?.retry(call, attempt, 0);
        continue;
      }

      const asked = retryDelay(config.retry, () => config.clock.random(), call.safety, result, retries);
      // A 429's wait is its bucket's pause, which maxPauseMs caps.
      const delay = limited && asked !== undefined ? Math.min(asked, config.maxPauseMs) : asked;
      if (delay === undefined || retries >= retryLimit) throw fail(error);
      retries++;
      config.logger?.warn(`${method} ${path}: retry ${retries}/${retryLimit} in ${delay} ms`, {
        reason: error.shortMessage,
      });
      this.#hooks?.retry(call, attempt, delay, result);
      // A 429's wait is its bucket's pause, served by the pacer, which releases the waiting calls one by one
      // (the kill switch as a probe): sleeping here as well would release them all together when it ends.
      waitOutPause = !!limited;
      if (limited) continue;
      try {
        await config.clock.sleep(delay, signal);
      } catch (abortReason) {
        throw fail(this.#abortError(call, abortReason));
      }
    }
  }

  /**
   * A 429 holds its bucket for its `Retry-After` (even past `retry.maxRetryAfterMs`, which only decides whether THIS
   * call retries), at most `rateLimit.maxPauseMs`: a server asking for ten years must not stop the bot.
   */
  #pauseBucket<T>(call: EndpointCall<T>, pauseMs: number, killSwitch: boolean): void {
    const { retry, maxPauseMs, logger } = this.config;
    const clamped = Math.min(pauseMs, maxPauseMs);
    this.limiter.pause(call.bucket, clamped, killSwitch);
    const cap = retry ? retry.maxRetryAfterMs : undefined;
    const over =
      cap === undefined
        ? ' (retries off)'
        : pauseMs > cap
          ? ` (over retry.maxRetryAfterMs ${cap} ms: not retried)`
          : '';
    logger?.warn(
      `${call.method} ${call.path}: 429, the ${call.bucket} bucket is paused for ${clamped} ms` +
        (clamped < pauseMs ? ` (Retry-After asked ${pauseMs} ms: clamped to rateLimit.maxPauseMs)` : '') +
        over,
    );
  }

  /** A network failure's result; `neverSent` undefined follows the cause, and `reason` is the cause's when it tells. */
  #network<T>(call: EndpointCall<T>, cause: unknown, neverSent?: boolean, reason?: string): AttemptResult<T> {
    const failure = classifyNetworkFailure(cause, this.config.baseUrl);
    neverSent ??= failure.neverSent;
    if ((failure.neverSent && neverSent) || reason === undefined) reason = failure.reason;
    const { method, path } = call;
    const { code } = failure;
    return {
      kind: 'network',
      neverSent,
      error: new ConnectionError({ method, path, host: this.#host, code, neverSent, reason, cause }),
    };
  }

  #abortError<T>(call: EndpointCall<T>, cause: unknown): AbortError {
    return new AbortError({ method: call.method, path: call.path, cause });
  }

  /** One attempt; `acted` is told when the server may have acted on it. (Named in stack traces, as `run` is.) */
  private async attempt<T>(
    call: EndpointCall<T>,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    attempt: number,
    acted: () => void,
    slot: Slot,
  ): Promise<AttemptResult<T>> {
    const { config } = this;
    const { method, path } = call;
    const query = call.query ?? {};
    const aborted = () => this.#abortError(call, signal?.reason);
    if (signal?.aborted) throw aborted();
    // One deadline from here (a slow lane or signer leaves less for the wire), on monotonic real time.
    const startedAt = performance.now();
    const leftMs = () => Math.max(1, Math.ceil(timeoutMs - (performance.now() - startedAt)));
    let search: string;
    try {
      search = call.signed ? await this.#signAttempt!(call, query, timeoutMs, signal, leftMs) : canonicalQuery(query);
    } catch (error) {
      throw error instanceof FuturesError ? error : new FuturesError('Signing the request failed', { cause: error });
    }
    const url = `${config.baseUrl}${path}${search ? `?${search}` : ''}`;
    const json = 'application/json';
    const headers: Record<string, string> = { Accept: json };
    if (call.signed && config.apiKey) headers['X-API-KEY'] = config.apiKey;
    let body: string | undefined;
    if (call.body !== undefined) {
      headers['Content-Type'] = json;
      body = JSON.stringify(call.body);
    }
    config.logger?.debug(`${method} ${path} attempt ${attempt}`);

    // The deadline (headers AND body, real time: a fake clock jumping ahead must not time out requests on the wire)
    // and the caller's signal end the wait themselves (`stopped`): an abort through fetch's Request can be lost.
    const attemptController = new AbortController();
    if (signal?.aborted) throw aborted();
    let stoppedBy: typeof DEADLINE | typeof CALLER_ABORT | undefined;
    let rejectStopped!: (why: unknown) => void;
    const stopped = new Promise<never>((_, reject) => {
      rejectStopped = reject;
    });
    stopped.catch(noop);
    // Recorded before the courtesy abort: the aborted fetch or body may reject first with an abort error of its own.
    const stop = (why: typeof DEADLINE | typeof CALLER_ABORT) => {
      stoppedBy ??= why;
      rejectStopped(why);
      attemptController.abort(why === CALLER_ABORT ? signal?.reason : undefined);
    };
    // One macrotask later: a response (or body) already in when the signal fires is kept, a known outcome.
    const onCallerAbort = () => setTimeout(() => stop(CALLER_ABORT), 0);
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    const timer = setTimeout(() => stop(DEADLINE), leftMs());
    const interrupted = (error: unknown): AttemptResult<T> | undefined => {
      const why = stoppedBy ?? error;
      if (why === DEADLINE) return { kind: 'timeout', error: new TimeoutError({ method, path, timeoutMs }) };
      if (why === CALLER_ABORT) {
        // Aborted while the request was on the wire: the server may have received it.
        acted();
        throw aborted();
      }
      return undefined;
    };

    const requestInit: RequestInit = {
      ...config.fetchOptions,
      method,
      headers: { ...config.fetchHeaders, ...headers },
      signal: attemptController.signal,
      // Never follow: the next hop would receive the API key and a signature valid on any endpoint for 5 s.
      redirect: 'manual',
      ...(body !== undefined && { body }),
    };
    const sentAt = config.clock.now();
    let response: Response;
    let text: string;
    try {
      let sending: Promise<Response>;
      try {
        // `fetch(url, init)`, never a Request: a fetch from another realm (the undici package) rejects ours.
        sending = config.fetch(url, requestInit);
        sending.catch(noop);
      } catch (error) {
        // Thrown before returning a promise: nothing can have been sent.
        return this.#network(call, error, true, 'fetch threw before sending');
      }
      if (await isRejected(sending)) {
        // Already rejected when fetch returned: no I/O can have happened (a bad init, a missing feature).
        return this.#network(call, await sending.catch((error: unknown) => error), true, 'fetch failed before sending');
      }
      slot.sent = true;
      try {
        response = await Promise.race([sending, stopped]);
      } catch (error) {
        return interrupted(signal?.aborted ? CALLER_ABORT : error) ?? this.#network(call, error);
      }
      const opaque = response.type === 'opaqueredirect';
      if (opaque || REDIRECT_STATUSES.has(response.status) || response.redirected) {
        // The server answered (so a state change may have happened), but whatever it points at is not the API.
        response.body?.cancel().catch(noop);
        const status = opaque ? 0 : response.status;
        const location = redirectTarget(response.headers.get('location'), url);
        return { kind: 'redirect', error: new RedirectError({ method, path, status, location }) };
      }
      try {
        text = await readText(response, stopped, config.maxResponseBytes);
      } catch (error) {
        // A 4xx status already says the server refused; after any other, whatever it did is done.
        const { status } = response;
        const refused = status >= 400 && status < 500;
        if (!refused) acted();
        if (error instanceof BodyTooLarge) {
          const limitBytes = config.maxResponseBytes;
          return {
            kind: 'too-large',
            error: new ResponseTooLargeError({ method, path, status, limitBytes, seen: error.seen }),
          };
        }
        if (refused) {
          if (stoppedBy === CALLER_ABORT) throw aborted();
          text = ''; // the refusal is reported from its status
        } else {
          return (
            interrupted(error) ?? this.#network(call, error, false, 'the connection broke while the response was read')
          );
        }
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
    }
    const receivedAt = config.clock.now();
    this.clockSync.addSample(response.headers.get('date'), sentAt, receivedAt);
    return answerOf(call, response, text, {
      sentAt,
      receivedAt,
      serverNow: () => config.clock.now() + this.clockSync.offset,
      logger: config.logger,
      acted,
    });
  }
}
