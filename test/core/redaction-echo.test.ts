import { inspect } from 'node:util';
import fc from 'fast-check';
import { FuturesClient, type FuturesError, type Logger } from 'futures-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redact } from '../../src/_internal/redact.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// A server (or a proxy in front of it) may echo credentials back in an error body, in any spelling and in part.
// Whatever it does, no rendering of the error and no log line may hold 5 consecutive characters of the API key
// (only `…` plus its last 4 may show) or of the secret.

const KEY_CHARS = fc.constantFrom(
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.~!*()+/=:@$'.split(''),
);
const apiKey = fc.string({ unit: KEY_CHARS, minLength: 12, maxLength: 48 });
const apiSecret = fc.string({ unit: KEY_CHARS, minLength: 16, maxLength: 64 });

const hex2 = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');
/** The spellings a server, a proxy or a library echoes a value in. */
const ENCODINGS: Record<string, (value: string) => string> = {
  raw: (v) => v,
  percent: (v) => encodeURIComponent(v),
  percentLower: (v) => encodeURIComponent(v).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
  percentAll: (v) => [...v].map((c) => `%${hex2(c).toUpperCase()}`).join(''),
  form: (v) => new URLSearchParams({ v }).toString().slice(2),
  json: (v) => JSON.stringify(v).slice(1, -1),
  unicodeEscapes: (v) => [...v].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  htmlHex: (v) => [...v].map((c) => (/[A-Za-z0-9]/.test(c) ? c : `&#x${hex2(c)};`)).join(''),
  htmlDecimal: (v) => [...v].map((c) => `&#${c.charCodeAt(0)};`).join(''),
  htmlNamed: (v) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
  jsonOfPercent: (v) => JSON.stringify(encodeURIComponent(v)).slice(1, -1),
};
const encoding = fc.constantFrom(...Object.keys(ENCODINGS));

/** Every window of `size` consecutive characters of `value`. */
function windows(value: string, size = 5): string[] {
  const out: string[] = [];
  for (let i = 0; i + size <= value.length; i++) out.push(value.slice(i, i + size));
  return out;
}

/**
 * What a reader of the text could recover: percent escapes, `\u`/`\x` and JSON escapes and HTML character
 * references undone, repeatedly (written independently of the SDK's own decoder).
 */
