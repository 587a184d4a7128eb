import { describe, expect, it } from 'vitest';
import { ResponseValidationError } from '../../src/index.ts';
import { accountTrade, closedPositionRecord, order, specRoutes, transfer } from './_fixtures.ts';
import { recordingFetch, testClient } from './_recording-fetch.ts';

describe('responses are validated and kept as the server sent them', () => {
  it('keeps unknown fields and unknown open-enum values', async () => {
    const { fetch } = recordingFetch({
      'GET /v2/orders/ord-1': { body: { ok: true, order: order({ status: 'EXPIRED_IN_MATCH', extra: { a: 1 } }) } },
      'GET /v2/me/transfers': { body: { ok: true, transfers: [transfer({ status: 'REFUNDED' })], total: 1, page: 1 } },
    });
    const client = testClient(fetch);
    const { order: o } = await client.orders.get('ord-1');
    expect(o.status).toBe('EXPIRED_IN_MATCH');
    expect(o['extra']).toEqual({ a: 1 });
    const res = await client.account.transfers();
    expect(res.transfers[0]?.status).toBe('REFUNDED');
    expect(res['page']).toBe(1);
  });

  it.each([
    ['a missing required field', { ok: true, order: { ...order(), id: undefined } }, 'order.id'],
    ['a wrong type', { ok: true, order: order({ quantity: 0.01 }) }, 'order.quantity'],
  ])('rejects %s with ResponseValidationError carrying the body', async (_name, body, field) => {
    const { fetch } = recordingFetch({ 'GET /v2/orders/ord-1': { body } });
    const error = await testClient(fetch)
      .orders.get('ord-1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((i) => i.path.join('.'))).toContain(field);
    expect((error as ResponseValidationError).body).toEqual(JSON.parse(JSON.stringify(body)));
  });

  it('types transferType, account-trade id and orderSide as the integers the spec documents', async () => {
    const { fetch } = recordingFetch({
      'GET /v2/me/transfers': { body: { ok: true, transfers: [transfer({ transferType: 3 })], total: 1 } },
      'GET /v2/futures/myTrades': { body: { ok: true, data: [accountTrade({ id: '7' })] } },
      'GET /v2/futures/positionHistory': { body: { ok: true, data: [closedPositionRecord({ orderSide: 'LONG' })] } },
    });
    const client = testClient(fetch);
    await expect(client.account.transfers()).rejects.toBeInstanceOf(ResponseValidationError);
    await expect(client.orders.myTrades({ symbol: 'BTCUSDT' })).rejects.toBeInstanceOf(ResponseValidationError);
    await expect(client.orders.positionHistory()).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('spotBalances parses both the array and the raw upstream object', async () => {
    const raw = { USDT: { free: '1', locked: '0' }, updateTime: 1 };
    const { fetch } = recordingFetch({
      'GET /v2/accounts/acc-1/balances': [
        specRoutes()['GET /v2/accounts/acc-1/balances'],
        { body: { ok: true, balances: raw } },
      ],
    });
    const client = testClient(fetch);
    const first = await client.account.spotBalances('acc-1');
    expect(first.balances).toEqual([{ asset: 'USDT', free: '10', locked: '0' }]);
    const second = await client.account.spotBalances('acc-1');
    expect(second.balances).toEqual(raw);
  });

  it('closePosition resolves both the submitted and the reconciled shape', async () => {
    const { fetch } = recordingFetch({
      'POST /v2/positions/close': [
        specRoutes()['POST /v2/positions/close'],
        { body: { ok: true, closed: { symbol: 'BTCUSDT', reconciled: true, remainingPosition: '0' } } },
      ],
    });
    const client = testClient(fetch);
    const submitted = await client.orders.closePosition({ positionId: 'pos-1' });
    expect(submitted.closed).toEqual({ symbol: 'BTCUSDT', side: 'SELL', quantity: '0.01', remainingPosition: '0' });
    const reconciled = await client.orders.closePosition({ positionId: 'pos-1' });
    expect(reconciled.closed.reconciled).toBe(true);
    expect(reconciled).not.toHaveProperty('venue');
  });

  it('pnlHistory keeps numbers as numbers; other amounts stay strings', async () => {
    const { fetch } = recordingFetch(specRoutes());
    const client = testClient(fetch);
    const pnl = await client.account.pnlHistory();
    expect(pnl.summary.totalPnl).toBe(12.5);
    expect(pnl.history[0]?.volume).toBe(600);
    const { balances } = await client.account.balance();
    expect(balances.assets[0]?.availableBalance).toBe('900');
  });

  it('fundingRate may be null', async () => {
    const { fetch } = recordingFetch({
      'GET /v2/funding-rate': { body: { ok: true, symbol: 'BTCUSDT', fundingRate: null } },
    });
    await expect(testClient(fetch).market.fundingRate({ symbol: 'BTCUSDT' })).resolves.toEqual({
      ok: true,
      symbol: 'BTCUSDT',
      fundingRate: null,
    });
  });

  it('klines must be 12-element candles', async () => {
    const short = specRoutes()['GET /v2/klines'].body.data[0]!.slice(0, 11);
    const { fetch } = recordingFetch({ 'GET /v2/klines': { body: { ok: true, data: [short] } } });
    await expect(testClient(fetch).market.klines({ symbol: 'BTCUSDT', interval: '1m' })).rejects.toBeInstanceOf(
      ResponseValidationError,
    );
  });

  it.each(['volume', 'referrals', 'commission'] as const)('leaderboard rows follow type %s', async (type) => {
    const { fetch } = recordingFetch(specRoutes());
    const res = await testClient(fetch).market.leaderboard({ type });
    expect(res.type).toBe(type);
    expect(res.data[0]).toMatchObject({ rank: 1, walletAddress: '0xabc' });
  });

  it('leaderboard rejects rows of another type than requested', async () => {
    const { fetch } = recordingFetch({
      'GET /v2/leaderboard': {
        body: {
          ok: true,
          type: 'referrals',
          period: 'all',
          data: [{ rank: 1, walletAddress: 'w', userId: 'u', referralCount: 1 }],
        },
      },
    });
    await expect(testClient(fetch).market.leaderboard({ type: 'volume' })).rejects.toBeInstanceOf(
      ResponseValidationError,
    );
  });

  it('activities narrow on type and keep execution records as sent', async () => {
    const { fetch } = recordingFetch(specRoutes());
    const { data, total, totals } = await testClient(fetch).account.activities();
    expect(total).toBe(3);
    expect(totals.totalDepositCount).toBe(1);
    const kinds = data.map((a) => a.type);
    expect(kinds).toEqual(['ORDER', 'TRANSFER', 'EXECUTION']);
    const execution = data.find((a) => a.type === 'EXECUTION');
    expect(execution?.data).toEqual({ price: '60000' });
  });

  it('batch results narrow on success', async () => {
    const { fetch } = recordingFetch(specRoutes());
    const { results } = await testClient(fetch).orders.createBatch([
      { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' },
      { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' },
    ]);
    const [ok, failed] = results;
    expect(ok?.success && ok.orderId).toBe('ord-1');
    expect(failed?.success === false && failed.error).toBe('Insufficient balance');
  });
});
