import { describe, expect, it } from 'vitest';
import { setup, signedFetch } from './_helpers.ts';

describe('balances', () => {
  it('GET /v2/futures/balance: wallet, available after margin, unrealized; sub-account errors', async () => {
    const rig = setup();
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1' }); // fee 3
    rig.ex.setMarkPrice('BTCUSDT', '61000');
    const res = await rig.call('GET', '/v2/futures/balance');
    expect(res.body).toEqual({
      ok: true,
      balances: {
        assets: [
          {
            asset: 'USDT',
            walletBalance: '9997',
            availableBalance: '9792', // 9997 + 100 − 6100 / 20
            marginBalance: '10097',
            unrealizedProfit: '100',
            crossWalletBalance: '9997',
          },
        ],
      },
    });
    const other = rig.ex.createAccount();
    const foreign = await rig.call('GET', '/v2/futures/balance', { query: { subAccountId: other.subAccountId } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe('Unauthorized subAccountId');
    const bare = rig.ex.createAccount({ subAccount: false });
    const bareKey = rig.ex.createApiKey(bare.accountId);
    const none = await signedFetch(rig.ex, bareKey, 'GET', '/v2/futures/balance');
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('No sub account found');
  });

  it('GET /v2/accounts/:id/balances: array shape, raw shape, 404 for another account', async () => {
    const rig = setup();
    const spot = rig.ex.createAccount({ spotBalances: { USDT: '12.5', BTC: '0.1' } });
    const key = rig.ex.createApiKey(spot.accountId, { permissions: ['READ_ONLY'] });
    const res = await signedFetch(rig.ex, key, 'GET', `/v2/accounts/${spot.accountId}/balances`);
    expect(res.body).toEqual({
      ok: true,
      balances: [
        { asset: 'USDT', free: '12.5', locked: '0' },
        { asset: 'BTC', free: '0.1', locked: '0' },
      ],
    });
    expect((await signedFetch(rig.ex, key, 'GET', `/v2/accounts/${rig.accountId}/balances`)).status).toBe(404);
    const raw = rig.ex.createAccount({ spotBalances: { USDT: '1' }, spotShape: 'raw' });
    const rawKey = rig.ex.createApiKey(raw.accountId);
    const rawRes = await signedFetch(rig.ex, rawKey, 'GET', `/v2/accounts/${raw.accountId}/balances`);
    expect(Array.isArray(rawRes.body.balances)).toBe(false);
    expect(rawRes.body.balances.assets).toEqual([{ asset: 'USDT', free: '1', locked: '0' }]);
  });
});

describe('transfers and activities', () => {
  it('a deposit is PENDING, then SUCCESS after 2 s of server time, and only then credited', async () => {
    const rig = setup();
    const t = rig.ex.deposit(rig.accountId, 'USDT', '500');
    expect(t['status']).toBe('PENDING');
    expect(rig.ex.account(rig.accountId).balances['USDT']).toBe('10000');
    let list = await rig.call('GET', '/v2/me/transfers');
    expect(list.body.transfers[0]).toMatchObject({ id: t['id'], status: 'PENDING', transferType: 1, amount: '500' });
    rig.ex.advance(2_000);
    list = await rig.call('GET', '/v2/me/transfers');
    expect(list.body.transfers[0].status).toBe('SUCCESS');
    expect(rig.ex.account(rig.accountId).balances['USDT']).toBe('10500');
  });

  it('a withdrawal is debited at once; a failing one ends FAILED and is refunded; a failing deposit credits nothing', async () => {
    const rig = setup();
    const ok = rig.ex.withdraw(rig.accountId, 'USDT', '100');
    const failed = rig.ex.withdraw(rig.accountId, 'USDT', '50', { fail: true });
    const deposit = rig.ex.deposit(rig.accountId, 'USDT', '70', { fail: true });
    expect(rig.ex.account(rig.accountId).balances['USDT']).toBe('9850');
    let list = await rig.call('GET', '/v2/me/transfers');
    expect(list.body.transfers.map((t: { status: string }) => t.status)).toEqual(['PENDING', 'PENDING', 'PENDING']);
    rig.ex.advance(2_000);
    list = await rig.call('GET', '/v2/me/transfers');
    const status = Object.fromEntries(list.body.transfers.map((t: { id: string; status: string }) => [t.id, t.status]));
    expect(status).toEqual({
      [ok['id'] as string]: 'SUCCESS',
      [failed['id'] as string]: 'FAILED',
      [deposit['id'] as string]: 'FAILED',
    });
    expect(rig.ex.account(rig.accountId).balances['USDT']).toBe('9900');
    const { totals } = (await rig.call('GET', '/v2/me/activities')).body;
    expect(totals).toMatchObject({ totalWithdrawals: '100', totalWithdrawalCount: 1, totalDepositCount: 0 });
  });

  it('GET /v2/me/transfers pages with skip/take (≤ 100) and filters by type', async () => {
    const rig = setup();
    for (let i = 1; i <= 3; i++) rig.ex.deposit(rig.accountId, 'USDT', String(i));
    rig.ex.withdraw(rig.accountId, 'USDT', '7');
    const all = await rig.call('GET', '/v2/me/transfers', { query: { skip: 1, take: 2 } });
    expect(all.body.total).toBe(4);
    expect(all.body.transfers.map((t: { amount: string }) => t.amount)).toEqual(['3', '2']);
    const withdrawals = await rig.call('GET', '/v2/me/transfers', { query: { type: 'withdraw' } });
    expect(withdrawals.body.transfers).toEqual([expect.objectContaining({ amount: '7', transferType: 2 })]);
    expect((await rig.call('GET', '/v2/me/transfers', { query: { take: 101 } })).status).toBe(400);
    expect((await rig.call('GET', '/v2/me/transfers', { query: { type: 'both' } })).status).toBe(400);
  });

  it('GET /v2/me/activities: entries under data, totals independent of paging', async () => {
    const rig = setup();
    rig.ex.deposit(rig.accountId, 'USDT', '100');
    rig.ex.advance(1);
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1' });
    rig.ex.advance(1);
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.1', price: '70000' });
    const page1 = await rig.call('GET', '/v2/me/activities', { query: { skip: 0, take: 2 } });
    const page2 = await rig.call('GET', '/v2/me/activities', { query: { skip: 2, take: 2 } });
    expect(page1.body.total).toBe(4); // 2 orders, 1 execution, 1 transfer
    expect(page1.body.activities).toBeUndefined();
    // Newest first; an execution sorts before the order that produced it.
    expect(page1.body.data.map((e: { type: string }) => e.type)).toEqual(['ORDER', 'EXECUTION']);
    expect(page2.body.data.map((e: { type: string }) => e.type)).toEqual(['ORDER', 'TRANSFER']);
    expect(page1.body.data[0]).toEqual({
      type: 'ORDER',
      id: expect.any(String),
      data: expect.any(Object),
      ts: expect.any(String),
    });
    expect(page1.body.totals).toEqual(page2.body.totals);
    expect(page1.body.totals).toEqual({
      totalBuyVolume: '6000',
      totalSellVolume: '0',
      totalBuyCount: 1,
      totalSellCount: 0,
      totalOrderBuyCount: 1,
      totalOrderSellCount: 1,
      totalDeposits: '100',
      totalWithdrawals: '0',
      totalDepositCount: 1,
      totalWithdrawalCount: 0,
    });
  });
});

describe('trades and PnL history', () => {
  it('myTrades: taker rows only, integer ids per account, fromId strictly greater, symbol required', async () => {
    const rig = setup();
    for (let i = 0; i < 3; i++) {
      await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
    }
    const all = await rig.call('GET', '/v2/futures/myTrades', { query: { symbol: 'BTCUSDT' } });
    expect(all.body.data.map((t: { id: number }) => t.id)).toEqual([1, 2, 3]);
    const after = await rig.call('GET', '/v2/futures/myTrades', { query: { symbol: 'BTCUSDT', fromId: 2 } });
    expect(after.body.data.map((t: { id: number }) => t.id)).toEqual([3]);
    expect((await rig.call('GET', '/v2/futures/myTrades')).status).toBe(400);
    const other = setup();
    await other.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
    expect((await other.call('GET', '/v2/futures/myTrades', { query: { symbol: 'BTCUSDT' } })).body.data[0].id).toBe(1);
  });

  it('pnl-history: daily, weekly (Sunday), monthly buckets as JSON numbers with a summary', async () => {
    const rig = setup(); // 2026-05-01 (a Friday) 12:00 UTC
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1' }); // fee 3
    rig.ex.advance(2 * 86_400_000); // Sunday 2026-05-03
    rig.ex.setMarkPrice('BTCUSDT', '61000');
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.1' }); // +100, fee 3.05
    const daily = await rig.call('GET', '/v2/account/pnl-history');
    expect(daily.body.history).toEqual([
      { date: '2026-05-01', pnl: -3, volume: 6000, trades: 1 },
      { date: '2026-05-03', pnl: 96.95, volume: 6100, trades: 1 },
    ]);
    expect(daily.body.summary).toEqual({ totalPnl: 93.95, totalVolume: 12100, totalTrades: 2 });
    const weekly = await rig.call('GET', '/v2/account/pnl-history', { query: { period: 'weekly' } });
    expect(weekly.body.history.map((h: { date: string }) => h.date)).toEqual(['2026-04-26', '2026-05-03']);
    const monthly = await rig.call('GET', '/v2/account/pnl-history', { query: { period: 'monthly', limit: 1 } });
    expect(monthly.body.history).toEqual([{ date: '2026-05', pnl: 93.95, volume: 12100, trades: 2 }]);
    expect((await rig.call('GET', '/v2/account/pnl-history', { query: { period: 'yearly' } })).status).toBe(400);
  });

  it('pnl-history covers only the latest 1000 executions', async () => {
    const rig = setup({ balances: { USDT: '1000000' } });
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' }); // day 1
    rig.ex.advance(86_400_000);
    const batch = {
      orders: Array.from({ length: 5 }, () => ({ symbol: 'ETHUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' })),
    };
    for (let i = 0; i < 200; i++) {
      if (i === 100) rig.ex.advance(60_000); // the batch bucket allows 100 per minute
      rig.ex.advance(1);
      expect((await rig.call('POST', '/v2/orders/batch', { body: batch })).status).toBe(200);
    }
    const { history, summary } = (await rig.call('GET', '/v2/account/pnl-history')).body;
    expect(rig.ex.account(rig.accountId).trades).toHaveLength(1001);
    expect(history).toEqual([{ date: '2026-05-02', pnl: expect.any(Number), volume: 30000, trades: 1000 }]);
    expect(summary.totalTrades).toBe(1000);
  });
});
