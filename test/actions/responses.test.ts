import { describe, expect, it } from 'vitest';
import { ResponseValidationError, type WithUnknownFields } from '../../src/index.ts';
import { accountTrade, closedPositionRecord, order, position, specRoutes, transfer } from './_fixtures.ts';
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
    // Kept at run time; read through the escape hatch.
    expect((o as WithUnknownFields<typeof o>)['extra']).toEqual({ a: 1 });
    const res = await client.account.transfers();
    expect(res.transfers[0]?.status).toBe('REFUNDED');
    expect((res as WithUnknownFields<typeof res>)['page']).toBe(1);
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

  it("says what each bad field holds, in English, without touching the app's zod configuration", async () => {
    const body = { ok: true, order: order({ quantity: 0.01, side: 'LONG', venueOrderId: null, id: undefined }) };
    const { fetch } = recordingFetch({ 'GET /v2/orders/ord-1': { body } });
    const error = await testClient(fetch)
      .orders.get('ord-1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    const messages = Object.fromEntries(
      (error as ResponseValidationError).issues.map((i) => [i.path.join('.'), i.message]),
    );
    expect(messages).toEqual({
      'order.id': 'Invalid input: expected string, received undefined',
      'order.quantity': 'Invalid input: expected string, received number',
      'order.side': 'Invalid option: expected one of "BUY"|"SELL"',
      'order.venueOrderId': 'Invalid input: expected string, received null',
    });
    // The SDK passes its messages to each parse: a schema the app parses itself keeps zod's default.
    const { orderSchema } = await import('../../src/index.ts');
    expect(orderSchema.safeParse(body.order).error?.issues[0]?.message).toBe('Invalid input');
  });

  it.each([
    [
      'an order without source',
      'GET /v2/orders/ord-1',
      { ok: true, order: { ...order(), source: undefined } },
      'order.source',
    ],
    [
      'an order without venueOrderId',
      'GET /v2/orders/ord-1',
      { ok: true, order: order({ venueOrderId: null }) },
      'order.venueOrderId',
    ],
    ['an unknown order type', 'GET /v2/orders/ord-1', { ok: true, order: order({ type: 'ICEBERG' }) }, 'order.type'],
    ['an unknown order side', 'GET /v2/orders/ord-1', { ok: true, order: order({ side: 'LONG' }) }, 'order.side'],
    [
      'an unknown positionSide on an order',
      'GET /v2/orders/ord-1',
      { ok: true, order: order({ positionSide: 'NET' }) },
      'order.positionSide',
    ],
    [
      'a transfer without venueTransferId',
      'GET /v2/me/transfers',
      { ok: true, transfers: [{ ...transfer(), venueTransferId: undefined }], total: 1 },
      'transfers.0.venueTransferId',
    ],
    [
      'an unknown marginMode',
      'GET /v2/positions',
      { ok: true, positions: [position({ marginMode: 'PORTFOLIO' })] },
      'positions.0.marginMode',
    ],
    [
      'a cancel without its venue object',
      'POST /v2/orders/ord-1/cancel',
      { ok: true, order: order({ status: 'CANCELED' }) },
      'venue',
    ],
  ])('rejects %s (required field or closed enum of the spec)', async (_name, route, body, field) => {
    const { fetch } = recordingFetch({ [route]: { body } });
    const client = testClient(fetch);
    const call =
      route === 'GET /v2/me/transfers'
        ? client.account.transfers()
        : route === 'GET /v2/positions'
          ? client.account.positions()
          : route.startsWith('POST')
            ? client.orders.cancel('ord-1')
            : client.orders.get('ord-1');
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((i) => i.path.join('.'))).toEqual([field]);
  });

  it('keeps a null clientOrderId and unknown position status / closeReason values', async () => {
    const { fetch } = recordingFetch({
      'GET /v2/orders/ord-1': { body: { ok: true, order: order({ clientOrderId: null, price: null }) } },
      'GET /v2/positions': {
        body: { ok: true, positions: [position({ status: 'LIQUIDATING', closeReason: 'SOMETHING_NEW' })] },
      },
    });
    const client = testClient(fetch);
    expect((await client.orders.get('ord-1')).order.clientOrderId).toBeNull();
    const [kept] = (await client.account.positions()).positions;
    expect(kept?.closeReason).toBe('SOMETHING_NEW');
    expect(kept?.status).toBe('LIQUIDATING');
  });

  it('setter echoes are the closed enums of the spec', async () => {
    const { fetch } = recordingFetch({
      'POST /v2/futures/margin-type': { body: { ok: true, data: { marginType: 'PORTFOLIO', symbol: 'BTCUSDT' } } },
      'POST /v2/futures/position-mode': { body: { ok: true, data: { positionMode: 'BOTH' } } },
    });
    const client = testClient(fetch);
    await expect(client.futures.setMarginType({ symbol: 'BTCUSDT', marginType: 'ISOLATED' })).rejects.toBeInstanceOf(
      ResponseValidationError,
    );
    await expect(client.futures.setPositionMode({ positionMode: 'HEDGE' })).rejects.toBeInstanceOf(
      ResponseValidationError,
    );
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

  it('a candle with any item of the wrong kind, or one too many, is a ResponseValidationError at that candle', async () => {
    const good = specRoutes()['GET /v2/klines'].body.data[0]!;
    const bad = [
      ...good.map((item, index) =>
        good.map((other, at) => (at === index ? (typeof item === 'number' ? String(item) : 1) : other)),
      ),
      good.map((item, index) => (index === 0 ? 1.5 : item)),
      [...good, '0'],
    ];
    for (const candle of bad) {
      const { fetch } = recordingFetch({ 'GET /v2/klines': { body: { ok: true, data: [good, candle] } } });
      const error = await testClient(fetch)
        .market.klines({ symbol: 'BTCUSDT', interval: '1m' })
        .catch((caught: unknown) => caught);
      expect(error, JSON.stringify(candle)).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).issues[0]?.path).toEqual(['data', 1]);
    }
  });

  it('a book level must be [price, quantity] strings', async () => {
    const depth = (asks: unknown[]) =>
      recordingFetch({ 'GET /v2/depth': { body: { ok: true, symbol: 'BTCUSDT', bids: [['1', '2']], asks } } }).fetch;
    await expect(testClient(depth([['3', '4']])).market.depth({ symbol: 'BTCUSDT' })).resolves.toMatchObject({
      asks: [['3', '4']],
    });
    for (const level of [['1'], ['1', 2], ['1', '2', '3'], { 0: '1', 1: '2', length: 2 }]) {
      await expect(testClient(depth([level])).market.depth({ symbol: 'BTCUSDT' })).rejects.toBeInstanceOf(
        ResponseValidationError,
      );
    }
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
