import { FuturesClient, type MakerFill, type WatcherCheckpoint } from 'futures-sdk';
import { createExchange, type Exchange } from 'futures-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountTrade } from '../../src/schemas/trade.ts';
import { FakeClock } from '../helpers/clock.ts';

// Issue 20 on a real socket (ex.listen()): the newcomer's sequence reports its maker fill, and a watcher resumed
// from a checkpoint in a new process reports what happened while nothing watched. One fake clock for the exchange
// and the clients; polls are run by hand.

let ex: Exchange;
let url: string;
let close: () => Promise<void>;
const clock = new FakeClock();

beforeAll(async () => {
  ex = createExchange({ seed: 21, volatility: 0, clock });
  ex.setMarkPrice('BTCUSDT', '60000');
  ex.setMarkPrice('ETHUSDT', '3000');
  ({ url, close } = await ex.listen());
});
afterAll(() => close());

function account() {
  const { accountId } = ex.createAccount({ balances: { USDT: '10000000' } });
  const credentials = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  /** A "process": its own client (and so its own call journal). */
  const process = () => new FuturesClient({ baseUrl: url, ...credentials, retry: false, clock });
  return { accountId, process };
}

function watch(client: FuturesClient, resume?: WatcherCheckpoint) {
  const watcher = client.watch({ autoStart: false, ...(resume ? { resume } : {}) });
  const makerFills: MakerFill[] = [];
  const fills: AccountTrade[] = [];
  watcher.on('maker_fill', (fill) => makerFills.push(fill));
  watcher.on('fill', (trade) => fills.push(trade));
  return { watcher, makerFills, fills };
}

const restingBuy = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.004', price: '59000' } as const;

describe('the newcomer: a MARKET order, the watcher started within 5.5 s, then a maker fill', () => {
  it.each([false, true])('reports the maker fill (with a closePosition in between: %s)', async (closeFirst) => {
    const { process } = account();
    const client = process();
    await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
    if (closeFirst) {
      const { positions } = await client.account.positions();
      await client.orders.closePosition({ positionId: positions[0]!.id });
    }
    clock.advance(1_000);
    const { watcher, makerFills } = watch(client);
    expect((await watcher.poll()).ok).toBe(true); // the baseline, 1 s after the MARKET order
    const { order } = await client.orders.create(restingBuy);
    ex.fillOrder(order.id);
    clock.advance(5_000); // the sync tick shows it in GET /v2/positions
    await watcher.poll();
    expect(makerFills.map((f) => [f.symbol, f.quantity, f.newQuantity])).toEqual([
      ['BTCUSDT', '0.004', closeFirst ? '0.004' : '0.014'],
    ]);
    watcher.stop();
  });
});

describe('watcher.checkpoint() and client.watch({ resume })', () => {
  it('a new process reports, on its first poll, the taker trades and maker fills that happened while none watched', async () => {
    const { process } = account();
    const first = process();
    const { watcher } = watch(first);
    await first.orders.create({ symbol: 'ETHUSDT', side: 'SELL', type: 'MARKET', quantity: '0.5' });
    const { order } = await first.orders.create(restingBuy);
    await watcher.poll();
    clock.advance(2_000);
    await watcher.poll();
    const saved = JSON.stringify(watcher.checkpoint()); // what the bot writes to its file
    watcher.stop();

    // While no process watches: a maker fill of the first process's order, a taker trade, a close.
    ex.fillOrder(order.id, '0.001');
    await first.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.002' });
    const { positions } = await first.account.positions();
    await first.orders.closePosition({ positionId: positions.find((p) => p.symbol === 'ETHUSDT')!.id });
    clock.advance(6_000);

    const second = process();
    const resumed = watch(second, JSON.parse(saved) as WatcherCheckpoint);
    const result = await resumed.watcher.poll();
    expect(result).toMatchObject({ ok: true, baseline: false });
    expect(resumed.fills.map((t) => [t.symbol, t.side, t.qty])).toEqual([
      ['BTCUSDT', 'BUY', '0.002'],
      ['ETHUSDT', 'BUY', '0.5'],
    ]);
    expect(resumed.makerFills.map((f) => [f.symbol, f.quantity])).toEqual([['BTCUSDT', '0.001']]);

    // The rest of the order fills later: reported once, like any maker fill; nothing else.
    ex.fillOrder(order.id);
    clock.advance(5_000);
    await resumed.watcher.poll();
    expect(resumed.makerFills.map((f) => [f.symbol, f.quantity])).toEqual([
      ['BTCUSDT', '0.001'],
      ['BTCUSDT', '0.003'],
    ]);
    expect(resumed.watcher.snapshot()?.positions.map((p) => [p.symbol, p.quantity])).toEqual([['BTCUSDT', '0.006']]);
    resumed.watcher.stop();
  });

  it('is undefined before the first poll, and a checkpoint from elsewhere is refused', () => {
    const client = account().process();
    expect(client.watch({ autoStart: false }).checkpoint()).toBeUndefined();
    expect(() => client.watch({ resume: { version: 2 } as unknown as WatcherCheckpoint })).toThrow(/checkpoint/);
  });
});
