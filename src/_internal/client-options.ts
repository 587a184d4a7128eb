// The client options that shape what goes on the wire and how long a bucket may be held: read once, checked,
// with their defaults. A bad value is a ConfigurationError at construction, never a surprise on the first call.
import { ConfigurationError } from '../errors/configuration-error.ts';
import type { FetchOptions, FuturesClientOptions } from '../options.ts';
import { MAX_TIMEOUT_MS } from './endpoint-call.ts';

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

/** Reads `fetchOptions`, `maxResponseBytes` and `rateLimit` from the client options. */
export function readWireOptions(options: FuturesClientOptions): WireOptions {
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
