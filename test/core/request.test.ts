import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AbortError, ApiError, ConfigurationError, FuturesClient, TimeoutError } from '../../src/index.ts';
import { API_KEY, API_SECRET } from '../helpers/client.ts';
import { hmacHex, signingPayload, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;

beforeEach(async () => {
  server = await startTestServer({ keys: { [API_KEY]: API_SECRET } });
});
afterEach(async () => {
  await server.close();
});

const client = (extra: Partial<ConstructorParameters<typeof FuturesClient>[0]> = {}) =>
  new FuturesClient({ baseUrl: server.url, apiKey: API_KEY, apiSecret: API_SECRET, ...extra });

describe('base URL', () => {
  it('accepts a trailing slash without doubling it', async () => {
    await client({ baseUrl: `${server.url}/` }).market.health();
    expect(server.requests.map((r) => r.path)).toEqual(['/health']);
  });

  it('keeps a path prefix in front of /v2', async () => {
    await expect(client({ baseUrl: `${server.url}/gateway//` }).market.symbols()).rejects.toBeInstanceOf(ApiError);
    expect(server.requests.map((r) => r.path)).toEqual(['/gateway/v2/symbols']);
  });

  it.each(['/v2', '/v2/'])('rejects a base URL ending in %s (the SDK adds it)', (suffix) => {
    expect(() => client({ baseUrl: `${server.url}${suffix}` })).toThrow(ConfigurationError);
  });
});

describe('what goes on the wire', () => {
  it('sends X-API-KEY only on signed calls, and public calls carry no timestamp or signature', async () => {
    const c = client();
    await c.market.symbols();
    await c.account.positions();
    const [pub, signed] = server.requests;
    expect(pub?.headers['x-api-key']).toBeUndefined();
    expect(pub?.rawQuery).toBe('');
    expect(signed?.headers['x-api-key']).toBe(API_KEY);
  });

  it('appends timestamp then signature after the sorted user params, and the signature verifies', async () => {
    await client().account.positions({ status: 'CLOSED' });
    const [req] = server.requests;
    expect(req?.rawQuery).toMatch(/^status=CLOSED&timestamp=\d{13}&signature=[0-9a-f]{64}$/);
    expect(req?.signature).toBe(hmacHex(API_SECRET, signingPayload(req!.rawQuery)));
    expect(Math.abs(Number(req?.timestamp) - Date.now())).toBeLessThan(5_000);
  });

  it('sends a JSON body with Content-Type: application/json and a UUID v4 clientOrderId', async () => {
    const result = await client().orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.01',
      price: '60000',
    });
    const [req] = server.requests;
    expect(req?.method).toBe('POST');
    expect(req?.headers['content-type']).toBe('application/json');
    const body = JSON.parse(req!.body) as Record<string, unknown>;
    expect(body).toMatchObject({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '60000' });
    expect(body['clientOrderId']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(result.order.clientOrderId).toBe(body['clientOrderId']);
    expect(req?.rawQuery).toMatch(/^timestamp=\d+&signature=[0-9a-f]{64}$/);
  });

  it('resolves the documented body, ok: true included', async () => {
    await expect(client().market.health()).resolves.toEqual({ ok: true, service: 'test-server' });
  });
});

