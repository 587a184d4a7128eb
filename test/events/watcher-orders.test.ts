/**
 * The watcher with many working orders: what one poll costs on the wire, that it never holds up the user's own
 * calls, and that it still reports every status change of this client's orders.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/_internal/clock.ts';
import { FuturesClient, type FuturesClientOptions } from '../../src/client.ts';
import type { AccountWatcher, OrderChange } from '../../src/events/watcher.ts';
import { hmacSha256Hex } from '../../src/signer.ts';
import { createExchange, type Exchange } from '../../src/testing/index.ts';
import { FakeClock, ManualClock, SteppingClock } from '../helpers/clock.ts';

const watchers: AccountWatcher[] = [];
afterEach(() => {
  for (const w of watchers.splice(0)) w.stop();
});

const WATCHER_PATHS = ['/v2/positions', '/v2/futures/myTrades', '/v2/futures/open-orders', '/v2/orders'];

function rig(clock: Clock, extra: Partial<FuturesClientOptions> = {}) {
  const ex = createExchange({ seed: 1, volatility: 0, now: () => clock.now() });
  ex.setMarkPrice('BTCUSDT', '60000');
  const { accountId } = ex.createAccount({ balances: { USDT: '100000000' } });
  const creds = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  // Signed synchronously: a SteppingClock moves time whenever no JavaScript is runnable, and an apiSecret client
  // signs with Web Crypto, on a thread the clock cannot see (docs/testing.md, "Virtual clocks").
  const signer = (payload: string) => hmacSha256Hex(creds.apiSecret, payload);
  const options = { baseUrl: ex.baseUrl, apiKey: creds.apiKey, signer, fetch: ex.fetch, clock, retry: false as const };
  const client = new FuturesClient({ ...options, ...extra });
  return { ex, client, accountId, creds };
}

/** `count` resting LIMIT buys placed by `client` (so the watcher follows them), 5 per batch; oldest first. */
async function placeResting(client: FuturesClient, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 5) {
    const items = Array.from({ length: Math.min(5, count - i) }, (_, j) => ({
      symbol: 'BTCUSDT',
      side: 'BUY' as const,
      type: 'LIMIT' as const,
      quantity: '0.001',
      price: String(50_000 + ((i + j) % 500)),
    }));
    const { results } = await client.orders.createBatch(items);
    for (const result of results) if (result.success) ids.push(result.orderId);
  }
  return ids;
}

/** The watcher's requests, one group per poll (a poll starts with GET /v2/positions). */
function pollsOnTheWire(ex: Exchange, from = 0) {
  const groups: string[][] = [];
  for (const request of ex.requests.slice(from)) {
    if (request.method !== 'GET' || !WATCHER_PATHS.some((p) => request.path.startsWith(p))) continue;
    if (request.path === '/v2/positions') groups.push([]);
    groups.at(-1)?.push(request.path.startsWith('/v2/orders/') ? '/v2/orders/:id' : request.path);
  }
  return groups;
}

function manualWatcher(client: FuturesClient) {
  const watcher = client.watch({ symbols: ['BTCUSDT'], autoStart: false });
  watchers.push(watcher);
  const orders: OrderChange[] = [];
  watcher.on('order_update', (change) => orders.push(change));
  return { watcher, orders };
}

