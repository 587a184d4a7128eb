import { afterEach, describe, expect, it } from 'vitest';
import { FuturesClient, type FuturesClientOptions, RateLimitError } from '../../src/index.ts';
import { API_KEY, API_SECRET } from '../helpers/client.ts';
import { FakeClock, ManualClock } from '../helpers/clock.ts';
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

const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' } as const;

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
    await new Promise((r) => setTimeout(r, 20));
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

  it.each([true, false])("a 429's Retry-After pauses the bucket for other calls (rateLimit: %s)", async (rateLimit) => {
    const { clock, server, client } = await setup({ retry: false, rateLimit });
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
  });

  it('the pause is capped at maxRetryAfterMs so other calls are not stalled for an hour', async () => {
    const { clock, server, client } = await setup({ retry: { limit: 0, maxRetryAfterMs: 5_000 } });
    server.queue('GET /v2/positions', {
      status: 429,
      headers: { 'Retry-After': '3600' },
      body: { ok: false, error: 'x' },
    });
    await expect(client.account.positions()).rejects.toBeInstanceOf(RateLimitError);
    await client.account.positions();
    expect(clock.sleeps).toEqual([5_000]);
  });
});
