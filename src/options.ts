// The public option types (exported from `futures-sdk`): per call, and the client's retry, logger, signer, ….
import type { WebSocketConstructor } from './events/web-socket.ts';
import type { Fleet } from './fleet/types.ts';

/** Per-call options every method accepts as its last argument. */
export interface CallOptions {
  /** Aborts the call (and any retry wait); the call rejects with `AbortError`. */
  signal?: AbortSignal | undefined;
  /** Overrides the client's per-attempt `timeoutMs`: 1 to 2147483647 ms, else `RequestValidationError`, unsent. */
  timeoutMs?: number | undefined;
}

/** Retry settings of the client's `retry` option; omitted fields keep their defaults. */
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
   * A 429 whose `Retry-After` asks for longer than this is not retried: the `RateLimitError` comes back at once.
   * @default 60000
   */
  maxRetryAfterMs?: number;
}

/** Pacing settings of the client's `rateLimit` option (`true` is all defaults; `false` turns pacing off). */
export interface RateLimitOptions {
  /**
   * Longest a 429's `Retry-After` may pause a bucket, in ms (a longer or unreadable value is clamped, with a
   * warning). The kill switch (`cancel`, `cancelAll`, `closePosition`) still goes out as a probe, one per second.
   * @default 300000
   */
  maxPauseMs?: number | undefined;
}

/**
 * Merged into every `fetch` call's init: a proxy `dispatcher` for undici (`{ dispatcher: new ProxyAgent(url) }`),
 * `headers`, or anything your `fetch` understands. The SDK's `method`, `body`, `signal`, `redirect` and headers
 * (`Accept`, `Content-Type`, `X-API-KEY`) win.
 */
export interface FetchOptions extends Omit<RequestInit, 'method' | 'body' | 'signal' | 'redirect' | 'headers'> {
  /** Headers added to every request, under the SDK's own. */
  headers?: Record<string, string> | undefined;
  /** Anything else your `fetch` takes, e.g. undici's `dispatcher`. */
  [option: string]: unknown;
}

