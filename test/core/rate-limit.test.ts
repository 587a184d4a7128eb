import { afterEach, describe, expect, it } from 'vitest';
import type { InternalCallOptions } from '../../src/_internal/transport.ts';
import {
  AbortError,
  type Clock,
  FuturesClient,
  type FuturesClientOptions,
  type FuturesError,
  RateLimitError,
} from '../../src/index.ts';
import { createExchange, type Exchange } from '../../src/testing/index.ts';
import { API_KEY, API_SECRET, recordingLogger } from '../helpers/client.ts';
import { FakeClock, ManualClock, SteppingClock, seededRandom } from '../helpers/clock.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(extra: Partial<FuturesClientOptions> & { clock?: FakeClock | ManualClock } = {}) {
  const clock = extra.clock ?? new FakeClock();
  const srv = await startTestServer({ keys: { [API_KEY]: API_SECRET }, now: () => clock.now() });
  server = srv;
  const client = new FuturesClient({ baseUrl: srv.url, apiKey: API_KEY, apiSecret: API_SECRET, clock, ...extra });
  return { clock, server: srv, client };
}

/** A simulated exchange on `clock`, and a client whose requests pass through `wrap` on their way to it. */
function exchange(
  clock: Clock,
  extra: Partial<FuturesClientOptions> = {},
  wrap: (next: typeof fetch) => typeof fetch = (next) => next,
) {
  const ex = createExchange({ seed: 1, volatility: 0, now: () => clock.now() });
  ex.setMarkPrice('BTCUSDT', '60000');
  const { accountId } = ex.createAccount({ balances: { USDT: '100000000' } });
  const creds = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  const client = new FuturesClient({ baseUrl: ex.baseUrl, ...creds, fetch: wrap(ex.fetch), clock, ...extra });
  return { ex, client };
}

