import { type Clock, FuturesClient } from 'futures-sdk';
import { createExchange, type Exchange, ManualClock } from 'futures-sdk/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Timestamps on a real wire, against the simulator's loopback server on real time (it enforces the spec's 5 s
// drift and its 60 s replay cache on (key, signature)). Cancels carry no query, so two cancels with one timestamp
// have one signature: any repeat is a replay 401.

let ex: Exchange;
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ex = createExchange({ seed: 7, volatility: 0 });
  ex.setMarkPrice('BTCUSDT', '60000');
  ({ url, close } = await ex.listen());
});
afterAll(() => close());

function account() {
  const { accountId } = ex.createAccount({ balances: { USDT: '10000000' } });
  return ex.createApiKey(accountId, { permissions: ['TRADE'] });
}

async function restingOrders(client: FuturesClient, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 5) {
    const items = Array.from({ length: Math.min(5, count - i) }, (_, k) => ({
      symbol: 'BTCUSDT',
      side: 'BUY' as const,
      type: 'LIMIT' as const,
      quantity: '0.001',
      price: String(30000 + i + k),
    }));
    const { results } = await client.orders.createBatch(items);
    for (const result of results) if (result.success) ids.push(result.orderId);
  }
  if (ids.length !== count) throw new Error(`setup: ${ids.length} of ${count} orders placed`);
  return ids;
}

/** A fetch that counts the server's `401 Signature replay detected` answers. */
function countingReplays(next: typeof fetch = fetch): { fetch: typeof fetch; replays: () => number } {
  let replays = 0;
  return {
    replays: () => replays,
    fetch: async (input, init) => {
      const response = await next(input, init);
      if (response.status === 401 && (await response.clone().text()).includes('replay')) replays++;
      return response;
    },
  };
}

describe('a local clock step', () => {
  // Deterministic: the simulator and the client read one fake time; the client's clock is that time plus the
  // step. Traffic fills the 500 ms before the step with timestamps (reads carry no query, so their signatures share
  // the cancels' space), then the step lands at a given point of the second: one Date sample after it says only
  // which second the server is in, and a client that re-synced to the middle of that second went back into
  // timestamps it had just spent (issue 18: up to 49 of 50 cancels failed).
  const steps = [70_000, -70_000, 3_600_000, -3_600_000];
  const landings = [100, 500, 900, 970, 999];
  it.each(steps.flatMap((step) => landings.map((landing) => [step, landing] as const)))(
    'of %i ms landing %i ms into a second, amid traffic: 50 cancels all succeed, no replay 401',
    async (step, landing) => {
      const server = new ManualClock({ start: Date.UTC(2026, 10, 26, 12, 0, 0) + landing - 500 });
      const sim = createExchange({ seed: 3, volatility: 0, now: () => server.now() });
      sim.setMarkPrice('BTCUSDT', '60000');
      const { accountId } = sim.createAccount({ balances: { USDT: '10000000' } });
      const credentials = sim.createApiKey(accountId, { permissions: ['TRADE'] });
      const local = { stepMs: 0 };
      const clock: Clock = {
        now: () => server.now() + local.stepMs,
        random: () => Math.random(),
        sleep: (ms, signal) => server.sleep(ms, signal),
      };
      const counting = countingReplays(sim.fetch);
      const client = new FuturesClient({ baseUrl: sim.baseUrl, ...credentials, clock, fetch: counting.fetch });
      const ids = await restingOrders(client, 50);
      await Promise.all(Array.from({ length: 500 }, () => client.account.positions()));
      server.advance(500);
      local.stepMs = step;
      const results = await Promise.allSettled(ids.map((id) => client.orders.cancel(id)));
      const failed = results.filter((r) => r.status === 'rejected');
      expect(failed.map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
      expect(counting.replays()).toBe(0);
      // A step costs at most one re-synced attempt per call.
      expect(sim.requests.filter((r) => r.path.endsWith('/cancel')).length).toBeLessThanOrEqual(100);
    },
  );
});

describe('a restarted process on the same key', () => {
  it('signs nothing its predecessor signed: 200 cancels each, the second starting at once', async () => {
    const credentials = account();
    const counting = countingReplays();
    const setup = new FuturesClient({ baseUrl: url, ...credentials });
    const ids = await restingOrders(setup, 400);
    // Each client is what a process has: its own clock estimate and its own memory of timestamps.
    for (const half of [ids.slice(0, 200), ids.slice(200)]) {
      const process = new FuturesClient({ baseUrl: url, ...credentials, fetch: counting.fetch });
      const results = await Promise.allSettled(half.map((id) => process.orders.cancel(id)));
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    }
    expect(counting.replays()).toBe(0);
  });

  it('two clients used one after the other (the reliability matrix rig) never collide', async () => {
    const counting = countingReplays();
    for (let round = 0; round < 20; round++) {
      const credentials = account();
      const first = new FuturesClient({ baseUrl: url, ...credentials, fetch: counting.fetch });
      await Promise.all([first.account.positions(), first.account.balance()]);
      const second = new FuturesClient({ baseUrl: url, ...credentials, fetch: counting.fetch });
      await Promise.all([second.account.positions(), second.account.balance()]);
    }
    expect(counting.replays()).toBe(0);
  });
});

describe('a request leaves only once the clock has passed its timestamp', () => {
  // libuv caches its loop time, so a 1 ms timer may fire while Date.now() still reads the millisecond it was set
  // in: a client starting on the key at that instant would sign the same timestamp (found in CI: 1 replay 401 in
  // "two clients used one after the other"). Here the wall clock stands still while real timers fire.
  it('also when the timer that waits for it fires before the clock moved on', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const start = Date.UTC(2026, 10, 28, 12, 0, 0, 0);
      vi.setSystemTime(start);
      const sent: Array<{ at: number; timestamp: number }> = [];
      const fetchAtOnce = async (input: string | URL | Request) => {
        const url = new URL(input instanceof Request ? input.url : input);
        sent.push({ at: Date.now(), timestamp: Number(url.searchParams.get('timestamp')) });
        return Response.json({ ok: true, positions: [] });
      };
      const client = new FuturesClient({
        baseUrl: 'http://127.0.0.1:9',
        apiKey: 'ak_test_0123456789',
        apiSecret: 'secret',
        fetch: fetchAtOnce,
        rateLimit: false,
        retry: false,
      });
      const call = client.account.positions();
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(sent).toEqual([]); // many 1 ms timers fired, the clock still reads the timestamp's millisecond
      vi.setSystemTime(start + 1);
      await call;
      expect(sent).toEqual([{ at: start + 1, timestamp: start }]);
    } finally {
      vi.useRealTimers();
    }
  });
});