/** Minimal logger; receives only redacted strings. `console` fits as it is. */
export interface Logger {
  debug(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  error(message: string, meta?: Record<string, unknown>): void;
}

/** What every hook event names: the call and its attempt. Nothing secret (no query, body, signature, key, JWT). */
export interface HookEventBase {
  /** `resource.method` of the endpoint, e.g. `'orders.create'`. */
  endpoint: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** The spec's path template with `:name` placeholders, e.g. `/v2/orders/:id/cancel` (never ids or a query). */
  path: string;
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
  /** The order's `clientOrderId` where the call has one (`orders.create`). */
  clientOrderId?: string | undefined;
}

/** The `request` hook's event: an attempt is about to be sent. */
export interface RequestHookEvent extends HookEventBase {}

/** The `response` hook's event: an attempt ended, with its HTTP status, or the error when no response came. */
export interface ResponseHookEvent extends HookEventBase {
  /** The HTTP status, when a response came. */
  status?: number | undefined;
  /** Why no response came (`TimeoutError`, `ConnectionError`, `AbortError`, …): redacted like every SDK error. */
  error?: Error | undefined;
  /** How long the attempt took (signing, the wire and the body), in milliseconds. */
  durationMs: number;
}

/** The `retry` hook's event: the attempt `attempt` failed and another is scheduled in `delayMs`. */
export interface RetryHookEvent extends HookEventBase {
  /** Wait before the next attempt, in milliseconds (a 429's is its bucket's pause). */
  delayMs: number;
  /** Why: the HTTP status (`'429'`, `'503'`, …), `'timeout'`, `'network'`, or `'clock-resync'` (retried at once). */
  reason: string;
}

/**
 * The client's `hooks`, called synchronously: `request` and `response` per attempt, `retry` per scheduled retry.
 * A hook that throws is logged (`logger.warn`) and ignored.
 */
export interface ClientHooks {
  request?: ((event: RequestHookEvent) => void) | undefined;
  response?: ((event: ResponseHookEvent) => void) | undefined;
  retry?: ((event: RetryHookEvent) => void) | undefined;
}

/** Computes the hex HMAC of a payload elsewhere (a KMS, a worker, a server): the secret never enters this process. */
export type Signer = (payload: string) => string | Promise<string>;

/**
 * A client's one time source (timestamps, backoff, pacing, jitter, stream and watcher timers); inject `ManualClock`
 * of `futures-sdk/testing` in tests. Only `timeoutMs` runs on real time: a jump must not time out requests.
 */
export interface Clock {
  /** Milliseconds since the epoch, like `Date.now()`. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason if it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1), like `Math.random()` (backoff jitter). */
  random(): number;
  /** Runs `callback` once after `ms`; returns a handle. Optional: without it, the runtime's timers are used. */
  setTimeout?(callback: () => void, ms: number): unknown;
  /** Cancels a timer of {@link Clock.setTimeout}. */
  clearTimeout?(handle: unknown): void;
}

/** Options of `FuturesClient` and `createBaseClient`. Only `baseUrl` is required (enough for public market data). */
export interface FuturesClientOptions {
  /** API origin, e.g. `https://api.example.com` (no `/v2` suffix). Required. */
  baseUrl: string;
  /** Public API key; required for signed endpoints. */
  apiKey?: string | undefined;
  /**
   * API secret used to sign, with the platform's Web Crypto (`crypto.subtle`). Prefer
   * {@link FuturesClientOptions.signer} in browsers; where Web Crypto is missing (an insecure origin) pass
   * `signer: (payload) => hmacSha256Hex(apiSecret, payload)` instead.
   */
  apiSecret?: string | undefined;
  /** Signs elsewhere: receives the payload, returns the hex HMAC-SHA256. The secret never enters the process. */
  signer?: Signer | undefined;
  /** Default `subAccountId` for every call that accepts one. */
  subAccountId?: string | undefined;
  /**
   * Deadline of each attempt in ms (fleet lane, signing, headers, whole body): an integer from 1 to 2147483647.
   * @default 10000
   */
  timeoutMs?: number | undefined;
  /**
   * Retry policy, or `false` to never retry.
   * @default { limit: 4, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60000 }
   */
  retry?: RetryOptions | false | undefined;
  /**
   * Client-side pacing per rate-limit bucket (orders 300/min, batch 100/min, close 300/min, default 1000/min).
   * `false` disables pacing (a 429's Retry-After still pauses the bucket); an object sets `maxPauseMs`.
   * @default true
   */
  rateLimit?: boolean | RateLimitOptions | undefined;
  /**
   * The `fetch` to use (e.g. the simulator's `ex.fetch`), always called as `fetch(url: string, init)`.
   * @default globalThis.fetch
   */
  fetch?: typeof globalThis.fetch | undefined;
  /** Merged into every `fetch` call's init (see {@link FetchOptions}), e.g. a proxy `dispatcher`. */
  fetchOptions?: FetchOptions | undefined;
  /**
   * Largest response body read, in decoded bytes (an integer from 1024); past it: `ResponseTooLargeError`, not retried.
   * @default 16777216 (16 MiB)
   */
  maxResponseBytes?: number | undefined;
  /**
   * Allow a non-loopback `http:` base URL. Signed requests would travel in clear text: for test rigs only.
   * @default false
   */
  allowInsecureHttp?: boolean | undefined;
  /**
   * Allow `apiSecret` in a browser, where any script on the page could read it. Use `signer` instead.
   * @default false
   */
  dangerouslyAllowBrowser?: boolean | undefined;
  /**
   * WebSocket constructor for streams.
   * @default globalThis.WebSocket
   */
  WebSocket?: WebSocketConstructor | undefined;
  /** Receives debug/info/warn/error lines; never a secret, signature, JWT or full API key. */
  logger?: Logger | undefined;
  /** Observes every attempt: `request`, `response` and `retry` events (see {@link ClientHooks}); no secret in any. */
  hooks?: ClientHooks | undefined;
  /**
   * Time source for timestamps, backoff and pacing; inject a fake one in tests.
   * @default the system clock
   */
  clock?: Clock | undefined;
  /**
   * Makes this client a fleet member on the API key (in any process): it signs only its lane's timestamps and counts
   * in the shared budget, so members never share a signature or a 429. `staticFleet({ index, size })` or
   * `createRedisFleet()`; one per client; needs `rateLimit`.
   */
  fleet?: Fleet | undefined;
}
