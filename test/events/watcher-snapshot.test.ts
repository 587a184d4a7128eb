import { describe, expect, it } from 'vitest';
import { FuturesClient } from '../../src/client.ts';
import { createExchange } from '../../src/testing/index.ts';
import { FakeClock } from '../helpers/clock.ts';

function setup() {
  const clock = new FakeClock();
  const ex = createExchange({ seed: 3, volatility: 0, clock });
  const { accountId } = ex.createAccount({ balances: { USDT: '1000000' } });
  const creds = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  ex.setMarkPrice('BTCUSDT', '65000');
  const client = new FuturesClient({ baseUrl: ex.baseUrl, ...creds, fetch: ex.fetch, retry: false, clock });
  return { ex, client, clock };
}

describe('watcher.snapshot()', () => {
  it('is undefined before the first poll, then the open positions and working orders of the last poll', async () => {
    const { ex, client, clock } = setup();
    const watcher = client.watch({ autoStart: false });
    expect(watcher.snapshot()).toBeUndefined();
    await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.02' });
    const { order } = await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.01',
      price: '60000',
    });
    const first = await watcher.poll();
    const view = watcher.snapshot();
    expect(view?.at).toBe(first.ok ? first.at : -1);
    expect(view?.positions.map((p) => [p.symbol, p.quantity])).toEqual([['BTCUSDT', '0.02']]);
    expect(view?.orders.map((o) => [o.id, o.status])).toEqual([[order.id, 'NEW']]);

    ex.fillOrder(order.id);
    ex.sync();
    clock.advance(1000);
    await watcher.poll();
    const after = watcher.snapshot();
    expect(after?.positions.map((p) => p.quantity)).toEqual(['0.03']);
    expect(after?.orders).toEqual([]);
    // A copy: changing it changes nothing in the watcher.
    after?.positions.pop();
    expect(watcher.snapshot()?.positions).toHaveLength(1);
    watcher.stop();
  });
});
