import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import type { EndpointCall } from '../../src/_internal/transport.ts';
import {
  AbortError,
  BadRequestError,
  ConnectionError,
  FuturesClient,
  type FuturesClientOptions,
  RateLimitError,
  ServerError,
  TimeoutError,
} from '../../src/index.ts';
import { API_KEY, API_SECRET, makeTransport } from '../helpers/client.ts';
import { FakeClock, ManualClock } from '../helpers/clock.ts';
import { rejectAfterSending } from '../helpers/fetch-doubles.ts';
import { hmacHex, signingPayload, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server and a client sharing one fake clock, so waits are recorded instead of slept. */
async function setup(extra: Partial<FuturesClientOptions> = {}) {
  const clock = new FakeClock();
  const srv = await startTestServer({ keys: { [API_KEY]: API_SECRET }, now: () => clock.now() });
  server = srv;
  const client = new FuturesClient({ baseUrl: srv.url, apiKey: API_KEY, apiSecret: API_SECRET, clock, ...extra });
  return { clock, server: srv, client };
}

const positionsRoute = 'GET /v2/positions';

describe('429', () => {
  it('waits exactly Retry-After seconds', async () => {
    const { clock, server, client } = await setup();
    server.queue(positionsRoute, {
      status: 429,
      headers: { 'Retry-After': '2' },
      body: { ok: false, error: 'Too many' },
    });
    await expect(client.account.positions()).resolves.toMatchObject({ ok: true });
    expect(clock.sleeps).toEqual([2_000]);
    expect(server.requests).toHaveLength(2);
  });

  it('honours an HTTP-date Retry-After, measured on the server clock', async () => {
    const { clock, server, client } = await setup();
    const at = new Date(clock.now() + 5_000).toUTCString();
    server.queue(positionsRoute, {
      status: 429,
      headers: { 'Retry-After': at },
      body: { ok: false, error: 'Too many' },
    });
    await client.account.positions();
    expect(clock.sleeps).toEqual([5_000]);
    expect(server.requests[1]!.receivedAt - server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(5_000);
  });

  it('without Retry-After backs off 1 s, 2 s, 4 s, 8 s, then returns the last error', async () => {
    const { clock, server, client } = await setup();
    for (let i = 0; i < 5; i++)
      server.queue(positionsRoute, { status: 429, body: { ok: false, error: `Too many ${i}` } });
    const error = await client.account.positions().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).error).toBe('Too many 4');
    expect(clock.sleeps).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(server.requests).toHaveLength(5);
  });

  it('a Retry-After beyond maxRetryAfterMs is returned at once with retryAfterMs', async () => {
    const { clock, server, client } = await setup({ retry: { maxRetryAfterMs: 10_000 } });
    server.queue(positionsRoute, {
      status: 429,
      headers: { 'Retry-After': '3600' },
      body: { ok: false, error: 'Slow down' },
    });
    const error = await client.account.positions().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(3_600_000);
    expect(clock.sleeps).toEqual([]);
  });
});