describe('timeouts and aborts', () => {
  it('rejects with TimeoutError when an attempt gets no answer within timeoutMs', async () => {
    server.queue('GET /v2/positions', { delayMs: 3_000 });
    const started = Date.now();
    const error = await client({ timeoutMs: 100, retry: false })
      .account.positions()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(100);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('times out a response whose body stalls after the headers', async () => {
    server.queue('GET /v2/positions', { stallBodyMs: 3_000 });
    const started = Date.now();
    await expect(client({ retry: false }).account.positions(undefined, { timeoutMs: 150 })).rejects.toBeInstanceOf(
      TimeoutError,
    );
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('the deadline covers signing too: a slow signer leaves less time for the wire', async () => {
    server.queue('GET /v2/positions', { delayMs: 5_000 });
    const slowSigner = async (payload: string) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      return hmacHex(API_SECRET, payload);
    };
    const started = Date.now();
    const error = await client({ apiSecret: undefined, signer: slowSigner, retry: false })
      .account.positions(undefined, { timeoutMs: 1_000 })
      .catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(1); // sent after signing, then timed out on the wire
    // One 1 s deadline for the attempt, not 1 s for signing and another for the request (1.6 s).
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(1_450);
  });

  it('a fetch replacement whose body is not a web stream (node-fetch 2) works, and its text() is raced too', async () => {
    let stall = false;
    // What node-fetch 2 resolves: a Response-like object whose body is a Node stream.
    const nodeFetchLike = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const real = await fetch(input, init);
      return {
        status: real.status,
        ok: real.ok,
        statusText: real.statusText,
        headers: real.headers,
        type: 'default',
        redirected: false,
        url: real.url,
        body: Readable.from([]),
        text: () => (stall ? new Promise<string>(() => {}) : real.text()),
      };
    }) as unknown as typeof fetch;
    const c = client({ fetch: nodeFetchLike, retry: false });
    await expect(c.account.positions()).resolves.toMatchObject({ ok: true });
    stall = true;
    const started = Date.now();
    await expect(c.account.positions(undefined, { timeoutMs: 300 })).rejects.toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('the per-call timeoutMs overrides the client default', async () => {
    server.queue('GET /health', { delayMs: 300, reply: { status: 200, body: { ok: true, service: 'slow' } } });
    await expect(client({ timeoutMs: 50, retry: false }).market.health({ timeoutMs: 2_000 })).resolves.toMatchObject({
      service: 'slow',
    });
  });

  it('rejects with AbortError when the signal fires mid-request', async () => {
    server.queue('GET /v2/positions', { delayMs: 3_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await expect(client().account.positions(undefined, { signal: controller.signal })).rejects.toBeInstanceOf(
      AbortError,
    );
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(server.requests).toHaveLength(1);
  });

  it('an already-aborted signal rejects before any network', async () => {
    await expect(client().account.positions(undefined, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      AbortError,
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('signatures and timestamps', () => {
  it('100 identical calls started together carry 100 distinct signatures and strictly increasing timestamps', async () => {
    const payloads: string[] = [];
    const c = client({
      apiSecret: undefined,
      signer: (payload) => {
        payloads.push(payload);
        return hmacHex(API_SECRET, payload);
      },
    });
    const results = await Promise.all(Array.from({ length: 100 }, () => c.account.positions()));
    expect(results).toHaveLength(100);
    expect(new Set(server.requests.map((r) => r.signature)).size).toBe(100);
    const stamps = payloads.map((p) => Number(new URLSearchParams(p).get('timestamp')));
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]).toBeGreaterThan(stamps[i - 1]!);
  });

  it.each([
    ['ahead of', 30_000],
    ['behind', -30_000],
  ])('a client whose clock is 30 s %s the server succeeds after one re-sync retry', async (_, offset) => {
    server.clockOffsetMs = offset;
    const c = client();
    await expect(c.account.positions()).resolves.toMatchObject({ ok: true });
    const reqs = server.requestsTo('GET /v2/positions');
    expect(reqs).toHaveLength(2);
    expect(reqs[0]?.signature).not.toBe(reqs[1]?.signature);
    expect(Math.abs(Number(reqs[1]?.timestamp) - Date.now() - offset)).toBeLessThan(2_000);
    // The offset is learned: the next call needs no re-sync.
    await c.account.positions();
    expect(server.requestsTo('GET /v2/positions')).toHaveLength(3);
  });

  it('learns the offset from the Date header of any response, public ones included', async () => {
    server.clockOffsetMs = 45_000;
    const c = client();
    await c.market.health();
    await c.account.positions();
    expect(server.requestsTo('GET /v2/positions')).toHaveLength(1);
  });

  it('re-syncs only once per call: a server whose clock keeps jumping gets the 401', async () => {
    server.clockOffsetMs = 30_000;
    const c = client();
    server.queue('GET /v2/positions', { status: 401, body: { ok: false, error: 'Invalid or expired timestamp' } });
    server.queue('GET /v2/positions', { status: 401, body: { ok: false, error: 'Invalid or expired timestamp' } });
    const error = await c.account.positions().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, error: 'Invalid or expired timestamp' });
    expect(server.requests).toHaveLength(2);
  });
});

describe('signer option', () => {
  it('receives the exact payload the server verifies and its hex is appended as the signature', async () => {
    const seen: string[] = [];
    const c = new FuturesClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      signer: async (payload) => {
        seen.push(payload);
        await new Promise((r) => setTimeout(r, 1));
        return hmacHex(API_SECRET, payload);
      },
    });
    await c.account.positions({ status: 'OPEN' });
    const [req] = server.requests;
    expect(seen).toEqual([signingPayload(req!.rawQuery)]);
    expect(seen[0]).toMatch(/^status=OPEN&timestamp=\d+$/);
    expect(req?.signature).toBe(hmacHex(API_SECRET, seen[0]!));
  });

  it('a wrong signer is caught by the server as Invalid signature, not retried', async () => {
    const c = new FuturesClient({ baseUrl: server.url, apiKey: API_KEY, signer: () => 'ab'.repeat(32) });
    await expect(c.account.positions()).rejects.toMatchObject({ status: 401, error: 'Invalid signature' });
    expect(server.requests).toHaveLength(1);
  });
});

describe('reading a body that arrives in pieces', () => {
  it('keeps a multi-byte character split across network chunks', async () => {
    const { createServer } = await import('node:http');
    const body = Buffer.from(JSON.stringify({ ok: true, service: 'prix €—ü 😀 ok' }));
    const euro = body.indexOf(Buffer.from('€'));
    // Three writes, a moment apart, cut inside '€' (3 bytes) and inside the emoji (4 bytes).
    const emoji = body.indexOf(Buffer.from('😀'));
    const pieces = [body.subarray(0, euro + 1), body.subarray(euro + 1, emoji + 2), body.subarray(emoji + 2)];
    const raw = createServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (const piece of pieces) {
        res.write(piece);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      res.end();
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const { port } = raw.address() as { port: number };
    try {
      const c = new FuturesClient({ baseUrl: `http://127.0.0.1:${port}` });
      await expect(c.market.health()).resolves.toEqual({ ok: true, service: 'prix €—ü 😀 ok' });
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });
});
