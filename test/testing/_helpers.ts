import { FuturesClient, type FuturesClientOptions } from 'futures-sdk';
import { createExchange, type Exchange, type ExchangeOptions } from 'futures-sdk/testing';
import { systemClock } from '../../src/_internal/clock.ts';
import { canonicalQuery, hmacSha256Hex } from '../../src/signer.ts';

export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

export interface SignedCall {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Override the timestamp (default: server time). */
  timestamp?: number | string;
  /** Override or drop (`null`) the signature. */
  signature?: string | null;
  /** Override or drop (`null`) the X-API-KEY header. */
  apiKey?: string | null;
  headers?: Record<string, string>;
}

export interface WireResult {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON fields
  body: any;
}

const lastTimestamp = new WeakMap<Exchange, number>();

/** Server time, strictly increasing per exchange: like the SDK, so that two calls never share a signature. */
export function nextTimestamp(ex: Exchange): number {
  const ts = Math.max(ex.now(), (lastTimestamp.get(ex) ?? 0) + 1);
  lastTimestamp.set(ex, ts);
  return ts;
}

/** A request signed exactly as the spec says, sent through `ex.fetch`. */
export async function signedFetch(
  ex: Exchange,
  creds: Credentials,
  method: string,
  path: string,
  call: SignedCall = {},
): Promise<WireResult> {
  const params: Record<string, string | number | boolean | undefined> = {
    ...call.query,
    timestamp: call.timestamp ?? nextTimestamp(ex),
  };
  const payload = canonicalQuery(params);
  const signature = call.signature === undefined ? hmacSha256Hex(creds.apiSecret, payload) : call.signature;
  const search = new URLSearchParams(payload);
  if (signature !== null) search.append('signature', signature);
  const headers: Record<string, string> = { ...call.headers };
  const key = call.apiKey === undefined ? creds.apiKey : call.apiKey;
  if (key !== null) headers['X-API-KEY'] = key;
  if (call.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await ex.fetch(`${ex.baseUrl}${path}?${search}`, {
    method,
    headers,
    ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Non-JSON bodies are returned as text.
  }
  return { status: response.status, headers: response.headers, body };
}

export interface Rig {
  ex: Exchange;
  accountId: string;
  subAccountId: string;
  creds: Credentials;
  client: FuturesClient;
  /** Signed call with this rig's credentials. */
  call(method: string, path: string, call?: SignedCall): Promise<WireResult>;
}

/**
 * A frozen-clock exchange (time moves only by `advance`) with frozen marks (BTCUSDT 60000, ETHUSDT 3000), one
 * funded account, a TRADE key, and a client on `ex.fetch` whose clock follows the server's.
 */
export function setup(
  options: Partial<ExchangeOptions> & { balances?: Record<string, string>; positionMode?: 'ONE_WAY' | 'HEDGE' } = {},
): Rig {
  const t0 = Date.UTC(2026, 4, 1, 12, 0, 0);
  const { balances, positionMode, ...exchangeOptions } = options;
  const ex = createExchange({ seed: 1, now: () => t0, volatility: 0, ...exchangeOptions });
  const { accountId, subAccountId } = ex.createAccount({
    balances: balances ?? { USDT: '10000' },
    ...(positionMode ? { positionMode } : {}),
  });
  const creds = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  ex.setMarkPrice('BTCUSDT', '60000');
  ex.setMarkPrice('ETHUSDT', '3000');
  const client = clientFor(ex, creds);
  return { ex, accountId, subAccountId, creds, client, call: (m, p, c) => signedFetch(ex, creds, m, p, c) };
}

/**
 * A FuturesClient on `ex.fetch` whose clock is the server's (sharing the helper's timestamp sequence: one key,
 * one strictly increasing timestamp stream, no replay collisions). No retries, no pacing unless overridden.
 */
export function clientFor(
  ex: Exchange,
  creds: Credentials,
  options: Partial<FuturesClientOptions> = {},
): FuturesClient {
  return new FuturesClient({
    baseUrl: ex.baseUrl,
    ...creds,
    fetch: ex.fetch,
    retry: false,
    rateLimit: false,
    clock: { ...systemClock, now: () => nextTimestamp(ex) },
    ...options,
  });
}

/** Places an order over the wire and returns the response body (asserting 200). */
export async function placeOrder(rig: Rig, body: Record<string, unknown>): Promise<WireResult> {
  return rig.call('POST', '/v2/orders', { body });
}