describe('5xx and network errors', () => {
  it('backs off exponentially with jitter (50–100 % of 500 ms, 1 s, 2 s ...)', async () => {
    const { clock, server, client } = await setup();
    server.queue(positionsRoute, { status: 503 }, { status: 500 }, { status: 502, raw: '<h1>bad gateway</h1>' });
    clock.randomValue = 0.5;
    await client.account.positions();
    expect(clock.sleeps).toEqual([375, 750, 1_500]);
  });

  it('jitter spans half to the full step', async () => {
    const low = await setup();
    low.server.queue(positionsRoute, { status: 503 }, { status: 503 });
    low.clock.randomValue = 0;
    await low.client.account.positions();
    expect(low.clock.sleeps).toEqual([250, 500]);
    await low.server.close();

    const high = await setup();
    high.server.queue(positionsRoute, { status: 503 }, { status: 503 });
    high.clock.randomValue = 0.999999;
    await high.client.account.positions();
    expect(high.clock.sleeps).toEqual([500, 1_000]);
  });

  it('every attempt is signed afresh: new timestamp, new valid signature', async () => {
    const { server, client } = await setup();
    server.queue(positionsRoute, { status: 503 }, { reset: true });
    await client.account.positions();
    const reqs = server.requests;
    expect(reqs).toHaveLength(3);
    expect(new Set(reqs.map((r) => r.signature)).size).toBe(3);
    expect(new Set(reqs.map((r) => r.timestamp)).size).toBe(3);
    for (const r of reqs) expect(r.signature).toBe(hmacHex(API_SECRET, signingPayload(r.rawQuery)));
  });

  it('a connection reset on a GET is retried and, when it persists, ends as ConnectionError', async () => {
    const { server, client } = await setup({ retry: { limit: 2 } });
    server.queue(positionsRoute, { reset: true }, { reset: true }, { reset: true });
    await expect(client.account.positions()).rejects.toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(3);
  });

  it('stops after retry.limit and rejects with the LAST error', async () => {
    const { server, client } = await setup({ retry: { limit: 2 } });
    server.queue(
      positionsRoute,
      { status: 503 },
      { status: 500 },
      { status: 504, body: { ok: false, error: 'third' } },
    );
    const error = await client.account.positions().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(504);
    expect((error as ServerError).error).toBe('third');
    expect(server.requests).toHaveLength(3);
  });

  it('retry: false makes one attempt only', async () => {
    const { clock, server, client } = await setup({ retry: false });
    server.queue(positionsRoute, { status: 503 });
    await expect(client.account.positions()).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('an abort during the backoff wait rejects with AbortError and sends nothing more', async () => {
    const clock = new ManualClock();
    const srv = await startTestServer({ keys: { [API_KEY]: API_SECRET }, now: () => clock.now() });
    server = srv;
    const client = new FuturesClient({ baseUrl: srv.url, apiKey: API_KEY, apiSecret: API_SECRET, clock });
    srv.queue(positionsRoute, { status: 503 });
    const controller = new AbortController();
    const call = client.account.positions(undefined, { signal: controller.signal });
    await vi.waitFor(() => expect(clock.pending).toBe(1));
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(AbortError);
    clock.advance(60_000);
    expect(srv.requests).toHaveLength(1);
  });

  it('a timeout on a GET is retried', async () => {
    const { server, client } = await setup({ timeoutMs: 80 });
    server.queue(positionsRoute, { delayMs: 2_000 });
    await expect(client.account.positions()).resolves.toMatchObject({ ok: true });
    expect(server.requests).toHaveLength(2);
  });
});

describe('4xx', () => {
  it.each([400, 403, 404, 409])('%i is never retried', async (status) => {
    const { clock, server, client } = await setup();
    server.queue(positionsRoute, { status, body: { ok: false, error: 'nope' } });
    await expect(client.account.positions()).rejects.toMatchObject({ status });
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('400 on order creation is not retried', async () => {
    const { server, client } = await setup();
    server.queue('POST /v2/orders', { status: 400, body: { ok: false, error: 'Insufficient balance' } });
    await expect(
      client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' }),
    ).rejects.toBeInstanceOf(BadRequestError);
    expect(server.requests).toHaveLength(1);
  });
});

describe('order creation', () => {
  it('is retried with the SAME clientOrderId and a NEW signature, surfacing idempotent: true', async () => {
    const { server, client } = await setup();
    // The first attempt places the order but its answer is lost; the retry gets the idempotent replay.
    server.queue('POST /v2/orders', { processThenReset: true });
    const result = await client.orders.create({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.2' });
    const reqs = server.requestsTo('POST /v2/orders');
    expect(reqs).toHaveLength(2);
    const ids = reqs.map((r) => (JSON.parse(r.body) as { clientOrderId: string }).clientOrderId);
    expect(ids[0]).toBe(ids[1]);
    expect(reqs[0]?.signature).not.toBe(reqs[1]?.signature);
    expect(result.idempotent).toBe(true);
    expect(result.order).toMatchObject({ id: 'ord-1', clientOrderId: ids[0] });
  });

  it('keeps a caller-given clientOrderId across retries', async () => {
    const { server, client } = await setup();
    server.queue('POST /v2/orders', { status: 503 });
    await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '1',
      clientOrderId: 'mine-1',
    });
    const ids = server
      .requestsTo('POST /v2/orders')
      .map((r) => (JSON.parse(r.body) as { clientOrderId: string }).clientOrderId);
    expect(ids).toEqual(['mine-1', 'mine-1']);
  });
});

describe("safety: 'at-most-once' (cancel, close-position)", () => {
  const onceCall = (): EndpointCall<unknown> => ({
    method: 'POST',
    path: '/v2/orders/ord-1/cancel',
    signed: true,
    bucket: 'default',
    safety: 'at-most-once',
    schema: z.looseObject({ ok: z.literal(true) }),
  });
  const cancelRoute = 'POST /v2/orders/ord-1/cancel';
  const okReply = { status: 200, body: { ok: true } };

  async function onceSetup(fetchImpl?: typeof fetch) {
    const clock = new FakeClock();
    const srv = await startTestServer({ keys: { [API_KEY]: API_SECRET }, now: () => clock.now() });
    server = srv;
    const transport = makeTransport({
      baseUrl: srv.url,
      clock,
      timeoutMs: 100,
      ...(fetchImpl ? { fetch: fetchImpl } : {}),
    });
    return { clock, server: srv, transport };
  }

  it.each([
    ['503', { status: 503 }, ServerError],
    ['a connection reset', { reset: true as const }, ConnectionError],
    ['a timeout', { delayMs: 2_000 }, TimeoutError],
  ])('is not retried after %s', async (_, reply, errorClass) => {
    const { server, transport } = await onceSetup();
    server.queue(cancelRoute, reply, okReply);
    await expect(transport.call(onceCall())).rejects.toBeInstanceOf(errorClass);
    expect(server.requests).toHaveLength(1);
  });

  it('is retried after a 429', async () => {
    const { server, transport, clock } = await onceSetup();
    server.queue(cancelRoute, { status: 429, headers: { 'Retry-After': '1' } }, okReply);
    await expect(transport.call(onceCall())).resolves.toEqual({ ok: true });
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([1_000]);
  });

  it('is retried after connection refused (the request never left)', async () => {
    let refusals = 1;
    const refusingFetch: typeof fetch = (input, init) => {
      if (refusals-- > 0) {
        const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1'), { code: 'ECONNREFUSED' });
        return rejectAfterSending(new TypeError('fetch failed', { cause }));
      }
      return fetch(input, init);
    };
    const { server, transport } = await onceSetup(refusingFetch);
    server.queue(cancelRoute, okReply);
    await expect(transport.call(onceCall())).resolves.toEqual({ ok: true });
    expect(server.requests).toHaveLength(1);
  });

  it('a refused connection that persists ends as ConnectionError with refused: true', async () => {
    const refusingFetch: typeof fetch = () => {
      const cause = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      return rejectAfterSending(new TypeError('fetch failed', { cause }));
    };
    const { transport, clock } = await onceSetup(refusingFetch);
    const error = await transport.call(onceCall()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).refused).toBe(true);
    expect(clock.sleeps).toHaveLength(4);
  });
});