function readable(text: string): string {
  let out = text;
  for (let round = 0; round < 4; round++) {
    const next = out
      .replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/\\u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/\\x([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/\\(["\\/'])/g, '$1')
      .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/&#([0-9]+);/g, (_, d: string) => String.fromCharCode(Number.parseInt(d, 10)))
      .replace(
        /&(amp|lt|gt|quot|apos);/g,
        (_, n: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[n] ?? '',
      );
    if (next === out) break;
    out = next;
  }
  return out;
}

function renderings(error: FuturesError): string[] {
  return [String(error), error.message, error.shortMessage, error.stack ?? '', JSON.stringify(error), inspect(error)];
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('credentials echoed by a server never reach an error or a log line', () => {
  it('in any encoding, whole or truncated (property, real server)', async () => {
    await fc.assert(
      fc.asyncProperty(
        apiKey,
        apiSecret,
        encoding,
        fc.nat(),
        fc.constantFrom('key', 'secret'),
        async (key, secret, how, cut, which) => {
          fc.pre(!key.includes(secret.slice(0, 5)) && !secret.includes(key.slice(0, 5)));
          const echoed = which === 'key' ? key : secret;
          // A truncated echo keeps at least 5 characters: anything shorter is not a leak by the contract.
          const length = 5 + (cut % (echoed.length - 4));
          const piece = ENCODINGS[how]!(echoed.slice(0, length));
          const body = { ok: false, error: `Invalid API key ${piece}...`, details: { echo: piece } };
          server.queue(`GET /v2/positions for ${key}`, { status: 401, body });
          const lines: string[] = [];
          const logger: Logger = {
            debug: (m, meta) => lines.push(m, JSON.stringify(meta ?? {})),
            info: (m, meta) => lines.push(m, JSON.stringify(meta ?? {})),
            warn: (m, meta) => lines.push(m, JSON.stringify(meta ?? {})),
            error: (m, meta) => lines.push(m, JSON.stringify(meta ?? {})),
          };
          const client = new FuturesClient({
            baseUrl: server.url,
            apiKey: key,
            apiSecret: secret,
            retry: false,
            logger,
          });
          const error = (await client.account.positions().catch((e: unknown) => e)) as FuturesError;
          expect(error.name).toBe('AuthenticationError');
          for (const text of [...renderings(error), ...lines].flatMap((t) => [t, readable(t)])) {
            for (const w of windows(key)) expect(text, `key window ${w} via ${how}`).not.toContain(w);
            for (const w of windows(secret)) expect(text, `secret window ${w} via ${how}`).not.toContain(w);
          }
        },
      ),
      { numRuns: 150 },
    );
  }, 60_000);

  it('a custom fetch whose error echoes the signed URL and the key leaks nothing either', async () => {
    await fc.assert(
      fc.asyncProperty(apiKey, apiSecret, encoding, async (key, secret, how) => {
        fc.pre(!key.includes(secret.slice(0, 5)) && !secret.includes(key.slice(0, 5)));
        let signature = '';
        const client = new FuturesClient({
          baseUrl: 'https://api.example.com',
          apiKey: key,
          apiSecret: secret,
          retry: false,
          fetch: async (input) => {
            const url = input instanceof Request ? input.url : String(input);
            signature = new URL(url).searchParams.get('signature') ?? '';
            throw new TypeError(
              `request to ${ENCODINGS[how]!(url)} with key ${ENCODINGS[how]!(key)} failed (${signature.slice(0, 20)})`,
            );
          },
        });
        const error = (await client.account.balance().catch((e: unknown) => e)) as FuturesError;
        const cause = (error as { cause?: Error }).cause;
        for (const text of [...renderings(error), String(cause?.message ?? '')].flatMap((t) => [t, readable(t)])) {
          for (const w of windows(key)) expect(text).not.toContain(w);
          for (const w of windows(signature, 8)) expect(text).not.toContain(w);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('the whole key still shows as … and its last 4 characters, so users can tell which key failed', async () => {
    const key = 'ak_cy3yiuw51xq7vzp2';
    server.queue(`GET /v2/positions for ${key}`, { status: 401, body: { ok: false, error: `Invalid API key ${key}` } });
    const client = new FuturesClient({
      baseUrl: server.url,
      apiKey: key,
      apiSecret: 's3cret-value-1234',
      retry: false,
    });
    const error = (await client.account.positions().catch((e: unknown) => e)) as FuturesError;
    expect(error.message).toContain('Invalid API key …vzp2');
  });

  it('the issue case: a 12-character key prefix echoed by the server is removed', async () => {
    const key = 'ak_cy3yiuw51xq7vzp2';
    server.queue(`GET /v2/positions for ${key}`, {
      status: 401,
      body: { ok: false, error: 'Invalid API key ak_cy3yiuw51...' },
    });
    const client = new FuturesClient({
      baseUrl: server.url,
      apiKey: key,
      apiSecret: 's3cret-value-1234',
      retry: false,
    });
    const error = (await client.account.positions().catch((e: unknown) => e)) as FuturesError;
    for (const text of renderings(error)) expect(text).not.toContain('ak_cy');
    expect(error.message).toContain('Invalid API key [REDACTED]...');
  });

  it('JWTs are recognised by structure, not by an eyJ prefix', () => {
    const header = Buffer.from('{ "alg": "HS256", "typ": "JWT" }').toString('base64url'); // 'eyAi…'
    const payload = Buffer.from('{"sub":"account-1"}').toString('base64url');
    const jwt = `${header}.${payload}.c2lnbmF0dXJlLWJ5dGVz`;
    expect(header.startsWith('eyJ')).toBe(false);
    expect(redact(`session ${jwt} rejected`)).toBe('session [REDACTED JWT] rejected');
    // Version numbers and host names are three dotted segments too, but not base64url of a JSON object.
    expect(redact('node v24.21.0 on api.example.com')).toBe('node v24.21.0 on api.example.com');
  });
});
