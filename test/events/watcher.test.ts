import { afterEach, describe, expect, it } from 'vitest';
import { FuturesClient } from '../../src/client.ts';
import { RateLimitError, ServerError } from '../../src/errors/api-error.ts';
import { ConfigurationError } from '../../src/errors/configuration-error.ts';
import { FuturesError } from '../../src/errors/futures-error.ts';
import { ListenerError } from '../../src/errors/listener-error.ts';
import type { MakerFill } from '../../src/events/detect-maker-fills.ts';
import type { AccountWatcher, OrderChange, PositionChange } from '../../src/events/watcher.ts';
import type { AccountTrade } from '../../src/schemas/trade.ts';
import { createExchange } from '../../src/testing/index.ts';
import { FakeClock, ManualClock } from '../helpers/clock.ts';
import { nextEvent, until } from './helpers.ts';

const watchers: AccountWatcher[] = [];
afterEach(() => {
  for (const w of watchers.splice(0)) w.stop();
});

/** `clock`: one fake time for the exchange, the client and so its watcher (time moves only on `advance`). */
function setup(options: { positionMode?: 'ONE_WAY' | 'HEDGE'; clock?: FakeClock } = {}) {
  const { clock } = options;
  const ex = createExchange({ seed: 7, volatility: 0, ...(clock ? { clock } : {}) });
  const { accountId } = ex.createAccount({
    balances: { USDT: '1000000' },
    ...(options.positionMode ? { positionMode: options.positionMode } : {}),
  });
  const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  ex.setMarkPrice('BTCUSDT', '65000');
  ex.setMarkPrice('ETHUSDT', '3000');
  const client = new FuturesClient({
    baseUrl: ex.baseUrl,
    apiKey,
    apiSecret,
    fetch: ex.fetch,
    retry: false,
    ...(clock ? { clock } : {}),
  });
  return { ex, client, accountId, apiKey, apiSecret };
}

/** A watcher polled by hand: each `poll()` is one interval. Records every event. */
function manualWatcher(client: FuturesClient, symbols: string[] = ['BTCUSDT']) {
  const watcher = client.watch({ symbols, autoStart: false });
  watchers.push(watcher);
  const seen = {
    makerFills: [] as MakerFill[],
    fills: [] as AccountTrade[],
    positions: [] as PositionChange[],
    orders: [] as OrderChange[],
    errors: [] as FuturesError[],
  };
  watcher.on('maker_fill', (f) => seen.makerFills.push(f));
  watcher.on('fill', (t) => seen.fills.push(t));
  watcher.on('position_update', (p) => seen.positions.push(p));
  watcher.on('order_update', (o) => seen.orders.push(o));
  watcher.on('error', (e) => seen.errors.push(e));
  const reset = () => {
    for (const list of Object.values(seen)) list.length = 0;
  };
  return { watcher, seen, reset };
}

