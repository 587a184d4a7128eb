/** A random UUID v4 from the Web Crypto API (browsers and Node 22+). */
export function uuidV4(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const bytes = c.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return toHex(bytes).replace(/(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
}

/** Lowercase hex of `bytes`, two digits each (a UUID's, a Web Crypto signature's). */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
