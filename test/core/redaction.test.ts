import diagnostics from 'node:diagnostics_channel';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FuturesClient, FuturesError } from '../../src/index.ts';
import { recordingLogger } from '../helpers/client.ts';
import { FakeClock } from '../helpers/clock.ts';
import { hmacHex, startTestServer, type TestServer } from '../helpers/server.ts';

const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhY2MtMSIsInJldiI6M30.S1gNaTuReS1gNaTuReS1gNaTuRe';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

type Kind = '401 wrong secret' | '401 echo' | '500 echo' | 'network error with signed URL' | 'timeout';
const kinds: Kind[] = ['401 wrong secret', '401 echo', '500 echo', 'network error with signed URL', 'timeout'];

/** Everything a user could print or ship to a log aggregator. */
function surfaces(error: unknown, lines: unknown[]): string[] {
  return [
    (error as Error).message,
    String(error),
    JSON.stringify(error),
    inspect(error, { depth: 10 }),
    ...lines.map((line) => JSON.stringify(line)),
  ];
}

describe('redaction', () => {
  const alnum = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
  const secretArb = fc.string({
    unit: fc.oneof(alnum, fc.constantFrom('-', '_', '+', '/', '=')),
    minLength: 16,
    maxLength: 48,
  });
  const keyArb = fc.string({ unit: alnum, minLength: 12, maxLength: 40 });

  it('no error surface or log line holds the secret, a signature, a JWT or the full API key', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, keyArb, fc.constantFrom(...kinds), async (secret, apiKey, kind) => {
        server.addKey(apiKey, kind === '401 wrong secret' ? `${secret}-other` : secret);
        const before = server.requests.length;
        const logger = recordingLogger();
        // Every hook event, recorded as a user would ship it (JSON) and checked like every other surface.
        const events: unknown[] = [];
        const record = (event: unknown) => {
          events.push(event);
        };
        const signedUrls: string[] = [];
        const fetchImpl: typeof fetch = async (input, init) => {
          const url = input instanceof Request ? input.url : String(input);
          signedUrls.push(url);
          if (kind === 'network error with signed URL') {
            throw new Error(`connect failed for ${url}&token=${JWT} with X-API-KEY ${apiKey}`);
          }
          return fetch(input, init);
        };
        const route = `GET /v2/positions for ${apiKey}`;
        server.clearQueues();
        if (kind === '401 echo') server.queue(route, { echo: 401 }, { echo: 401 });
        if (kind === '500 echo') server.queue(route, { echo: 500 }, { echo: 500 });
        if (kind === 'timeout') server.queue(route, { delayMs: 500 }, { delayMs: 500 });
        const client = new FuturesClient({
          baseUrl: server.url,
          apiKey,
          apiSecret: secret,
          fetch: fetchImpl,
          logger,
          hooks: { request: record, response: record, retry: record },
          clock: new FakeClock(Date.now()),
          retry: { limit: 1 },
          timeoutMs: 20,
        });

        // And every message of the `futures-sdk:request` trace. Its `error` is the call's error, checked below
        // as an error surface (a server's echo of its URL may keep a query, its signature redacted).
        const traced: unknown[] = [];
        const tracedErrors = new Set<unknown>();
        const channel = diagnostics.tracingChannel('futures-sdk:request');
        const onTrace = (context: { error?: unknown }) => {
          if (context.error) tracedErrors.add(context.error);
          traced.push({ ...context, durationMs: 0, queuedMs: 0, error: undefined });
        };
        const handlers = { start: onTrace, end: onTrace, asyncStart: onTrace, asyncEnd: onTrace, error: onTrace };
        channel.subscribe(handlers);
        const error = await client.account.positions().catch((e: unknown) => e);
        channel.unsubscribe(handlers);
        expect(error).toBeInstanceOf(FuturesError);
        expect(traced).toHaveLength(5);
        expect([...tracedErrors]).toEqual([error]);
        events.push(...traced);

        const signatures = signedUrls.map((u) => new URL(u).searchParams.get('signature') ?? '');
        for (const r of server.requests.slice(before)) signatures.push(r.signature ?? '');
        // The signature the SDK would compute with the right secret, in case a wrong-secret signature was sent.
        for (const u of signedUrls) {
          const params = new URL(u).searchParams;
          params.delete('signature');
          params.sort();
          signatures.push(hmacHex(secret, params.toString()));
        }
        expect(signatures.filter(Boolean).length).toBeGreaterThan(0);
        expect(logger.lines.length).toBeGreaterThan(0);
        expect(events.length).toBeGreaterThan(1);

        // Timings are numbers (no secret fits in one), and their digits could match a window of the key.
        const eventTexts = events.map((event) => JSON.stringify({ ...(event as object), durationMs: 0, delayMs: 0 }));
        for (const text of eventTexts) {
          // Not even a 5-character window of the key (the last 4 alone may show), nor a query string.
          for (let i = 0; i + 5 <= apiKey.length; i++) expect(text).not.toContain(apiKey.slice(i, i + 5));
          expect(text).not.toContain('?');
          expect(text).not.toContain('timestamp=');
        }
        for (const text of [...surfaces(error, logger.lines), ...eventTexts]) {
          expect(text).not.toContain(secret);
          expect(text).not.toContain(apiKey);
          expect(text).not.toContain(JWT.slice(0, 40));
          expect(text).not.toContain('eyJhbGciOiJIUzI1NiJ9');
          for (const signature of signatures) if (signature) expect(text).not.toContain(signature);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('still shows the last 4 characters of the key, so users can tell keys apart', async () => {
    server.addKey('key-visible-WXYZ', 'secret-visible-0123456789');
    server.clearQueues();
    server.queue('GET /v2/positions', { echo: 401 });
    const client = new FuturesClient({
      baseUrl: server.url,
      apiKey: 'key-visible-WXYZ',
      apiSecret: 'secret-visible-0123456789',
    });
    const error = await client.account.positions().catch((e: unknown) => e);
    expect(String(error)).toContain('WXYZ');
    expect(String(error)).not.toContain('key-visible-WXYZ');
  });
});
