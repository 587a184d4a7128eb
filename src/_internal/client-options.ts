// The options every client shares (a FuturesClient, a base client, a public client): read once, checked, with
// their defaults. A bad value is a ConfigurationError at construction, never a surprise on the first call.
import { ConfigurationError } from '../errors/configuration-error.ts';
import type { ClientHooks, FetchOptions, FuturesClientOptions, RetryOptions } from '../options.ts';
import { type Clock, systemClock } from './clock.ts';
import { isValidTimeoutMs, MAX_TIMEOUT_MS } from './endpoint-call.ts';
import { isLoopbackHost } from './env.ts';

/** 16 MiB: a 200-order page is ~90 KB, so this is two orders of magnitude of headroom. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Five minutes: longer than any pause a healthy server asks for, short enough that a bot recovers by itself. */
export const DEFAULT_MAX_PAUSE_MS = 300_000;

/** Headers the SDK sets itself (lower case, as `Headers` names them): theirs win over `fetchOptions.headers`. */
const OWN_HEADERS = /* @__PURE__ */ new Set(['accept', 'content-type', 'x-api-key']);

/** The fetch init fields the SDK sets itself on every call. */
const OWN_INIT_FIELDS = ['method', 'body', 'signal', 'redirect'];

export interface WireOptions {
  fetchOptions: Readonly<Record<string, unknown>> | undefined;
  fetchHeaders: Readonly<Record<string, string>> | undefined;
  maxResponseBytes: number;
  rateLimit: boolean;
  maxPauseMs: number;
}

function readFetchOptions(given: unknown): Pick<WireOptions, 'fetchOptions' | 'fetchHeaders'> {
  if (given === undefined) return { fetchOptions: undefined, fetchHeaders: undefined };
  if (typeof given !== 'object' || given === null) throw new ConfigurationError('fetchOptions must be an object');
  const { headers, ...rest } = given as FetchOptions;
  for (const field of OWN_INIT_FIELDS) {
    if (field in rest) throw new ConfigurationError(`fetchOptions.${field} is set by the SDK on every call`);
  }
  let fetchHeaders: Record<string, string> | undefined;
  if (headers !== undefined) {
    fetchHeaders = {};
    try {
      new Headers(headers as HeadersInit).forEach((value, name) => {
        if (!OWN_HEADERS.has(name)) fetchHeaders![name] = value;
      });
    } catch {
      throw new ConfigurationError('fetchOptions.headers must be valid HTTP header names and values');
    }
  }
  return { fetchOptions: rest, fetchHeaders };
}

function positiveInteger(value: unknown, name: string, min: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > Number.MAX_SAFE_INTEGER) {
    throw new ConfigurationError(`${name} must be an integer from ${min} (got ${String(value)})`);
  }
  return value;
}

/** What every client hands its transport, resolved from its options. */
export interface SharedOptions extends WireOptions {
  baseUrl: string;
  timeoutMs: number;
  retry: Required<RetryOptions> | false;
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  clock: Clock;
  hooks: ClientHooks | undefined;
}

/** The options a public client takes: a subset of a FuturesClient's. */
export type SharedOptionsInput = Pick<
  FuturesClientOptions,
  | 'baseUrl'
  | 'allowInsecureHttp'
  | 'timeoutMs'
  | 'retry'
  | 'rateLimit'
  | 'fetch'
  | 'fetchOptions'
  | 'maxResponseBytes'
  | 'clock'
  | 'logger'
  | 'hooks'
>;

/**
 * A plain copy of the options (and of their nested objects), read once: a getter that throws or a revoked Proxy
 * ends as a `ConfigurationError`, like every other bad option, and later reads cannot change what was validated.
 */
export function copyOptions<T extends SharedOptionsInput>(options: T): T {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError('A futures-sdk client needs an options object with at least baseUrl');
  }
  try {
    const copy = { ...options };
    if (typeof copy.retry === 'object' && copy.retry !== null) copy.retry = { ...copy.retry };
    if (typeof copy.rateLimit === 'object' && copy.rateLimit !== null) copy.rateLimit = { ...copy.rateLimit };
    if (typeof copy.fetchOptions === 'object' && copy.fetchOptions !== null) {
      copy.fetchOptions = { ...copy.fetchOptions };
    }
    return copy;
  } catch {
    throw new ConfigurationError('FuturesClient options could not be read (a getter or Proxy threw)');
  }
}

