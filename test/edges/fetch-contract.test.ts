import { ConfigurationError, ConnectionError, FuturesClient, RateLimitError } from 'futures-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { API_KEY, API_SECRET, recordingLogger } from '../helpers/client.ts';
import { ManualClock } from '../helpers/clock.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve() {
  server = await startTestServer({ keys: { [API_KEY]: API_SECRET } });
  return server;
}

describe('how the SDK calls fetch', () => {
  it('as fetch(url: string, init), with fetchOptions merged under its own fields', async () => {
    const srv = await serve();
    const seen: Array<{ input: unknown; init: RequestInit & { dispatcher?: unknown } }> = [];
    const dispatcher = { marker: 'a proxy agent' };
    const client = new FuturesClient({
      baseUrl: srv.url,
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      fetchOptions: { dispatcher, headers: { 'User-Agent': 'bot/1', Accept: 'text/html' }, keepalive: true },
      fetch: (input, init) => {
        seen.push({ input, init: init as RequestInit & { dispatcher?: unknown } });
        const { dispatcher: _, ...rest } = init as RequestInit & { dispatcher?: unknown };
        return fetch(input, rest);
      },
    });
    await client.account.positions();
    const [{ input, init }] = seen as [(typeof seen)[0]];
    expect(typeof input).toBe('string');
    expect(init.dispatcher).toBe(dispatcher);
    expect(init.keepalive).toBe(true);
    expect(init.redirect).toBe('manual');
    expect(init.method).toBe('GET');
    const headers = new Headers(init.headers);
    expect(headers.get('user-agent')).toBe('bot/1');
    // The SDK's own headers win.
    expect(headers.get('accept')).toBe('application/json');
    expect(srv.requests[0]?.headers['user-agent']).toBe('bot/1');
  });

  it('fetchOptions that would change what the SDK sends are a ConfigurationError', () => {
    for (const field of ['method', 'body', 'signal', 'redirect']) {
      expect(() => new FuturesClient({ baseUrl: 'https://api.example.com', fetchOptions: { [field]: 'x' } })).toThrow(
        ConfigurationError,
      );
    }
    expect(() => new FuturesClient({ baseUrl: 'https://api.example.com', fetchOptions: 'x' as never })).toThrow(
      /fetchOptions must be an object/,
    );
  });

  it.each([
    [
      'throws synchronously',
      (() => {
        throw new TypeError('Invalid URL');
      }) as typeof fetch,
    ],
    [
      'is an async function that throws before awaiting',
      (async () => {
        throw new TypeError('fetch is not supported here');
      }) as typeof fetch,
    ],
  ])('a fetch that %s: nothing was sent, even a cancel is retried, never outcomeUnknown', async (_, broken) => {
    const logger = recordingLogger();
    const client = new FuturesClient({
      baseUrl: 'https://api.example.com',
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      fetch: broken,
      logger,
      retry: { limit: 2, baseDelayMs: 1, maxDelayMs: 2 },
    });
    const error = await client.orders.cancel('ord_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ neverSent: true, outcomeUnknown: false });
    expect(String(error)).toMatch(/nothing was sent/);
    expect(logger.lines.filter((l) => / retry \d\/2 /.test(l.message))).toHaveLength(2);
  });
});

describe('absurd Retry-After values', () => {
  const forms: Array<[string, string, number]> = [
    ['10 years', '315360000', 300_000],
    ['20 digits', '99999999999999999999', 300_000],
    ['sent twice, one of them absurd', '99999999999999999999, 1.5', 300_000],
    ['a past HTTP date', 'Wed, 21 Oct 2015 07:28:00 GMT', 1_000],
    ['negative', '-5', 1_000],
    ['not a number', 'soon', 1_000],
    ['empty', '', 1_000],
  ];
  it.each(forms)(
    '%s: the bucket pauses at most maxPauseMs (or the 1 s default), logged, the call ends 429',
    async (_, value, pauseMs) => {
      const clock = new ManualClock();
      const srv = await startTestServer({ keys: { [API_KEY]: API_SECRET }, now: () => clock.now() });
      server = srv;
      const logger = recordingLogger();
      const client = new FuturesClient({
        baseUrl: srv.url,
        apiKey: API_KEY,
        apiSecret: API_SECRET,
        clock,
        logger,
        retry: false,
      });
      srv.queue('GET /v2/positions', { status: 429, headers: { 'Retry-After': value }, body: { ok: false } });
      await expect(client.account.positions()).rejects.toBeInstanceOf(RateLimitError);
      expect(logger.lines.some((l) => l.level === 'warn' && /Retry-After/.test(l.message))).toBe(true);
      // A read that can wait goes exactly when the (clamped) pause ends.
      const t0 = clock.now();
      const waiting = client.account.positions({}, { timeoutMs: 600_000 });
      await new Promise((resolve) => setTimeout(resolve, 20));
      clock.advance(pauseMs - 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(srv.requests).toHaveLength(1);
      clock.advance(1);
      await waiting;
      expect(srv.requests[1]?.receivedAt).toBe(t0 + pauseMs);
    },
  );
});
