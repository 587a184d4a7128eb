import type { Signer } from '../options.ts';
import { toHex } from './uuid.ts';

/** Whether the platform has Web Crypto's `subtle` (Node 22+, Bun, Deno, Workers; browsers in a secure context). */
export const hasSubtleCrypto = (): boolean => typeof globalThis.crypto?.subtle?.sign === 'function';

/**
 * The signer of a client built with `apiSecret`: hex HMAC-SHA256 by the platform's Web Crypto, the key imported
 * once and not extractable. The exported `hmacSha256Hex` computes the same bytes synchronously (@noble/hashes);
 * a client does not ship it, which keeps 3 KB gzip out of every bundle (docs/architecture.md, "Signer").
 */
export function webCryptoSigner(secret: string): Signer {
  const utf8 = (text: string) => new TextEncoder().encode(text);
  let key: Promise<CryptoKey> | undefined;
  return async (payload) => {
    key ??= crypto.subtle.importKey('raw', utf8(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return toHex(new Uint8Array(await crypto.subtle.sign('HMAC', await key, utf8(payload))));
  };
}