/** Holds every request until `open()`: the server sees them arrive only then. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    open,
    wrap:
      (next: typeof fetch): typeof fetch =>
      async (input, init) =>
        opened.then(() => next(input, init)),
  };
}

const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' } as const;
const resting = (i: number) =>
  ({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: String(40000 + i) }) as const;
const flush = () => new Promise((resolve) => setTimeout(resolve, 10));
const creates = (ex: Exchange) => ex.requests.filter((r) => r.method === 'POST' && r.path === '/v2/orders');
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (error: unknown) => error as FuturesError,
  );

describe('client-side buckets', () => {
  it('the 301st order within a minute waits for the window instead of earning a 429', async () => {
    const clock = new ManualClock();
    const { server, client } = await setup({ clock });
    const t0 = clock.now();
    const calls = Array.from({ length: 301 }, () => client.orders.create(order));
    const first300 = await Promise.all(calls.slice(0, 300));
    expect(first300.every((r) => r.ok)).toBe(true);
    expect(server.requestsTo('POST /v2/orders')).toHaveLength(300);
    expect(clock.sleeps).toEqual([60_000]);

    clock.advance(59_999);
    await flush();
    expect(server.requestsTo('POST /v2/orders')).toHaveLength(300);

    clock.advance(1);
    await expect(calls[300]).resolves.toMatchObject({ ok: true });
    const arrivals = server.requestsTo('POST /v2/orders').map((r) => r.receivedAt);
    expect(arrivals.filter((t) => t === t0)).toHaveLength(300);
    expect(arrivals[300]).toBe(t0 + 60_000);
  });

  it('buckets are independent: a full orders bucket does not hold back reads', async () => {
    const clock = new ManualClock();
    const { client, server } = await setup({ clock });
    const t0 = clock.now();
    const orders = Array.from({ length: 301 }, () => client.orders.create(order));
    await client.account.positions();
    expect(server.requestsTo('GET /v2/positions')[0]?.receivedAt).toBe(t0);
    await Promise.all(orders.slice(0, 300));
    clock.advance(60_000);
    await orders[300];
  });

  it('rateLimit: false sends all 301 at once', async () => {
    const { clock, server, client } = await setup({ rateLimit: false });
    const t0 = clock.now();
    await Promise.all(Array.from({ length: 301 }, () => client.orders.create(order)));
    expect(server.requestsTo('POST /v2/orders').every((r) => r.receivedAt === t0)).toBe(true);
    expect(clock.sleeps).toEqual([]);
  });

  it('the pacing wait is the documented queue: it is not cut short by timeoutMs, only by the signal', async () => {
    const clock = new ManualClock();
    const { ex, client } = exchange(clock, { retry: false });
    await Promise.all(Array.from({ length: 300 }, (_, i) => client.orders.create(resting(i))));
    const late = client.orders.create(resting(300), { timeoutMs: 1_000 });
    const controller = new AbortController();
    const aborted = failure(client.orders.create(resting(301), { signal: controller.signal, timeoutMs: 1_000 }));
    await flush();
    controller.abort();
    expect(await aborted).toBeInstanceOf(AbortError);
    clock.advance(30_000);
    await flush();
    expect(creates(ex)).toHaveLength(300);
    clock.advance(30_000);
    await expect(late).resolves.toMatchObject({ ok: true });
    expect(creates(ex).map((r) => r.status)).toEqual(Array(301).fill(200));
  });
});

describe('slots are counted the way the server counts them', () => {
  it('a slot counts from when its response arrives: after 1 s of latency the 301st order goes 1 s after the window', async () => {
    const clock = new ManualClock();
    const held = gate();
    const { ex, client } = exchange(clock, { retry: false }, held.wrap);
    const t0 = clock.now();
    const calls = Array.from({ length: 301 }, (_, i) => client.orders.create(resting(i)));
    await flush();
    expect(ex.requests).toHaveLength(0); // 300 on the wire, the 301st queued
    clock.advance(1_000); // the 300 arrive (and are answered) 1 s after they were sent
    held.open();
    await Promise.all(calls.slice(0, 300));
    expect(creates(ex).every((r) => r.time === t0 + 1_000)).toBe(true);

    clock.advance(59_000); // one window after SENDING them: the server still counts all 300
    await flush();
    expect(creates(ex)).toHaveLength(300);
    clock.advance(1_000); // one window after they ARRIVED
    await expect(calls[300]).resolves.toMatchObject({ ok: true });
    expect(creates(ex)[300]).toMatchObject({ status: 200, time: t0 + 61_000 });
  });

  it('an attempt that timed out counts from when it ended: the server may have counted it until then', async () => {
    const clock = new ManualClock();
    let stalled = 0;
    const { ex, client } = exchange(clock, { retry: false }, (next) => async (input, init) => {
      if (stalled++ > 0) return next(input, init);
      // The first request never arrives; only the client's deadline ends it.
      const signal = init?.signal as AbortSignal;
      return new Promise<Response>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    });
    const t0 = clock.now();
    const first = failure(client.orders.create(resting(0), { timeoutMs: 50 }));
    await flush();
    clock.advance(1_000);
    expect(await first).toMatchObject({ name: 'TimeoutError', outcomeUnknown: true });
    await Promise.all(Array.from({ length: 299 }, (_, i) => client.orders.create(resting(i + 1))));
    const next = client.orders.create(resting(300));
    clock.advance(59_000); // a window after the timed-out attempt STARTED
    await flush();
    expect(creates(ex)).toHaveLength(299);
    clock.advance(1_000); // a window after it ENDED
    await expect(next).resolves.toMatchObject({ ok: true });
    expect(creates(ex).at(-1)).toMatchObject({ status: 200, time: t0 + 61_000 });
  });

  it('a 429 refunds its slot: the rejected order is retried after its Retry-After, not after the window', async () => {
    const clock = new ManualClock();
    const { ex, client } = exchange(clock);
    const t0 = clock.now();
    await Promise.all(Array.from({ length: 299 }, (_, i) => client.orders.create(resting(i))));
    // Someone else's traffic filled the window on the server: it answers 429 and does not count the request.
    ex.faults.add({ method: 'POST', path: '/v2/orders', status: 429, headers: { 'Retry-After': '1' } });
    const last = client.orders.create(resting(299));
    await flush();
    expect(creates(ex).at(-1)?.status).toBe(429);
    clock.advance(1_000);
    await expect(last).resolves.toMatchObject({ ok: true });
    expect(creates(ex).at(-1)).toMatchObject({ status: 200, time: t0 + 1_000 });
    // 300 counted by the server, 300 by the client: the next one waits for the window.
    const next = client.orders.create(resting(300));
    clock.advance(58_999);
    await flush();
    expect(creates(ex)).toHaveLength(301);
    clock.advance(1);
    await expect(next).resolves.toMatchObject({ ok: true });
    expect(creates(ex).filter((r) => r.status === 429)).toHaveLength(1);
  });

  it('a refused connection refunds its slot: the retry does not wait for the window', async () => {
    const clock = new ManualClock();
    const { ex, client } = exchange(clock);
    const t0 = clock.now();
    await Promise.all(Array.from({ length: 299 }, (_, i) => client.orders.create(resting(i))));
    ex.faults.add({ method: 'POST', path: '/v2/orders', refused: true });
    const last = client.orders.create(resting(299));
    await flush();
    expect(clock.sleeps).toEqual([375]); // the jittered backoff, not the 60 s window
    clock.advance(375);
    await expect(last).resolves.toMatchObject({ ok: true });
    expect(creates(ex).at(-1)).toMatchObject({ status: 200, time: t0 + 375 });
  });

  it('with latency jitter, 600 creates at once earn no server 429 and take one window (virtual time)', async () => {
    const clock = new SteppingClock();
    const random = seededRandom(7);
    const latency = () => 1 + Math.floor(random() * 250);
    const { ex, client } = exchange(clock, {}, (next) => async (input, init) => {
      await clock.sleep(latency()); // on the way to the server
      const response = await next(input, init);
      await clock.sleep(latency()); // on the way back
      return response;
    });
    const t0 = clock.now();
    const results = await clock.run(
      Promise.all(Array.from({ length: 600 }, (_, i) => client.orders.create(resting(i % 500)))),
    );
    const elapsed = clock.now() - t0;
    expect(results.every((r) => r.ok)).toBe(true);
    expect(creates(ex).map((r) => r.status)).toEqual(Array(600).fill(200));
    const arrivals = creates(ex).map((r) => r.time);
    for (let i = 300; i < 600; i++) expect(arrivals[i]! - arrivals[i - 300]!).toBeGreaterThanOrEqual(60_000);
    // Ideal: the second 300 start at 60 s. Latency (≤ 2 × 250 ms per request) is all that may be added.
    expect(elapsed).toBeGreaterThan(60_000);
    expect(elapsed).toBeLessThanOrEqual(61_000);
  });
});

describe('priorities inside a bucket', () => {
  it('trading calls go before reads, reads before background polls; FIFO within a class', async () => {
    const clock = new ManualClock();
    const { ex, client } = exchange(clock, { retry: false });
    const t0 = clock.now();
    const { order: target } = await client.orders.create(resting(0));
    // Fill the default bucket (1000/min) so that its slots leave the window one per millisecond from t0 + 60 s.
    for (let i = 0; i < 5; i++) {
      await client.account.balance();
      clock.advance(1);
    }
    await Promise.all(Array.from({ length: 995 }, () => client.account.balance()));
    const background: InternalCallOptions = { priority: 'background' };
    const calls = [
      client.account.positions({}, background),
      client.account.positions(),
      client.account.exposure(),
      client.orders.cancel(target.id),
      client.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 5 }),
    ];
    await flush();
    const before = ex.requests.length;
    clock.advance(60_000 - 5);
    for (let i = 0; i < 5; i++) {
      await flush();
      clock.advance(1);
    }
    await Promise.all(calls);
    expect(ex.requests.slice(before).map((r) => `${r.method} ${r.path} @${r.time - t0}`)).toEqual([
      `POST /v2/orders/${target.id}/cancel @60000`,
      'POST /v2/futures/leverage @60001',
      'GET /v2/positions @60002',
      'GET /v2/risk/exposure @60003',
      'GET /v2/positions @60004',
    ]);
  });
});

describe('a 429 pauses its bucket', () => {
  it.each([true, false])(
    'for other calls, which wait it out when it is shorter than their timeoutMs (rateLimit: %s)',
    async (rateLimit) => {
      const logger = recordingLogger();
      const { clock, server, client } = await setup({ retry: false, rateLimit, logger });
      const t0 = clock.now();
      server.queue('GET /v2/positions', {
        status: 429,
        headers: { 'Retry-After': '3' },
        body: { ok: false, error: 'Too many' },
      });
      await expect(client.account.positions()).rejects.toBeInstanceOf(RateLimitError);
      // A different call of the same (default) bucket waits out the pause; a public call does not.
      await client.market.health();
      expect(server.requestsTo('GET /health')[0]?.receivedAt).toBe(t0);
      await client.account.positions();
      expect(server.requestsTo('GET /v2/positions')[1]?.receivedAt).toBe(t0 + 3_000);
      expect(clock.sleeps).toEqual([3_000]);
      expect(logger.lines).toContainEqual({
        level: 'warn',
        message: 'GET /v2/positions: 429, the default bucket is paused for 3000 ms (retries off)',
      });
      expect(logger.lines).toContainEqual({
        level: 'info',
        message: 'GET /v2/positions: waits 3000 ms, the default bucket is paused by an earlier 429',
      });
    },
  );

  it('a call whose timeoutMs is shorter than the rest of the pause fails at once, with nothing sent', async () => {
    const logger = recordingLogger();
    const { clock, server, client } = await setup({ retry: false, logger });
    server.queue('GET /v2/positions', { status: 429, headers: { 'Retry-After': '30' }, body: { ok: false } });
    await expect(client.account.positions()).rejects.toBeInstanceOf(RateLimitError);
    clock.advance(10_000);
    const error = await failure(client.account.balance({}, { timeoutMs: 2_000 }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 20_000, status: 429, outcomeUnknown: false });
    expect(error?.message).toContain('Not sent: the default bucket is paused for another 20 s by an earlier 429');
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    expect(logger.lines).toContainEqual({
      level: 'warn',
      message:
        'GET /v2/futures/balance: Not sent: the default bucket is paused for another 20 s by an earlier 429 ' +
        "(Retry-After), longer than this call's timeoutMs (2000 ms)",
    });
  });

  it('calls already queued behind a full bucket fail at once when a longer pause begins', async () => {
    const clock = new ManualClock();
    const held = gate();
    const { ex, client } = exchange(clock, { retry: false }, held.wrap);
    const calls = Array.from({ length: 300 }, (_, i) => failure(client.orders.create(resting(i))));
    const queued = failure(client.orders.create(resting(300), { timeoutMs: 5_000 }));
    await flush();
    ex.faults.add({ method: 'POST', path: '/v2/orders', status: 429, headers: { 'Retry-After': '30' } });
    held.open();
    await Promise.all(calls);
    const error = await queued;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 30_000 });
    expect(creates(ex)).toHaveLength(300);
  });

  it('the signal aborts a wait for a pause with AbortError', async () => {
    const clock = new ManualClock();
    const { ex, client } = exchange(clock, { retry: false });
    ex.faults.add({ method: 'GET', path: '/v2/positions', status: 429, headers: { 'Retry-After': '5' } });
    await expect(client.account.positions()).rejects.toBeInstanceOf(RateLimitError);
    const controller = new AbortController();
    const waiting = failure(client.account.balance({}, { signal: controller.signal }));
    const behind = client.account.balance();
    await flush();
    controller.abort();
    expect(await waiting).toBeInstanceOf(AbortError);
    clock.advance(5_000);
    await expect(behind).resolves.toMatchObject({ ok: true });
    expect(ex.requests.map((r) => r.path)).toEqual(['/v2/positions', '/v2/futures/balance']);
  });

  it('a Retry-After beyond maxRetryAfterMs is not retried, and holds the bucket for at most maxPauseMs', async () => {
    const logger = recordingLogger();
    const { clock, server, client } = await setup({ retry: { maxRetryAfterMs: 5_000 }, logger });
    const t0 = clock.now();
    server.queue('GET /v2/positions', { status: 429, headers: { 'Retry-After': '3600' }, body: { ok: false } });
    const first = await failure(client.account.positions());
    // The error says what the server asked for; the bucket holds for the default cap of 5 minutes.
    expect(first).toMatchObject({ name: 'RateLimitError', retryAfterMs: 3_600_000 });
    expect(logger.lines).toContainEqual({
      level: 'warn',
      message:
        'GET /v2/positions: 429, the default bucket is paused for 300000 ms (Retry-After asked 3600000 ms: clamped ' +
        'to rateLimit.maxPauseMs) (over retry.maxRetryAfterMs 5000 ms: not retried)',
    });
    clock.advance(5_001);
    const held = await failure(client.account.positions());
    expect(held).toMatchObject({ name: 'RateLimitError', retryAfterMs: 294_999 });
    expect(server.requests).toHaveLength(1);
    // One that can wait is sent when the capped pause is over, not after the hour.
    await client.account.positions({}, { timeoutMs: 3_600_000 });
    expect(clock.sleeps).toEqual([294_999]);
    expect(server.requests[1]?.receivedAt).toBe(t0 + 300_000);
  });
});

describe('the kill switch gets through a paused bucket', () => {
  const tenYears = { status: 429, headers: { 'Retry-After': '315360000' }, body: { ok: false, error: 'Too many' } };

  it('after a 10-year Retry-After on a read, cancel and cancelAll reach the server at once; reads stay held', async () => {
    const logger = recordingLogger();
    const { clock, server, client } = await setup({ retry: false, logger, clock: new ManualClock() });
    const t0 = clock.now();
    server.queue('GET /v2/positions', tenYears);
    await expect(client.account.positions()).rejects.toBeInstanceOf(RateLimitError);
    expect(logger.lines).toContainEqual({
      level: 'warn',
      message: expect.stringContaining('paused for 300000 ms (Retry-After asked 315360000000 ms: clamped'),
    });
    await expect(client.account.balance()).rejects.toBeInstanceOf(RateLimitError);
    const cancel = failure(client.orders.cancel('123'));
    const all = failure(client.orders.cancelAll());
    // The test server knows no order 123: what matters is that the server, not the client, answered.
    expect(await cancel).toMatchObject({ status: 404 });
    expect(server.requestsTo('POST /v2/orders/123/cancel')[0]?.receivedAt).toBe(t0);
    // One probe at a time, one a second: cancelAll goes a second after the cancel.
    await flushReal();
    expect(server.requestsTo('DELETE /v2/orders/open')).toHaveLength(0);
    clock.advance(1_000);
    await all;
    expect(server.requestsTo('DELETE /v2/orders/open')[0]?.receivedAt).toBe(t0 + 1_000);
    expect(server.requestsTo('GET /v2/futures/balance')).toHaveLength(0);
    expect(logger.lines).toContainEqual({
      level: 'info',
      message: "POST /v2/orders/123/cancel: sent through the default bucket's pause (the kill switch is never held)",
    });
  });

  it('a cancel that arrives while other calls already wait out the pause is still sent at once', async () => {
    const clock = new ManualClock();
    const { ex, client } = exchange(clock, { retry: false });
    ex.faults.add({ method: 'GET', path: '/v2/positions', status: 429, headers: { 'Retry-After': '60' } });
    await expect(client.account.positions()).rejects.toBeInstanceOf(RateLimitError);
    const t0 = clock.now();
    // A read that can wait the pause is already queued, so the pacer is asleep until the pause ends.
    const waiting = client.account.balance({}, { timeoutMs: 120_000 });
    await flushReal();
    const cancel = failure(client.orders.cancel('ord_x'));
    await flushReal();
    expect(ex.requests.filter((r) => r.path.endsWith('/cancel')).map((r) => r.time - t0)).toEqual([0]);
    expect(await cancel).toMatchObject({ name: 'NotFoundError' });
    clock.advance(60_000);
    await waiting;
  });

  it('probes go one at a time per bucket, at most one per second, each settled by the server', async () => {
    const clock = new ManualClock();
    const { ex, client } = exchange(clock, { retry: false });
    ex.faults.add({ method: 'GET', path: '/v2/positions', status: 429, headers: { 'Retry-After': '60' } });
    await expect(client.account.positions()).rejects.toBeInstanceOf(RateLimitError);
    const t0 = clock.now();
    const cancels = Array.from({ length: 3 }, (_, i) => failure(client.orders.cancel(`ord_${i}`)));
    const cancelTimes = () => ex.requests.filter((r) => r.path.endsWith('/cancel')).map((r) => r.time - t0);
    await flushReal();
    expect(cancelTimes()).toEqual([0]);
    clock.advance(999);
    await flushReal();
    expect(cancelTimes()).toEqual([0]);
    clock.advance(1);
    await flushReal();
    clock.advance(1_000);
    await flushReal();
    expect(cancelTimes()).toEqual([0, 1_000, 2_000]);
    for (const error of await Promise.all(cancels)) expect(error).toMatchObject({ name: 'NotFoundError' });
  });

  it('cancelAll({ includeConditional }) gets through a long pause too: its listing is part of the kill switch', async () => {
    const clock = new ManualClock();
    const { ex, client } = exchange(clock, { retry: false });
    const stop = {
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'STOP_MARKET',
      quantity: '0.01',
      stopPrice: '50000',
    } as const;
    const conditional = client.orders.create(stop);
    await flushReal();
    await conditional;
    ex.faults.add({ method: 'GET', path: '/v2/positions', status: 429, headers: { 'Retry-After': '120' } });
    await expect(client.account.positions()).rejects.toBeInstanceOf(RateLimitError);
    const t0 = clock.now();
    const all = client.orders.cancelAll({ includeConditional: true });
    for (let i = 0; i < 4; i++) {
      await flushReal();
      clock.advance(1_000);
    }
    const result = await all;
    expect(result.canceled).toBeGreaterThanOrEqual(1);
    const after = ex.requests.slice(ex.requests.findIndex((r) => r.path === '/v2/positions') + 1);
    const times = after.map((r) => `${r.method} ${r.path} +${r.time - t0}`);
    expect(times[0]).toBe('GET /v2/orders +0');
    expect(times.every((line) => Number(line.split('+')[1]) < 5_000)).toBe(true);
  });

  it('a probe answered 429 is retried no sooner than a second later, and is never held for the whole pause', async () => {
    const clock = new FakeClock();
    const srv = await startTestServer({ keys: { [API_KEY]: API_SECRET }, now: () => clock.now() });
    server = srv;
    const client = new FuturesClient({ baseUrl: srv.url, apiKey: API_KEY, apiSecret: API_SECRET, clock });
    const t0 = clock.now();
    srv.queue('POST /v2/orders/9/cancel', { status: 429, headers: { 'Retry-After': '30' }, body: { ok: false } });
    srv.queue('POST /v2/orders/9/cancel', { status: 200, body: { ok: true, order: { id: '9' } } });
    await client.orders.cancel('9').catch(() => undefined);
    const times = srv.requestsTo('POST /v2/orders/9/cancel').map((r) => r.receivedAt - t0);
    expect(times).toHaveLength(2);
    expect(times[1]).toBeGreaterThanOrEqual(1_000);
    expect(times[1]).toBeLessThan(30_000);
  });
});

describe('the end of a pause releases waiting calls one by one', () => {
  it('10 creates that meet a 429 without Retry-After are all placed: released apart, not together', async () => {
    const clock = new ManualClock();
    // A venue that answers 429 (no Retry-After) to a create arriving within 100 ms of the one before.
    let lastArrival = Number.NEGATIVE_INFINITY;
    const { ex, client } = exchange(clock, {}, (next) => async (input, init) => {
      const now = clock.now();
      const tooSoon = now - lastArrival < 100;
      lastArrival = now;
      if (!tooSoon) return next(input, init);
      const body = JSON.stringify({ ok: false, error: 'Too many requests' });
      return new Response(body, { status: 429, headers: { 'Content-Type': 'application/json' } });
    });
    const calls = Array.from({ length: 10 }, (_, i) => failure(client.orders.create(resting(i))));
    for (let i = 0; i < 60; i++) {
      clock.advance(100);
      await flushReal();
    }
    expect(await Promise.all(calls)).toEqual(Array.from({ length: 10 }, () => undefined));
    expect(creates(ex)).toHaveLength(10);
  });
});

const flushReal = () => new Promise((resolve) => setTimeout(resolve, 20));
