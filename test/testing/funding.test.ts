import { FUNDING_INTERVAL_MS } from 'futures-sdk/testing';
import { describe, expect, it } from 'vitest';
import { setup } from './_helpers.ts';

// The rig's server clock starts at 2026-05-01 12:00 UTC: the next funding time is 16:00 UTC, 4 h later.
const TO_FIRST_FUNDING = 4 * 3_600_000;

async function walletUsdt(rig: ReturnType<typeof setup>): Promise<string> {
  const { balances } = await rig.client.account.balance();
  return balances.assets.find((a) => a.asset === 'USDT')!.walletBalance;
}

describe('funding (every 8 h of server time)', () => {
  it('a long pays and a short receives |qty| × mark × rate at each funding time, in fundingFee and the wallet', async () => {
    const rig = setup();
    rig.ex.market.setFundingRate('BTCUSDT', '0.0001');
    rig.ex.market.setFundingRate('ETHUSDT', '0.0002');
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1' }); // fee 3
    await rig.client.orders.create({ symbol: 'ETHUSDT', side: 'SELL', type: 'MARKET', quantity: '1' }); // fee 1.5
    expect(await walletUsdt(rig)).toBe('9995.5');
    const seen: string[] = [];
    rig.ex.subscribeAccount(rig.accountId, (e) => seen.push(e.event));

    rig.ex.advance(TO_FIRST_FUNDING - 1);
    expect(await walletUsdt(rig)).toBe('9995.5');
    rig.ex.advance(1); // 16:00 UTC
    const byPair = async () =>
      Object.fromEntries((await rig.client.account.positions()).positions.map((p) => [p.symbol, p.fundingFee]));
    // Long BTC pays 0.1 × 60000 × 0.0001 = 0.6; short ETH receives 1 × 3000 × 0.0002 = 0.6.
    expect(await byPair()).toEqual({ BTCUSDT: '-0.6', ETHUSDT: '0.6' });
    expect(await walletUsdt(rig)).toBe('9995.5');

    // The next funding time uses the mark of then, and a negative rate makes longs receive.
    rig.ex.setMarkPrice('BTCUSDT', '61000');
    rig.ex.market.setFundingRate('BTCUSDT', '-0.0001');
    rig.ex.advance(FUNDING_INTERVAL_MS);
    expect(await byPair()).toEqual({ BTCUSDT: '0.01', ETHUSDT: '1.2' }); // −0.6 + 6.1 × 0.1; 0.6 + 0.6
    expect(await walletUsdt(rig)).toBe('9996.71');
    expect(rig.ex.account(rig.accountId).balances['USDT']).toBe('9996.71');
    // Booked by the backend itself: no push, and nothing in myTrades or pnl-history.
    expect(seen).toEqual([]);
    const trades = await rig.call('GET', '/v2/futures/myTrades', { query: { symbol: 'BTCUSDT' } });
    expect(trades.body.data).toHaveLength(1);

    // Several funding times in one advance are all paid; the closed record keeps the position's total.
    rig.ex.advance(2 * FUNDING_INTERVAL_MS); // BTC receives 0.61 × 2
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.1' });
    const history = await rig.call('GET', '/v2/futures/positionHistory', { query: { symbol: 'BTCUSDT' } });
    expect(history.body.data[0]).toMatchObject({ symbol: 'BTCUSDT', fundingFee: '1.23', realizedPnL: '100' });
    const closed = (await rig.client.account.positions({ status: 'CLOSED' })).positions;
    expect(closed[0]).toMatchObject({ symbol: 'BTCUSDT', fundingFee: '1.23', realizedPnl: '100' });
  });

  it('pays nothing while the rate is null ("not cached"), nor for a position closed before the funding time', async () => {
    const rig = setup();
    rig.ex.market.setFundingRate('BTCUSDT', null);
    rig.ex.market.setFundingRate('ETHUSDT', '0.0001');
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1' }); // fee 3
    await rig.client.orders.create({ symbol: 'ETHUSDT', side: 'BUY', type: 'MARKET', quantity: '1' }); // fee 1.5
    rig.ex.advance(TO_FIRST_FUNDING - 1);
    await rig.client.orders.create({ symbol: 'ETHUSDT', side: 'SELL', type: 'MARKET', quantity: '1' }); // fee 1.5
    rig.ex.advance(1);
    expect((await rig.client.account.positions()).positions[0]!.fundingFee).toBe('0');
    const history = await rig.call('GET', '/v2/futures/positionHistory', { query: { symbol: 'ETHUSDT' } });
    expect(history.body.data[0].fundingFee).toBe('0');
    expect(await walletUsdt(rig)).toBe('9994');

    // Once the rate is published, the next funding time pays it.
    rig.ex.market.setFundingRate('BTCUSDT', '0.0001');
    rig.ex.advance(FUNDING_INTERVAL_MS);
    expect((await rig.client.account.positions()).positions[0]!.fundingFee).toBe('-0.6');
    expect(await walletUsdt(rig)).toBe('9993.4');
  });

  it('follows the published rate: the rate shown before a funding time is the one paid at it', async () => {
    const rig = setup();
    await rig.client.orders.create({ symbol: 'SOLUSDT', side: 'BUY', type: 'MARKET', quantity: '10' });
    rig.ex.advance(TO_FIRST_FUNDING - 1);
    const { fundingRate } = await rig.client.market.fundingRate({ symbol: 'SOLUSDT' });
    expect(fundingRate).toMatch(/^-?\d+\.\d+$/);
    const [before] = (await rig.client.account.positions()).positions;
    rig.ex.advance(1);
    const [after] = (await rig.client.account.positions()).positions;
    expect(before!.fundingFee).toBe('0');
    const expected = -Number(after!.quantity) * Number(after!.markPrice) * Number(fundingRate);
    expect(Number(after!.fundingFee)).toBeCloseTo(expected, 8);
    expect(Number(after!.fundingFee)).not.toBe(0);
  });
});
