import { describe, expect, it } from 'vitest';
import { FuturesClient } from '../../src/client.ts';
import type { MakerFill } from '../../src/events/detect-maker-fills.ts';
import { createExchange } from '../../src/testing/index.ts';
import { FakeClock } from '../helpers/clock.ts';

// Issue 20: a close explains only its own symbol and leg, and a flat position does not point either way.

function setup(positionMode: 'ONE_WAY' | 'HEDGE' = 'ONE_WAY') {
  const clock = new FakeClock();
  const ex = createExchange({ seed: 5, volatility: 0, clock });
  const { accountId } = ex.createAccount({ balances: { USDT: '10000000' }, positionMode });
  const credentials = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  ex.setMarkPrice('BTCUSDT', '60000');
  ex.setMarkPrice('ETHUSDT', '3000');
  const client = new FuturesClient({ baseUrl: ex.baseUrl, ...credentials, fetch: ex.fetch, retry: false, clock });
  const watcher = client.watch({ autoStart: false });
  const makerFills: MakerFill[] = [];
  watcher.on('maker_fill', (fill) => makerFills.push(fill));
  const positionId = async (symbol: string, positionSide = 'BOTH') =>
    (await client.account.positions()).positions.find((p) => p.symbol === symbol && p.positionSide === positionSide)!
      .id;
  return { ex, clock, client, watcher, makerFills, positionId };
}

describe('closes and maker fills', () => {
  it('a BTCUSDT close explains nothing of an ETHUSDT maker fill, also after its position left the list', async () => {
    const { ex, clock, client, watcher, makerFills, positionId } = setup();
    await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.2' });
    const { order } = await client.orders.create({
      symbol: 'ETHUSDT',
      side: 'SELL',
      type: 'LIMIT',
      quantity: '0.11',
      price: '3100',
    });
    await watcher.poll();
    await client.orders.closePosition({ positionId: await positionId('BTCUSDT') });
    await watcher.poll(); // the BTCUSDT position has left GET /v2/positions
    ex.fillOrder(order.id);
    clock.advance(5_000);
    await watcher.poll();
    expect(makerFills.map((f) => [f.symbol, f.quantity])).toEqual([['ETHUSDT', '-0.11']]);
    watcher.stop();
  });

  it('after a close leaves the key flat, a maker fill of either side on it is reported', async () => {
    const { ex, clock, client, watcher, makerFills, positionId } = setup();
    const buy = await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.03',
      price: '59000',
    });
    const sell = await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'LIMIT',
      quantity: '0.05',
      price: '61000',
    });
    await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1' });
    await watcher.poll();
    await client.orders.closePosition({ positionId: await positionId('BTCUSDT') });
    ex.fillOrder(sell.order.id); // opens a short on the flat key
    clock.advance(5_000);
    await watcher.poll();
    ex.fillOrder(buy.order.id);
    clock.advance(5_000);
    await watcher.poll();
    expect(makerFills.map((f) => [f.quantity, f.newQuantity])).toEqual([
      ['-0.05', '-0.05'],
      ['0.03', '-0.02'],
    ]);
    watcher.stop();
  });

  it('hedge mode: closing the LONG leg explains nothing on the SHORT leg', async () => {
    const { ex, clock, client, watcher, makerFills, positionId } = setup('HEDGE');
    await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      positionSide: 'LONG',
      type: 'MARKET',
      quantity: '0.04',
    });
    const { order } = await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'SELL',
      positionSide: 'SHORT',
      type: 'LIMIT',
      quantity: '0.04',
      price: '61000',
    });
    await watcher.poll();
    await client.orders.closePosition({ positionId: await positionId('BTCUSDT', 'LONG') });
    ex.fillOrder(order.id);
    clock.advance(5_000);
    await watcher.poll();
    expect(makerFills.map((f) => [f.positionSide, f.quantity])).toEqual([['SHORT', '-0.04']]);
    watcher.stop();
  });
});
