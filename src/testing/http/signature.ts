/**
 * The spec's request-signature algorithm as the server side runs it, written from the spec text ("Signature
 * computation") and deliberately independent of the client's `src/signer.ts`: a signing bug in the client must
 * fail against the simulator instead of being mirrored by it.
 *
 * 1. every query parameter, including `timestamp`, excluding `signature`;
 * 2. sorted by key as `URLSearchParams.sort` does: a stable sort comparing keys by UTF-16 code units;
 * 3. keys and values form-encoded (the application/x-www-form-urlencoded serializer), joined as `key=value`
 *    with `&`;
 * 4. HMAC-SHA256 keyed with the secret over that string, lowercase hex.
 */

import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';

const encoder = new TextEncoder();
const HEX = '0123456789ABCDEF';

/** Bytes the form encoder leaves as they are: ASCII alphanumerics and `*-._`. */
function isUnreserved(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) ||
    (byte >= 0x41 && byte <= 0x5a) ||
    (byte >= 0x61 && byte <= 0x7a) ||
    byte === 0x2a ||
    byte === 0x2d ||
    byte === 0x2e ||
    byte === 0x5f
  );
}

/** The application/x-www-form-urlencoded byte serializer over UTF-8 (a lone surrogate becomes U+FFFD). */
export function formEncode(text: string): string {
  let out = '';
  for (const byte of encoder.encode(text)) {
    if (isUnreserved(byte)) out += String.fromCharCode(byte);
    else if (byte === 0x20) out += '+';
    else out += `%${HEX[byte >> 4]}${HEX[byte & 0x0f]}`;
  }
  return out;
}

/** Orders two keys by UTF-16 code units (not by code point, not by locale), as `URLSearchParams.sort` does. */
function compareCodeUnits(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const difference = a.charCodeAt(i) - b.charCodeAt(i);
    if (difference !== 0) return difference;
  }
  return a.length - b.length;
}

/** Steps 1–3: the string that is signed, from the query pairs as received (duplicates keep their order). */
export function signingPayload(pairs: Iterable<readonly [string, string]>): string {
  const kept = [...pairs].filter(([key]) => key !== 'signature');
  // Array.prototype.sort is stable, so equal keys stay in the order they were received.
  kept.sort(([a], [b]) => compareCodeUnits(a, b));
  return kept.map(([key, value]) => `${formEncode(key)}=${formEncode(value)}`).join('&');
}

/** Step 4: lowercase hex HMAC-SHA256 of `payload` keyed with `secret` (both UTF-8). */
export function expectedSignature(secret: string, payload: string): string {
  const mac = hmac(sha256, encoder.encode(secret), encoder.encode(payload));
  let hex = '';
  for (const byte of mac) hex += (byte >> 4).toString(16) + (byte & 0x0f).toString(16);
  return hex;
}