describe('AccountWatcher with 300 working orders', () => {
  it('one poll costs a constant number of requests, and a cancel issued while watching arrives within 1 s', async () => {
    const clock = new SteppingClock();
    const { ex, client } = rig(clock);
    const ids = await clock.run(placeResting(client, 300));
    expect(ids).toHaveLength(300);

    const start = ex.requests.length;
    // The watcher's timers run on the client's SteppingClock, so minutes of polling take milliseconds.
    const watcher = client.watch({ symbols: ['BTCUSDT'], intervalMs: 1_000 });
    watchers.push(watcher);
    const cancels: Array<{ issuedAt: number; id: string }> = [];
    await clock.run(
      (async () => {
        // Cancel while the watcher runs, at several phases of its polling, over two virtual minutes.
        for (let i = 0; i < 12; i++) {
          await clock.sleep(10_000 + i * 37);
          const id = ids[i * 25]!;
          cancels.push({ issuedAt: clock.now(), id });
          await client.orders.cancel(id);
        }
      })(),
    );
    watcher.stop();

    for (const { issuedAt, id } of cancels) {
      const arrival = ex.requests.find((r) => r.path === `/v2/orders/${id}/cancel`)!;
      expect(arrival.status).toBe(200);
      expect(arrival.time - issuedAt).toBeLessThan(1_000);
    }
    const polls = pollsOnTheWire(ex, start);
    expect(polls.length).toBeGreaterThan(100);
    // The baseline learns the 300 orders from two pages of GET /v2/orders; every poll after that reads the
    // positions, the trades of BTCUSDT and the open orders, plus one order that a cancel just took out.
    expect(polls[0]).toEqual([
      '/v2/positions',
      '/v2/futures/myTrades',
      '/v2/futures/open-orders',
      '/v2/orders',
      '/v2/orders',
    ]);
    for (const poll of polls.slice(1)) expect(poll.length).toBeLessThanOrEqual(4);
    expect(Math.max(...polls.map((p) => p.length))).toBeLessThanOrEqual(3 + 3);
    expect(polls.slice(1).filter((p) => p.length === 3).length).toBeGreaterThan(polls.length - 1 - cancels.length);
    expect(ex.requests.filter((r) => r.status === 429)).toEqual([]);
  });

  it('reports a cancel, a partial and a full maker fill of an order older than the first page, then a cancel of all', async () => {
    const clock = new ManualClock();
    const { ex, client } = rig(clock);
    const ids = await placeResting(client, 300);
    const { watcher, orders } = manualWatcher(client);
    const fills: string[] = [];
    watcher.on('maker_fill', (f) => fills.push(f.quantity));
    await watcher.poll();

    let from = ex.requests.length;
    await client.orders.cancel(ids[299]!);
    await watcher.poll();
    expect(orders.map((o) => [o.order.id, o.previousStatus, o.order.status])).toEqual([[ids[299], 'NEW', 'CANCELED']]);
    expect(pollsOnTheWire(ex, from)).toEqual([
      ['/v2/positions', '/v2/futures/myTrades', '/v2/futures/open-orders', '/v2/orders/:id'],
    ]);

    // The oldest order is 299 rows deep in GET /v2/orders. A maker fill reaches the backend only at its sync.
    orders.length = 0;
    ex.fillOrder(ids[0]!, '0.0004');
    await watcher.poll();
    expect(orders).toEqual([]);
    ex.sync();
    from = ex.requests.length;
    await watcher.poll();
    expect(orders.map((o) => [o.order.id, o.previousStatus, o.order.status])).toEqual([
      [ids[0], 'NEW', 'PARTIALLY_FILLED'],
    ]);
    expect(fills).toEqual(['0.0004']);
    expect(pollsOnTheWire(ex, from)[0]!.length).toBeLessThanOrEqual(6);
    // Agreed again with the venue: the next poll reads no order.
    from = ex.requests.length;
    await watcher.poll();
    expect(pollsOnTheWire(ex, from)).toEqual([['/v2/positions', '/v2/futures/myTrades', '/v2/futures/open-orders']]);

    orders.length = 0;
    ex.fillOrder(ids[0]!);
    ex.sync();
    await watcher.poll();
    expect(orders.map((o) => [o.previousStatus, o.order.status])).toEqual([['PARTIALLY_FILLED', 'FILLED']]);
    expect(fills).toEqual(['0.0004', '0.0006']);

    // All 298 others at once: two pages of GET /v2/orders find them in one poll.
    orders.length = 0;
    await client.orders.cancelAll();
    from = ex.requests.length;
    await watcher.poll();
    expect(orders).toHaveLength(298);
    expect(new Set(orders.map((o) => o.order.status))).toEqual(new Set(['CANCELED']));
    expect(pollsOnTheWire(ex, from)).toEqual([
      ['/v2/positions', '/v2/futures/myTrades', '/v2/futures/open-orders', '/v2/orders', '/v2/orders'],
    ]);
    // Nothing is followed any more: no open-orders request either.
    from = ex.requests.length;
    await watcher.poll();
    expect(pollsOnTheWire(ex, from)).toEqual([['/v2/positions', '/v2/futures/myTrades']]);
  });

  it('many orders gone at once, deep in the history: found over a few polls, never more than 3 extra reads each', async () => {
    const clock = new FakeClock(); // waits for rate-limit slots pass at once
    const { ex, client, accountId } = rig(clock);
    const otherKey = ex.createApiKey(accountId, { permissions: ['TRADE'] });
    const otherProcess = new FuturesClient({ baseUrl: ex.baseUrl, ...otherKey, fetch: ex.fetch, clock });
    const ids = await placeResting(client, 300);
    const { watcher, orders } = manualWatcher(client);
    await watcher.poll();
    // 700 newer orders of another process (filled at once, not followed) bury the 300 under 3.5 pages of history.
    for (let i = 0; i < 140; i++) {
      await otherProcess.orders.createBatch(
        Array.from({ length: 5 }, () => ({
          symbol: 'BTCUSDT',
          side: 'BUY' as const,
          type: 'MARKET' as const,
          quantity: '0.001',
        })),
      );
    }
    await watcher.poll();
    orders.length = 0;
    await client.orders.cancelAll();
    const from = ex.requests.length;
    for (let i = 0; i < 5 && orders.length < 300; i++) await watcher.poll();
    expect(orders).toHaveLength(300);
    expect(new Set(orders.map((o) => o.order.id))).toEqual(new Set(ids));
    const polls = pollsOnTheWire(ex, from);
    expect(polls.length).toBeLessThanOrEqual(5);
    for (const poll of polls) expect(poll.length).toBeLessThanOrEqual(3 + 3);
  });

  it("asks for the open orders of the sub-account the orders were placed on (the client's default)", async () => {
    const clock = new ManualClock();
    const { ex, accountId, creds } = rig(clock);
    const sub = ex.account(accountId).primarySubAccountId!;
    const client = new FuturesClient({ baseUrl: ex.baseUrl, ...creds, fetch: ex.fetch, clock, subAccountId: sub });
    const [id] = await placeResting(client, 1);
    const { watcher, orders } = manualWatcher(client);
    await watcher.poll();
    await watcher.poll();
    await client.orders.cancel(id!);
    await watcher.poll();
    expect(orders.map((o) => o.order.status)).toEqual(['CANCELED']);
    const asked = ex.requests.filter((r) => r.path === '/v2/futures/open-orders');
    expect(asked).toHaveLength(3);
    for (const request of asked) expect(request.query['subAccountId']).toBe(sub);
  });
});