describe('AccountWatcher on the simulator', () => {
  it('a resting LIMIT filled as maker gives exactly one maker_fill, within one interval', async () => {
    const { ex, client } = setup();
    const { watcher, seen } = manualWatcher(client);
    await watcher.poll(); // baseline
    const { order } = await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.01',
      price: '60000',
    });
    await watcher.poll();
    expect(seen.makerFills).toEqual([]);
    ex.fillOrder(order.id);
    ex.sync();
    await watcher.poll();
    expect(seen.makerFills).toEqual([
      expect.objectContaining({
        symbol: 'BTCUSDT',
        positionSide: 'BOTH',
        quantity: '0.01',
        previousQuantity: '0',
        newQuantity: '0.01',
      }),
    ]);
    expect(seen.fills).toEqual([]);
    expect(seen.positions).toEqual([
      expect.objectContaining({ symbol: 'BTCUSDT', previousQuantity: '0', quantity: '0.01' }),
    ]);
    expect(seen.orders).toEqual([
      expect.objectContaining({
        previousStatus: 'NEW',
        order: expect.objectContaining({ id: order.id, status: 'FILLED' }),
      }),
    ]);
    await watcher.poll();
    await watcher.poll();
    expect(seen.makerFills).toHaveLength(1);
    expect(seen.errors).toEqual([]);
  });

  it('MARKET orders and closes move the position but give no maker_fill', async () => {
    const { client } = setup();
    const { watcher, seen } = manualWatcher(client);
    await watcher.poll();
    await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.02' });
    await watcher.poll();
    expect(seen.fills.map((t) => [t.side, t.qty])).toEqual([['BUY', '0.02']]);
    expect(seen.positions.map((p) => p.quantity)).toEqual(['0.02']);
    const { positions } = await client.account.positions();
    await client.orders.closePosition({ positionId: positions[0]!.id, quantity: '0.005' });
    await watcher.poll();
    await client.orders.closePosition({ positionId: positions[0]!.id });
    await watcher.poll();
    await watcher.poll();
    expect(seen.positions.map((p) => p.quantity)).toEqual(['0.02', '0.015', '0']);
    expect(seen.makerFills).toEqual([]);
    expect(seen.errors).toEqual([]);
  });

  it('close-and-switch-margin closes both hedge legs without a maker_fill', async () => {
    const { client } = setup({ positionMode: 'HEDGE' });
    const { watcher, seen } = manualWatcher(client);
    await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      positionSide: 'LONG',
      type: 'MARKET',
      quantity: '0.02',
    });
    await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'SELL',
      positionSide: 'SHORT',
      type: 'MARKET',
      quantity: '0.01',
    });
    await watcher.poll(); // baseline with both legs open
    await client.futures.closeAndSwitchMargin({ symbol: 'BTCUSDT', targetMarginType: 'ISOLATED' });
    await watcher.poll();
    await watcher.poll();
    expect(seen.positions.map((p) => [p.positionSide, p.previousQuantity, p.quantity]).sort()).toEqual([
      ['LONG', '0.02', '0'],
      ['SHORT', '-0.01', '0'],
    ]);
    expect(seen.makerFills).toEqual([]);
    expect(seen.errors).toEqual([]);
  });

  it('partial maker fills are reported as they happen', async () => {
    const { ex, client } = setup();
    const { watcher, seen } = manualWatcher(client);
    await watcher.poll();
    const { order } = await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'LIMIT',
      quantity: '0.03',
      price: '70000',
    });
    ex.fillOrder(order.id, '0.01');
    ex.sync();
    await watcher.poll();
    ex.fillOrder(order.id, '0.015');
    ex.sync();
    await watcher.poll();
    ex.fillOrder(order.id);
    ex.sync();
    await watcher.poll();
    expect(seen.makerFills.map((f) => [f.quantity, f.previousQuantity, f.newQuantity])).toEqual([
      ['-0.01', '0', '-0.01'],
      ['-0.015', '-0.01', '-0.025'],
      ['-0.005', '-0.025', '-0.03'],
    ]);
  });

  it('hedge mode: LONG and SHORT maker fills are told apart', async () => {
    const { ex, client } = setup({ positionMode: 'HEDGE' });
    const { watcher, seen } = manualWatcher(client);
    await watcher.poll();
    const long = await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      positionSide: 'LONG',
      type: 'LIMIT',
      quantity: '0.01',
      price: '60000',
    });
    const short = await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'SELL',
      positionSide: 'SHORT',
      type: 'LIMIT',
      quantity: '0.02',
      price: '70000',
    });
    await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      positionSide: 'LONG',
      type: 'MARKET',
      quantity: '0.005',
    });
    ex.fillOrder(long.order.id);
    ex.fillOrder(short.order.id);
    ex.sync();
    await watcher.poll();
    const bySide = Object.fromEntries(seen.makerFills.map((f) => [f.positionSide, f.quantity]));
    expect(bySide).toEqual({ LONG: '0.01', SHORT: '-0.02' });
    expect(seen.fills.map((t) => [t.positionSide, t.qty])).toEqual([['LONG', '0.005']]);
  });

  it('two symbols, and a taker fill with a maker fill in the same interval', async () => {
    const { ex, client } = setup();
    const { watcher, seen } = manualWatcher(client, ['BTCUSDT', 'ETHUSDT']);
    await watcher.poll();
    const eth = await client.orders.create({
      symbol: 'ETHUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '1',
      price: '2900',
    });
    const btc = await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.01',
      price: '60000',
    });
    await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.02' });
    ex.fillOrder(eth.order.id, '0.4');
    ex.fillOrder(btc.order.id);
    ex.sync();
    await watcher.poll();
    expect(seen.makerFills.map((f) => [f.symbol, f.quantity]).sort()).toEqual([
      ['BTCUSDT', '0.01'],
      ['ETHUSDT', '0.4'],
    ]);
    expect(seen.fills.map((t) => [t.symbol, t.qty])).toEqual([['BTCUSDT', '0.02']]);
  });

  it('a symbol first seen through a new position still has its new taker trades counted', async () => {
    const { client } = setup();
    const { watcher, seen } = manualWatcher(client, []);
    await watcher.poll();
    await client.orders.create({ symbol: 'ETHUSDT', side: 'SELL', type: 'MARKET', quantity: '2' });
    await watcher.poll();
    expect(seen.fills.map((t) => [t.symbol, t.qty])).toEqual([['ETHUSDT', '2']]);
    expect(seen.makerFills).toEqual([]);
  });

  it('reports errors, keeps polling with backoff, and recovers', async () => {
    const clock = new FakeClock();
    const { ex, client } = setup({ clock });
    const watcher = client.watch({ symbols: ['BTCUSDT'], intervalMs: 1_000 });
    watchers.push(watcher);
    const errors: FuturesError[] = [];
    watcher.on('error', (e) => errors.push(e));
    const baseline = nextEvent(watcher, 'poll');
    clock.advance(0);
    await baseline;
    await new Promise((resolve) => setTimeout(resolve, 0));
    ex.faults.add({ path: '/v2/positions', status: 503, times: 2 });
    clock.advance(1_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(errors).toHaveLength(1);
    expect(clock.scheduled.at(-1)).toBe(2_000);
    clock.advance(2_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(errors).toHaveLength(2);
    expect(clock.scheduled.at(-1)).toBe(4_000);
    const recovered = nextEvent(watcher, 'poll');
    clock.advance(4_000);
    await recovered;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(clock.scheduled.at(-1)).toBe(1_000);
  });

  it('stop() clears the timer: no request after it', async () => {
    const clock = new FakeClock();
    const { ex, client } = setup({ clock });
    const watcher = client.watch({ intervalMs: 1_000 });
    watchers.push(watcher);
    const baseline = nextEvent(watcher, 'poll');
    clock.advance(0);
    await baseline;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(clock.pending).toBe(1);
    watcher.stop();
    expect(clock.pending).toBe(0);
    const requests = ex.requests.length;
    clock.advance(10_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ex.requests.length).toBe(requests);
    expect(watcher.isRunning).toBe(false);
  });

  it('runs on real timers and reports a maker fill within one interval', async () => {
    const { ex, client } = setup();
    const watcher = client.watch({ symbols: ['BTCUSDT'], intervalMs: 100 });
    watchers.push(watcher);
    await nextEvent(watcher, 'poll');
    const { order } = await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.01',
      price: '60000',
    });
    const detected = nextEvent<[MakerFill]>(watcher, 'maker_fill', 2_000);
    const filledAt = Date.now();
    ex.fillOrder(order.id);
    ex.sync();
    const [fill] = await detected;
    expect(fill.quantity).toBe('0.01');
    expect(Date.now() - filledAt).toBeLessThan(100 + 150);
    watcher.stop();
  });

  it("shares the client's rate-limit buckets: a 429 on the user's own call holds the watcher's polls too", async () => {
    const ex = createExchange({ seed: 7, volatility: 0 });
    const { accountId } = ex.createAccount({ balances: { USDT: '1000000' } });
    const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
    const clock = new ManualClock(Date.now());
    const client = new FuturesClient({ baseUrl: ex.baseUrl, apiKey, apiSecret, fetch: ex.fetch, retry: false, clock });
    const watcher = client.watch({ symbols: ['BTCUSDT'], autoStart: false });
    watchers.push(watcher);
    await watcher.poll();
    ex.faults.add({ path: '/v2/futures/balance', status: 429, headers: { 'Retry-After': '3' } });
    await expect(client.account.balance()).rejects.toBeInstanceOf(RateLimitError);
    const before = ex.requests.length;
    let done = false;
    const polled = watcher.poll().then(() => {
      done = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    // The watcher's GET /v2/positions (default bucket) waits out the pause the user's call earned.
    expect(ex.requests.length).toBe(before);
    expect(done).toBe(false);
    expect(clock.sleeps).toContain(3_000);
    clock.advance(3_000);
    await polled;
    expect(ex.requests.slice(before).map((r) => r.path)).toEqual(['/v2/positions', '/v2/futures/myTrades']);
  });

  it('keeps polling when its listeners throw', async () => {
    const { ex, apiKey, apiSecret } = setup();
    const logged: string[] = [];
    const logging = new FuturesClient({
      baseUrl: ex.baseUrl,
      apiKey,
      apiSecret,
      fetch: ex.fetch,
      logger: { debug() {}, info() {}, warn() {}, error: (m) => logged.push(m) },
    });
    const watcher = logging.watch({ symbols: ['BTCUSDT'], autoStart: false });
    watchers.push(watcher);
    const makerFills: MakerFill[] = [];
    watcher.on('maker_fill', (f) => makerFills.push(f));
    for (const name of ['poll', 'position_update', 'order_update', 'maker_fill'] as const) {
      watcher.on(name, () => {
        throw new Error('buggy listener');
      });
    }
    await watcher.poll();
    const { order } = await logging.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.01',
      price: '60000',
    });
    ex.fillOrder(order.id);
    ex.sync();
    await expect(watcher.poll()).resolves.toMatchObject({ ok: true }); // a listener's bug is not a failed poll
    expect(makerFills.map((f) => f.quantity)).toEqual(['0.01']);
    expect(logged).toContain("a 'maker_fill' listener of the watcher threw");
    expect(logged).toContain("a 'position_update' listener of the watcher threw");
  });

  it('reports a throwing listener as an error event (no logger needed), even a hostile thrown value', async () => {
    const { ex, client } = setup(); // no logger
    const { watcher, seen } = manualWatcher(client);
    const hostile = {
      toString() {
        throw new Error('toString is hostile too');
      },
    };
    watcher.on('position_update', () => {
      throw hostile;
    });
    watcher.on('maker_fill', () => {
      throw new Error('hedge failed');
    });
    await watcher.poll();
    const { order } = await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.01',
      price: '60000',
    });
    ex.fillOrder(order.id);
    ex.sync();
    await expect(watcher.poll()).resolves.toMatchObject({ ok: true }); // a listener's bug is not a failed poll
    expect(seen.makerFills.map((f) => f.quantity)).toEqual(['0.01']);
    expect(seen.errors).toHaveLength(2);
    const [first, second] = seen.errors;
    expect(first).toBeInstanceOf(ListenerError);
    expect(first).toMatchObject({ name: 'ListenerError', event: 'position_update', source: 'watcher' });
    expect(first?.message).toContain('[unprintable value]');
    expect(second).toMatchObject({ name: 'ListenerError', event: 'maker_fill' });
    expect(second?.message).toContain('hedge failed');
    expect(second?.cause).toMatchObject({ message: 'hedge failed' });
    // Later polls go on as usual.
    await watcher.poll();
    expect(seen.errors).toHaveLength(2);
  });

  it('a throwing error listener is not reported again (no loop) and polling continues', async () => {
    const { ex, client } = setup();
    const watcher = client.watch({ symbols: ['BTCUSDT'], autoStart: false });
    watchers.push(watcher);
    const errors: FuturesError[] = [];
    watcher.on('error', (e) => {
      errors.push(e);
      throw new Error('error listener bug');
    });
    watcher.on('poll', () => {
      throw new Error('poll listener bug');
    });
    await expect(watcher.poll()).resolves.toMatchObject({ ok: true }); // a listener's bug is not a failed poll
    await expect(watcher.poll()).resolves.toMatchObject({ ok: true }); // a listener's bug is not a failed poll
    expect(errors.map((e) => (e as ListenerError).event)).toEqual(['poll', 'poll']);
    expect(ex.requests.filter((r) => r.path === '/v2/positions')).toHaveLength(2);
  });

  it("poll() resolves its outcome: a failure is the caller's (no error event), a stopped watcher says so", async () => {
    const { ex, client } = setup();
    const { watcher, seen } = manualWatcher(client);
    await expect(watcher.poll()).resolves.toEqual({ ok: true, at: expect.any(Number), baseline: true });
    await expect(watcher.poll()).resolves.toEqual({ ok: true, at: expect.any(Number), baseline: false });
    ex.faults.add({ path: '/v2/positions', status: 503, times: 1 });
    const failed = await watcher.poll();
    expect(failed).toMatchObject({ ok: false, stopped: false });
    expect(failed.ok ? undefined : failed.error).toBeInstanceOf(ServerError);
    expect(seen.errors).toEqual([]);
    watcher.stop();
    const stopped = await watcher.poll();
    expect(stopped).toMatchObject({ ok: false, stopped: true });
    expect(stopped.ok ? undefined : stopped.error).toBeInstanceOf(FuturesError);
  });

  it('an automatic poll that fails is an error event, once, also when poll() joins it', async () => {
    const clock = new FakeClock();
    const { ex, client } = setup({ clock });
    const watcher = client.watch({ symbols: ['BTCUSDT'], intervalMs: 1_000 });
    watchers.push(watcher);
    const errors: FuturesError[] = [];
    watcher.on('error', (e) => errors.push(e));
    ex.faults.add({ path: '/v2/positions', status: 503, times: 2 });
    clock.advance(0);
    await until(() => errors.length === 1);
    clock.advance(2_000);
    const joined = await watcher.poll(); // joins the automatic poll in flight
    expect(joined).toMatchObject({ ok: false, stopped: false });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(errors).toHaveLength(1);
  });

  it('issue 8: a taker BUY 0.005 and a maker SELL 0.002 in one interval: the maker fill comes in that poll', async () => {
    for (const makerFirst of [false, true]) {
      const { ex, client } = setup();
      const { watcher, seen } = manualWatcher(client);
      await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.010' });
      const { order: resting } = await client.orders.create({
        symbol: 'BTCUSDT',
        side: 'SELL',
        type: 'LIMIT',
        quantity: '0.002',
        price: '70000',
      });
      await watcher.poll();
      ex.advance(1_000);
      if (makerFirst) ex.fillOrder(resting.id);
      ex.advance(300);
      await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.005' });
      ex.advance(300);
      if (!makerFirst) ex.fillOrder(resting.id);
      ex.sync();
      await watcher.poll();
      expect(seen.positions.map((p) => [p.previousQuantity, p.quantity])).toEqual([['0.01', '0.013']]);
      expect(seen.fills.map((t) => [t.side, t.qty])).toEqual([['BUY', '0.005']]);
      expect(seen.makerFills.map((f) => [f.quantity, f.previousQuantity, f.newQuantity])).toEqual([
        ['-0.002', '0.01', '0.013'],
      ]);
      await watcher.poll();
      expect(seen.makerFills).toHaveLength(1);
    }
  });

  it('a taker trade that lands between the positions read and the trades read is no maker fill', async () => {
    const ex = createExchange({ seed: 7, volatility: 0 });
    const { accountId } = ex.createAccount({ balances: { USDT: '1000000' } });
    ex.setMarkPrice('BTCUSDT', '65000');
    const mine = ex.createApiKey(accountId, { permissions: ['TRADE'] });
    const other = ex.createApiKey(accountId, { permissions: ['TRADE'] });
    const otherProcess = new FuturesClient({ baseUrl: ex.baseUrl, ...other, fetch: ex.fetch, retry: false });
    let trade: (() => Promise<unknown>) | undefined;
    const racing: typeof fetch = async (input, init) => {
      const response = await ex.fetch(input, init);
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname === '/v2/positions' && trade) {
        const run = trade;
        trade = undefined;
        await run();
      }
      return response;
    };
    const client = new FuturesClient({ baseUrl: ex.baseUrl, ...mine, fetch: racing, retry: false });
    const { watcher, seen } = manualWatcher(client);
    await otherProcess.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.02' });
    await watcher.poll();
    for (const side of ['BUY', 'SELL'] as const) {
      trade = () => otherProcess.orders.create({ symbol: 'BTCUSDT', side, type: 'MARKET', quantity: '0.007' });
      await watcher.poll();
      await watcher.poll();
    }
    // Once more, a small BUY.
    trade = () => otherProcess.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.003' });
    await watcher.poll();
    await watcher.poll();
    expect(seen.fills.map((t) => [t.side, t.qty])).toEqual([
      ['BUY', '0.007'],
      ['SELL', '0.007'],
      ['BUY', '0.003'],
    ]);
    expect(seen.makerFills).toEqual([]);
    expect(seen.errors).toEqual([]);
  });

  it('rejects a non-positive interval with a ConfigurationError', () => {
    const { client } = setup();
    expect(() => client.watch({ intervalMs: 0 })).toThrow(ConfigurationError);
    expect(() => client.watch({ intervalMs: Number.NaN })).toThrow(ConfigurationError);
  });
});
