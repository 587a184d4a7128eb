import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** A query parameter value before signing; `undefined` means "leave the parameter out". */
export type QueryValue = string | number | boolean | undefined;

/** Query parameters as the signer takes them. */
export type QueryParams = Readonly<Record<string, QueryValue>>;

/**
 * The spec's signing payload: every query parameter but `signature` (`undefined` dropped, others `String()`ed),
 * sorted and form-encoded exactly as `URLSearchParams` `sort()` and `toString()` do (spaces become `+`).
 * @example
 * ```ts
 * import { canonicalQuery } from 'futures-sdk';
 * canonicalQuery({ symbol: 'BTCUSDT', timestamp: 1700000000000, limit: undefined });
 * // => 'symbol=BTCUSDT&timestamp=1700000000000'
 * ```
 */
export function canonicalQuery(params: QueryParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || key === 'signature') continue;
    search.append(key, String(value));
  }
  search.sort();
  return search.toString();
}

/**
 * Lowercase hex HMAC-SHA256 of `payload` keyed with `secret` (both UTF-8). Pure and synchronous, no Node built-ins.
 * @example
 * ```ts
 * import { canonicalQuery, hmacSha256Hex } from 'futures-sdk';
 * const payload = canonicalQuery({ symbol: 'BTCUSDT', timestamp: Date.now() });
 * const signature = hmacSha256Hex(process.env.FUTURES_API_SECRET!, payload);
 * ```
 */
export function hmacSha256Hex(secret: string | Uint8Array, payload: string | Uint8Array): string {
  const key = typeof secret === 'string' ? utf8ToBytes(secret) : secret;
  const message = typeof payload === 'string' ? utf8ToBytes(payload) : payload;
  return bytesToHex(hmac(sha256, key, message));
}