describe('watcher requests run in the background', () => {
  it("a full bucket serves the user's calls (trading first, then reads) before the watcher's queued poll", async () => {
    const clock = new ManualClock();
    const { ex, client } = rig(clock);
    const [target] = await placeResting(client, 1);
    const t0 = clock.now();
    // Fill the default bucket (1000/min): its slots come free one per millisecond from t0 + 60 s.
    for (let i = 0; i < 5; i++) {
      await client.account.balance();
      clock.advance(1);
    }
    await Promise.all(Array.from({ length: 995 }, () => client.account.balance()));
    const { watcher } = manualWatcher(client);
    const polled = watcher.poll(); // queued first
    await flush();
    const calls = [client.account.exposure(), client.orders.cancel(target!)];
    await flush();
    const before = ex.requests.length;
    clock.advance(60_000 - 5);
    for (let i = 0; i < 6; i++) {
      await flush();
      clock.advance(1);
    }
    await Promise.all(calls);
    expect(ex.requests.slice(before, before + 3).map((r) => `${r.method} ${r.path} @${r.time - t0}`)).toEqual([
      `POST /v2/orders/${target}/cancel @60000`,
      'GET /v2/risk/exposure @60001',
      'GET /v2/positions @60002',
    ]);
    for (let i = 0; i < 10; i++) {
      await flush();
      clock.advance(1);
    }
    await expect(polled).resolves.toMatchObject({ ok: true, baseline: true });
  });
});

async function flush() {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}