function resolveBaseUrl(options: SharedOptionsInput): string {
  if (typeof options.baseUrl !== 'string' || options.baseUrl === '') {
    throw new ConfigurationError('baseUrl is required, e.g. "https://api.example.com"');
  }
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    // Never echo a password of a `user:password@` part.
    const shown = options.baseUrl.replace(/\/\/[^/?#]*@/, '//***@');
    throw new ConfigurationError(`baseUrl is not a valid URL: ${JSON.stringify(shown)}`);
  }
  if (url.username || url.password) {
    // The SDK would silently drop them (only origin and path are used): say so instead of sending no credentials.
    throw new ConfigurationError('baseUrl must not contain credentials (user:password@); pass apiKey and apiSecret');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigurationError(`baseUrl must use https: (got ${url.protocol})`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !options.allowInsecureHttp) {
    throw new ConfigurationError(
      `baseUrl must use https: (signed requests carry your API key). http: is accepted only for loopback hosts, ` +
        `or with allowInsecureHttp: true. Got ${url.origin}`,
    );
  }
  if (url.search || url.hash) throw new ConfigurationError('baseUrl must not have a query string or a fragment');
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/v2$/.test(path)) {
    throw new ConfigurationError(
      `baseUrl must not end with /v2: the SDK adds it. Use ${url.origin}${path.slice(0, -3)}`,
    );
  }
  return `${url.origin}${path}`;
}

function readRetry(retry: RetryOptions | false | undefined): Required<RetryOptions> | false {
  if (retry === false) return false;
  const resolved = {
    limit: retry?.limit ?? 4,
    baseDelayMs: retry?.baseDelayMs ?? 500,
    maxDelayMs: retry?.maxDelayMs ?? 8_000,
    maxRetryAfterMs: retry?.maxRetryAfterMs ?? 60_000,
  };
  if (!Number.isInteger(resolved.limit) || resolved.limit < 0) {
    throw new ConfigurationError('retry.limit must be a non-negative integer');
  }
  return resolved;
}

/** Checks and resolves the options every client shares (`options` already copied by {@link copyOptions}). */
export function readSharedOptions(options: SharedOptionsInput): SharedOptions {
  const baseUrl = resolveBaseUrl(options);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new ConfigurationError('No fetch available: pass the fetch option');
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (!isValidTimeoutMs(timeoutMs)) {
    throw new ConfigurationError(
      `timeoutMs must be an integer number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (got ${String(timeoutMs)})`,
    );
  }
  return {
    baseUrl,
    timeoutMs,
    retry: readRetry(options.retry),
    // Called through a wrapper: browsers throw "Illegal invocation" when fetch runs with a `this` other than the
    // global object, which is what happens when a library calls it as a property of an options bag.
    fetch: (url, init) => fetchImpl(url, init),
    clock: options.clock ?? systemClock,
    hooks: options.hooks,
    ...readWireOptions(options),
  };
}

/** Reads `fetchOptions`, `maxResponseBytes` and `rateLimit` from the client options. */
function readWireOptions(options: SharedOptionsInput): WireOptions {
  const { rateLimit } = options;
  if (rateLimit !== undefined && typeof rateLimit !== 'boolean' && (typeof rateLimit !== 'object' || !rateLimit)) {
    throw new ConfigurationError('rateLimit must be true, false or { maxPauseMs }');
  }
  const maxPauseMs = positiveInteger(
    typeof rateLimit === 'object' ? rateLimit.maxPauseMs : undefined,
    'rateLimit.maxPauseMs',
    1,
    DEFAULT_MAX_PAUSE_MS,
  );
  if (maxPauseMs > MAX_TIMEOUT_MS)
    throw new ConfigurationError(`rateLimit.maxPauseMs must be at most ${MAX_TIMEOUT_MS}`);
  return {
    ...readFetchOptions(options.fetchOptions),
    maxResponseBytes: positiveInteger(options.maxResponseBytes, 'maxResponseBytes', 1024, DEFAULT_MAX_RESPONSE_BYTES),
    rateLimit: rateLimit !== false,
    maxPauseMs,
  };
}
