import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { timingSafeEqualBytes } from './timing-safe.ts';

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

export interface JwtClaims {
  sub: string;
  rev: number;
  iat: number;
  exp: number;
  /** Nonce: keeps two tokens issued in the same second distinct. */
  jti?: string | undefined;
}

/** HS256 JWTs of the simulated UI session (the account channel's only auth, spec rule 9). */
export class JwtIssuer {
  private readonly secret: Uint8Array;

  constructor(secret: Uint8Array) {
    this.secret = secret;
  }

  issue(claims: JwtClaims): string {
    const header = base64url(utf8ToBytes(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));
    const payload = base64url(utf8ToBytes(JSON.stringify(claims)));
    const signature = base64url(hmac(sha256, this.secret, utf8ToBytes(`${header}.${payload}`)));
    return `${header}.${payload}.${signature}`;
  }

  /** The claims of a well-formed token signed by us with the algorithm pinned to HS256; else undefined. */
  verify(token: string): JwtClaims | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
    const headerBytes = fromBase64url(headerPart);
    const payloadBytes = fromBase64url(payloadPart);
    const signature = fromBase64url(signaturePart);
    if (!headerBytes || !payloadBytes || !signature) return undefined;
    try {
      const header = JSON.parse(new TextDecoder().decode(headerBytes)) as { alg?: unknown };
      if (header.alg !== 'HS256') return undefined;
      const expected = hmac(sha256, this.secret, utf8ToBytes(`${headerPart}.${payloadPart}`));
      if (!timingSafeEqualBytes(expected, signature)) return undefined;
      const claims = JSON.parse(new TextDecoder().decode(payloadBytes)) as Partial<JwtClaims>;
      if (typeof claims.sub !== 'string' || typeof claims.rev !== 'number' || typeof claims.exp !== 'number') {
        return undefined;
      }
      return { sub: claims.sub, rev: claims.rev, exp: claims.exp, iat: claims.iat ?? 0 };
    } catch {
      return undefined;
    }
  }
}
