// The options every client shares, read once and checked: a bad value fails at construction, not on a first call.
import { ConfigurationError } from '../errors/configuration-error.ts';
import type { FetchOptions, FuturesClientOptions, RateLimitOptions } from '../options.ts';
import { systemClock } from './clock.ts';
import { MAX_TIMEOUT_MS } from './endpoint-call.ts';
import { isLoopbackHost } from './env.ts';
import type { TransportConfig } from './transport.ts';

/** Headers the SDK sets itself (lower case, as `Headers` names them): theirs win over `fetchOptions.headers`. */
const OWN_HEADERS = ['accept', 'content-type', 'x-api-key'];

/** Throws a ConfigurationError: a bad client option. */
export const fail = (message: string): never => {
  throw new ConfigurationError(message);
};

/** What every client hands its transport, resolved from its options. */
export type SharedOptions = Omit<TransportConfig, 'apiKey' | 'signing' | 'logger' | 'budget' | 'redactor'>;

/** The options a public client takes: a FuturesClient's, less those of a key, a stream and a fleet. */
export type SharedOptionsInput = Omit<
  FuturesClientOptions,
  'apiKey' | 'apiSecret' | 'signer' | 'subAccountId' | 'dangerouslyAllowBrowser' | 'WebSocket' | 'fleet'
>;

/**
 * A plain copy of the options (and of their nested objects), read once: a getter that throws or a revoked Proxy
 * ends as a `ConfigurationError`, like every other bad option, and later reads cannot change what was validated.
 */
export function copyOptions<T extends SharedOptionsInput>(options: T): T {
  if (typeof options !== 'object' || options === null) fail('options must be an object with baseUrl');
  try {
    const copy: Record<string, unknown> = { ...options };
    for (const key of ['retry', 'rateLimit', 'fetchOptions']) {
      const value = copy[key];
      if (typeof value === 'object' && value) copy[key] = { ...value };
    }
    return copy as T;
  } catch {
    return fail('options could not be read (a getter or Proxy threw)');
  }
}

/** `value` if an integer from `min` to `max` (default: MAX_SAFE_INTEGER), `fallback` if undefined; else throws. */
function integer(value: unknown, name: string, min: number, fallback: number, max = 2 ** 53 - 1): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || (value as number) < min || (value as number) > max) {
    fail(`${name} must be an integer from ${min} to ${max} (got ${String(value)})`);
  }
  return value as number;
}

function resolveBaseUrl({ baseUrl, allowInsecureHttp }: SharedOptionsInput): string {
  if (typeof baseUrl !== 'string' || !baseUrl) fail('baseUrl is required, e.g. "https://api.example.com"');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    // Never echo a password of a `user:password@` part.
    return fail(`baseUrl is not a valid URL: ${JSON.stringify(baseUrl.replace(/\/\/[^/?#]*@/, '//***@'))}`);
  }
  const { protocol, origin } = url;
  // The SDK would silently drop them (only origin and path are used): say so instead of sending no credentials.
  if (url.username || url.password) fail('baseUrl must not contain user:password@; pass apiKey and apiSecret');
  if (protocol !== 'https:' && (protocol !== 'http:' || (!isLoopbackHost(url.hostname) && !allowInsecureHttp))) {
    fail(
      `baseUrl must use https: (http: only on loopback or with allowInsecureHttp: true), ` +
        `got ${protocol === 'http:' ? origin : protocol}`,
    );
  }
  if (url.search || url.hash) fail('baseUrl must not have a query string or a fragment');
  const path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith('/v2')) fail(`baseUrl must not end with /v2: the SDK adds it. Use ${origin}${path.slice(0, -3)}`);
  return origin + path;
}

function readFetchOptions(given: unknown): Pick<SharedOptions, 'fetchOptions' | 'fetchHeaders'> {
  let fetchHeaders: Record<string, string> | undefined;
  if (given === undefined) return { fetchOptions: undefined, fetchHeaders };
  if (typeof given !== 'object' || given === null) fail('fetchOptions must be an object');
  const { headers, ...rest } = given as FetchOptions;
  for (const field of ['method', 'body', 'signal', 'redirect']) {
    if (field in rest) fail(`fetchOptions.${field} is set by the SDK`);
  }
  if (headers !== undefined) {
    fetchHeaders = {};
    try {
      new Headers(headers as HeadersInit).forEach((value, name) => {
        if (!OWN_HEADERS.includes(name)) fetchHeaders![name] = value;
      });
    } catch {
      fail('fetchOptions.headers must be valid HTTP headers');
    }
  }
  return { fetchOptions: rest, fetchHeaders };
}

/** Checks and resolves the options every client shares (`options` already copied by {@link copyOptions}). */
export function readSharedOptions(options: SharedOptionsInput): SharedOptions {
  const { retry, rateLimit } = options;
  const baseUrl = resolveBaseUrl(options);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') fail('No fetch available: pass the fetch option');
  // null means the default here, as `??` reads it.
  const timeoutMs = integer(options.timeoutMs ?? undefined, 'timeoutMs', 1, 10_000, MAX_TIMEOUT_MS);
  if (rateLimit !== undefined && typeof rateLimit !== 'boolean' && (typeof rateLimit !== 'object' || !rateLimit)) {
    fail('rateLimit must be true, false or { maxPauseMs }');
  }
  const limit = retry === false ? 0 : (retry?.limit ?? 4);
  if (!Number.isInteger(limit) || limit < 0) fail('retry.limit must be a non-negative integer');
  return {
    baseUrl,
    timeoutMs,
    retry: retry !== false && {
      limit,
      baseDelayMs: retry?.baseDelayMs ?? 500,
      maxDelayMs: retry?.maxDelayMs ?? 8_000,
      maxRetryAfterMs: retry?.maxRetryAfterMs ?? 60_000,
    },
    // Through a wrapper: browsers throw "Illegal invocation" when fetch runs as a method of an options bag.
    fetch: (url, init) => fetchImpl(url, init),
    clock: options.clock ?? systemClock,
    hooks: options.hooks,
    rateLimit: rateLimit !== false,
    // Five minutes: longer than any pause a healthy server asks for, short enough that a bot recovers by itself.
    maxPauseMs: integer(
      (rateLimit as RateLimitOptions)?.maxPauseMs,
      'rateLimit.maxPauseMs',
      1,
      300_000,
      MAX_TIMEOUT_MS,
    ),
    ...readFetchOptions(options.fetchOptions),
    // 16 MiB: a 200-order page is ~90 KB, so this is two orders of magnitude of headroom.
    maxResponseBytes: integer(options.maxResponseBytes, 'maxResponseBytes', 1024, 2 ** 24),
  };
}
