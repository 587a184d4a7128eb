import { BadRequestError, ConflictError } from 'futures-sdk';
import type { AccountEvent } from 'futures-sdk/testing';
import { describe, expect, it } from 'vitest';
import { clientFor, type Rig, setup, signedFetch } from './_helpers.ts';

function events(rig: Rig): AccountEvent[] {
  const list: AccountEvent[] = [];
  rig.ex.subscribeAccount(rig.accountId, (e) => list.push(e));
  return list;
}

const limitBuy = (price: string, quantity = '0.01') => ({
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  quantity,
  price,
});

describe('MARKET orders (taker fills)', () => {
  it('fill at once at the mark: NEW in the response, FILLED after, a myTrades row with taker commission', async () => {
    const rig = setup();
    const seen = events(rig);
    const { order, venue } = await rig.client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.01',
    });
    expect(order.status).toBe('NEW');
    expect(order.source).toBe('API');
    expect(venue).toBeDefined();
    const got = await rig.call('GET', `/v2/orders/${order.id}`);
    expect(got.body.order.status).toBe('FILLED');
    const trades = await rig.call('GET', '/v2/futures/myTrades', { query: { symbol: 'BTCUSDT' } });
    expect(trades.body.data).toEqual([
      expect.objectContaining({
        id: 1,
        orderId: order.id,
        side: 'BUY',
        price: '60000',
        qty: '0.01',
        quoteQty: '600',
        commission: '0.3', // 0.05 % taker
        commissionAsset: 'USDT',
        isMaker: false,
        isBuyer: true,
        positionSide: 'BOTH',
      }),
    ]);
    const { positions } = await rig.client.account.positions();
    expect(positions).toHaveLength(1);
    expect(positions[0]).toMatchObject({ symbol: 'BTCUSDT', quantity: '0.01', avgEntryPrice: '60000', status: 'OPEN' });
    expect(seen.map((e) => e.event)).toEqual(['order_new', 'order_update', 'position_update']);
    expect(seen[2]!.data).toMatchObject({ symbol: 'BTCUSDT', quantity: '0.01', positionSide: 'BOTH' });
  });

  it('computes initial margin, maintenance margin, unrealized PnL and a liquidation price', async () => {
    const rig = setup();
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1' });
    rig.ex.setMarkPrice('BTCUSDT', '61000');
    const [p] = (await rig.client.account.positions()).positions;
    expect(p).toMatchObject({
      markPrice: '61000',
      unrealizedPnl: '100',
      initialMargin: '305', // 6100 / 20
      maintenanceMargin: '30.5', // 0.5 %
      leverage: 20,
      marginMode: 'CROSSED',
      liquidationPrice: '57300', // 60000 × (1 − 1/20 + 0.005)
    });
  });
});

describe('LIMIT orders and maker fills', () => {
  it('rest as NEW and appear in open-orders with venue field names', async () => {
    const rig = setup();
    const { order } = await rig.client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.01',
      price: '59000',
    });
    expect(order.status).toBe('NEW');
    const open = await rig.call('GET', '/v2/futures/open-orders');
    expect(open.body.orders).toEqual([
      expect.objectContaining({
        symbol: 'BTCUSDT',
        orderId: Number(order.venueOrderId),
        side: 'BUY',
        type: 'LIMIT',
        price: '59000',
        origQty: '0.01',
        executedQty: '0',
        status: 'NEW',
        time: rig.ex.now(),
      }),
    ]);
  });

  it('a maker fill moves the venue at once, but the DB, order status and position_update only on the sync tick', async () => {
    const rig = setup();
    const seen = events(rig);
    const { order } = await rig.client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.02',
      price: '59000',
    });
    seen.length = 0;
    rig.ex.fillOrder(order.id, '0.01');
    expect(rig.ex.account(rig.accountId).venuePositions).toEqual([expect.objectContaining({ quantity: '0.01' })]);
    expect((await rig.client.account.positions()).positions).toEqual([]);
    expect((await rig.call('GET', `/v2/orders/${order.id}`)).body.order.status).toBe('NEW');
    expect((await rig.call('GET', '/v2/futures/open-orders')).body.orders[0]).toMatchObject({
      status: 'PARTIALLY_FILLED',
      executedQty: '0.01',
    });
    expect(seen).toEqual([]);
    rig.ex.advance(5_000);
    expect(seen.map((e) => e.event)).toEqual(['position_update']);
    expect(seen[0]!.data).toMatchObject({ symbol: 'BTCUSDT', quantity: '0.01' });
    expect((await rig.call('GET', `/v2/orders/${order.id}`)).body.order.status).toBe('PARTIALLY_FILLED');
    expect((await rig.client.account.positions()).positions[0]).toMatchObject({
      quantity: '0.01',
      avgEntryPrice: '59000',
    });
    // No myTrades row for a maker fill, ever.
    expect((await rig.call('GET', '/v2/futures/myTrades', { query: { symbol: 'BTCUSDT' } })).body.data).toEqual([]);
    rig.ex.fillOrder(order.id);
    rig.ex.advance(5_000);
    expect((await rig.call('GET', `/v2/orders/${order.id}`)).body.order.status).toBe('FILLED');
    expect(seen.filter((e) => e.event === 'order_update')).toEqual([]);
    // Maker commission 0.02 % of 1180.
    expect(rig.ex.account(rig.accountId).balances['USDT']).toBe('9999.764');
  });

  it('fills as maker when the mark crosses the limit price', async () => {
    const rig = setup();
    const { order } = await rig.client.orders.create({
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'LIMIT',
      quantity: '0.01',
      price: '61000',
    });
    rig.ex.setMarkPrice('BTCUSDT', '60999');
    expect(rig.ex.account(rig.accountId).venueOrderStatus[order.id]).toBe('NEW');
    rig.ex.setMarkPrice('BTCUSDT', '61000');
    expect(rig.ex.account(rig.accountId).venueOrderStatus[order.id]).toBe('FILLED');
    expect(rig.ex.account(rig.accountId).venuePositions[0]).toMatchObject({
      quantity: '-0.01',
      avgEntryPrice: '61000',
    });
  });

  it('a marketable LIMIT fills at once as a taker at the mark', async () => {
    const rig = setup();
    const { order } = await rig.client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.01',
      price: '61000',
    });
    expect((await rig.call('GET', `/v2/orders/${order.id}`)).body.order).toMatchObject({
      status: 'FILLED',
      avgPrice: '60000',
    });
    expect((await rig.call('GET', '/v2/futures/myTrades', { query: { symbol: 'BTCUSDT' } })).body.data).toHaveLength(1);
  });
});

describe('conditional orders', () => {
  it('STOP_MARKET rests until the mark crosses stopPrice (direction by side), then fills as taker', async () => {
    const rig = setup();
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
    const { order } = await rig.client.orders.create({
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'STOP_MARKET',
      quantity: '0.01',
      stopPrice: '59000',
    });
    rig.ex.setMarkPrice('BTCUSDT', '59500');
    expect((await rig.call('GET', `/v2/orders/${order.id}`)).body.order.status).toBe('NEW');
    rig.ex.setMarkPrice('BTCUSDT', '58900');
    expect((await rig.call('GET', `/v2/orders/${order.id}`)).body.order.status).toBe('FILLED');
    expect((await rig.client.account.positions()).positions).toEqual([]);
    const closed = await rig.call('GET', '/v2/positions', { query: { status: 'CLOSED' } });
    expect(closed.body.positions[0]).toMatchObject({ status: 'CLOSED', closeReason: 'STOP_LOSS', realizedPnl: '-11' });
    expect(closed.body.positions[0].closedAt).toBe(new Date(rig.ex.now()).toISOString());
  });

  it('TAKE_PROFIT_MARKET on a long fires on a rise', async () => {
    const rig = setup();
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
    const { order } = await rig.client.orders.create({
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'TAKE_PROFIT_MARKET',
      quantity: '0.01',
      stopPrice: '62000',
    });
    rig.ex.setMarkPrice('BTCUSDT', '59000');
    expect((await rig.call('GET', `/v2/orders/${order.id}`)).body.order.status).toBe('NEW');
    rig.ex.setMarkPrice('BTCUSDT', '62000');
    expect((await rig.call('GET', `/v2/orders/${order.id}`)).body.order.status).toBe('FILLED');
  });

  it('STOP (limit) triggers, then rests at its price and fills as maker when the mark reaches it', async () => {
    const rig = setup();
    const { order } = await rig.client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'STOP',
      quantity: '0.01',
      stopPrice: '61000',
      price: '60500',
    });
    rig.ex.setMarkPrice('BTCUSDT', '61000'); // triggers; 60500 is below the mark, so it rests
    expect(rig.ex.account(rig.accountId).venueOrderStatus[order.id]).toBe('NEW');
    rig.ex.setMarkPrice('BTCUSDT', '60500');
    expect(rig.ex.account(rig.accountId).venueOrderStatus[order.id]).toBe('FILLED');
    expect(rig.ex.account(rig.accountId).venuePositions[0]).toMatchObject({ quantity: '0.01', avgEntryPrice: '60500' });
    expect(rig.ex.account(rig.accountId).trades).toEqual([]);
  });

  it('refuses a stop that would trigger immediately', async () => {
    const rig = setup();
    const res = await rig.call('POST', '/v2/orders', {
      body: { symbol: 'BTCUSDT', side: 'BUY', type: 'STOP_MARKET', quantity: '0.01', stopPrice: '59000' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/immediately trigger/);
  });
});

describe('closing-order reservation', () => {
  it.each([
    [false, 'TAKE_PROFIT_MARKET then STOP_MARKET'],
    [true, 'STOP_MARKET then TAKE_PROFIT_MARKET, reduceOnly'],
  ])('a second closing order on a covered position fails (reduceOnly %s: %s)', async (reduceOnly, _label) => {
    const rig = setup();
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
    const tp = {
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'TAKE_PROFIT_MARKET',
      quantity: '0.01',
      stopPrice: '65000',
      reduceOnly,
    };
    const sl = {
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'STOP_MARKET',
      quantity: '0.01',
      stopPrice: '55000',
      reduceOnly,
    };
    const [first, second] = reduceOnly ? [sl, tp] : [tp, sl];
    expect((await rig.call('POST', '/v2/orders', { body: first })).status).toBe(200);
    const res = await rig.call('POST', '/v2/orders', { body: second });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Close quantity exceeds available position quantity');
  });

  it('even a partial closing order reserves the whole position', async () => {
    const rig = setup();
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.02' });
    const half = { symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_MARKET', quantity: '0.01', stopPrice: '55000' };
    expect((await rig.call('POST', '/v2/orders', { body: half })).status).toBe(200);
    const err = await rig.client.orders
      .create({ symbol: 'BTCUSDT', side: 'SELL', type: 'TAKE_PROFIT_MARKET', quantity: '0.01', stopPrice: '65000' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).error).toBe('Close quantity exceeds available position quantity');
  });
});

describe('order placement rules', () => {
  it('rejects insufficient balance with 400 and places nothing', async () => {
    const rig = setup({ balances: { USDT: '100' } });
    // 0.1 × 60000 / 20 = 300 USDT margin > 100.
    const res = await rig.call('POST', '/v2/orders', { body: limitBuy('59000', '0.1') });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/Insufficient balance/);
    expect(rig.ex.account(rig.accountId).orders).toEqual([]);
  });

  it('resting orders reserve margin for later ones', async () => {
    const rig = setup({ balances: { USDT: '100' } });
    expect((await rig.call('POST', '/v2/orders', { body: limitBuy('50000', '0.03') })).status).toBe(200); // 75
    expect((await rig.call('POST', '/v2/orders', { body: limitBuy('50000', '0.01') })).status).toBe(200); // 25
    expect((await rig.call('POST', '/v2/orders', { body: limitBuy('50000', '0.001') })).status).toBe(400);
  });

  it('rejects an order over the max notional with reason max_order_notional_exceeded; per-account override', async () => {
    const rig = setup({ balances: { USDT: '100000000' } });
    const big = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '200', price: '50001' }; // 10,000,200
    const res = await rig.call('POST', '/v2/orders', { body: big });
    expect(res.status).toBe(400);
    expect(res.body.reason).toBe('max_order_notional_exceeded');
    expect((await rig.call('POST', '/v2/orders', { body: { ...big, price: '50000' } })).status).toBe(200);
    rig.ex.setMaxOrderNotional(rig.accountId, '500000');
    const small = await rig.call('POST', '/v2/orders', { body: { ...big, quantity: '11', price: '50000' } });
    expect(small.body.reason).toBe('max_order_notional_exceeded');
  });

  it.each([
    [{ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01' }, /price/],
    [{ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '-1' }, /quantity/],
    [{ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: 0.01 }, /quantity/],
    [{ symbol: 'BTCUSDT', side: 'HOLD', type: 'MARKET', quantity: '1' }, /side/],
    [{ symbol: 'BTCUSDT', side: 'BUY', type: 'ICEBERG', quantity: '1' }, /type/],
    [{ symbol: 'NOPEUSDT', side: 'BUY', type: 'MARKET', quantity: '1' }, /symbol/i],
    [{ symbol: 'BTCUSDT', side: 'BUY', type: 'STOP_MARKET', quantity: '1' }, /stopPrice/],
    [{ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1', positionSide: 'LONG' }, /hedge/i],
  ])('validation: %j → 400', async (body, error) => {
    const rig = setup();
    const res = await rig.call('POST', '/v2/orders', { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(error);
  });

  it('replays a reused clientOrderId of the same account (200, idempotent, same order) and 409s another account', async () => {
    const rig = setup();
    const clientOrderId = '7c1f6f38-3d5e-4b8a-9d0e-1a2b3c4d5e6f';
    const first = await rig.call('POST', '/v2/orders', { body: { ...limitBuy('59000'), clientOrderId } });
    const again = await rig.call('POST', '/v2/orders', { body: { ...limitBuy('58000'), clientOrderId } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ok: true, order: first.body.order, idempotent: true });
    expect(rig.ex.account(rig.accountId).orders).toHaveLength(1);
    const other = rig.ex.createAccount({ balances: { USDT: '10000' } });
    const otherKey = rig.ex.createApiKey(other.accountId);
    const conflict = await signedFetch(rig.ex, otherKey, 'POST', '/v2/orders', {
      body: { ...limitBuy('59000'), clientOrderId },
    });
    expect(conflict.status).toBe(409);
    const otherClient = clientFor(rig.ex, otherKey);
    await expect(
      otherClient.orders.create({
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        quantity: '0.01',
        price: '59000',
        clientOrderId,
      }),
    ).rejects.toBeInstanceOf(ConflictError);
  });

  it('a request dropped after processing (reset) is safely retried by the client through its clientOrderId', async () => {
    const rig = setup();
    rig.ex.faults.add({ method: 'POST', path: '/v2/orders', reset: true });
    const client = clientFor(rig.ex, rig.creds, { retry: { limit: 2, baseDelayMs: 1, maxDelayMs: 2 } });
    const res = await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.01',
      price: '59000',
    });
    expect(res.idempotent).toBe(true);
    expect(rig.ex.account(rig.accountId).orders).toHaveLength(1);
  });
});

describe('POST /v2/orders/batch', () => {
  it('places up to 5 items with per-item results, failures included', async () => {
    const rig = setup();
    const res = await rig.call('POST', '/v2/orders/batch', {
      body: {
        orders: [
          limitBuy('59000'),
          { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01' },
          limitBuy('58000'),
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { index: 0, success: true, orderId: expect.any(String), symbol: 'BTCUSDT', status: 'NEW' },
      { index: 1, success: false, error: expect.stringMatching(/price/) },
      { index: 2, success: true, orderId: expect.any(String), symbol: 'BTCUSDT', status: 'NEW' },
    ]);
  });

  it('rejects 0 or 6 items', async () => {
    const rig = setup();
    expect((await rig.call('POST', '/v2/orders/batch', { body: { orders: [] } })).status).toBe(400);
    const six = Array.from({ length: 6 }, () => limitBuy('59000'));
    expect((await rig.call('POST', '/v2/orders/batch', { body: { orders: six } })).status).toBe(400);
  });

  it('checks margin cumulatively: each item fits, the batch does not → 400 and nothing placed', async () => {
    const rig = setup({ balances: { USDT: '100' } });
    const item = limitBuy('50000', '0.03'); // 75 USDT each
    const res = await rig.call('POST', '/v2/orders/batch', { body: { orders: [item, item] } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/cumulative/);
    expect(rig.ex.account(rig.accountId).orders).toEqual([]);
  });

  it('marks a reused clientOrderId idempotent per item', async () => {
    const rig = setup();
    const clientOrderId = 'a6f1f0c2-1111-4222-8333-944455556666';
    const first = await rig.call('POST', '/v2/orders', { body: { ...limitBuy('59000'), clientOrderId } });
    const res = await rig.call('POST', '/v2/orders/batch', {
      body: { orders: [{ ...limitBuy('59000'), clientOrderId }, limitBuy('58000')] },
    });
    expect(res.body.results[0]).toEqual({
      index: 0,
      success: true,
      orderId: first.body.order.id,
      symbol: 'BTCUSDT',
      status: 'NEW',
      idempotent: true,
    });
    expect(res.body.results[1].idempotent).toBeUndefined();
  });
});

describe('listing and cancelling', () => {
  it('GET /v2/orders filters and pages; GET /v2/orders/:id 404s for other users and for venueOrderId', async () => {
    const rig = setup();
    const ids: string[] = [];
    for (const price of ['59000', '58000', '57000'])
      ids.push((await rig.call('POST', '/v2/orders', { body: limitBuy(price) })).body.order.id);
    await rig.call('POST', `/v2/orders/${ids[0]}/cancel`);
    const page = await rig.call('GET', '/v2/orders', { query: { limit: 2, offset: 0 } });
    expect(page.body.total).toBe(3);
    expect(page.body.orders.map((o: { id: string }) => o.id)).toEqual([ids[2], ids[1]]);
    const canceled = await rig.call('GET', '/v2/orders', { query: { status: 'CANCELED' } });
    expect(canceled.body.orders.map((o: { id: string }) => o.id)).toEqual([ids[0]]);
    expect((await rig.call('GET', '/v2/orders', { query: { limit: 201 } })).status).toBe(400);

    const order = (await rig.call('GET', `/v2/orders/${ids[1]}`)).body.order;
    expect((await rig.call('GET', `/v2/orders/${order.venueOrderId}`)).status).toBe(404);
    const other = rig.ex.createAccount({ balances: { USDT: '1' } });
    const otherKey = rig.ex.createApiKey(other.accountId);
    expect((await signedFetch(rig.ex, otherKey, 'GET', `/v2/orders/${ids[1]}`)).status).toBe(404);
    expect((await signedFetch(rig.ex, otherKey, 'POST', `/v2/orders/${ids[1]}/cancel`)).status).toBe(404);
  });

  it('cancels by id or venueOrderId, pushing order_canceled', async () => {
    const rig = setup();
    const seen = events(rig);
    const a = (await rig.call('POST', '/v2/orders', { body: limitBuy('59000') })).body.order;
    const b = (await rig.call('POST', '/v2/orders', { body: limitBuy('58000') })).body.order;
    const byId = await rig.call('POST', `/v2/orders/${a.id}/cancel`);
    expect(byId.body.order.status).toBe('CANCELED');
    expect(byId.body.venue).toBeDefined();
    const byVenue = await rig.call('POST', `/v2/orders/${b.venueOrderId}/cancel`, { body: {} });
    expect(byVenue.body.order).toMatchObject({ id: b.id, status: 'CANCELED' });
    expect(seen.filter((e) => e.event === 'order_canceled')).toHaveLength(2);
    expect((await rig.call('POST', `/v2/orders/${a.id}/cancel`)).status).toBe(400);
    expect((await rig.call('POST', '/v2/orders/nope/cancel')).status).toBe(404);
  });

  it('DELETE /v2/orders/open cancels regular working orders only, reporting FAILED items', async () => {
    const rig = setup();
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
    const a = (await rig.call('POST', '/v2/orders', { body: limitBuy('59000') })).body.order;
    const b = (await rig.call('POST', '/v2/orders', { body: limitBuy('58000') })).body.order;
    const eth = (await rig.call('POST', '/v2/orders', { body: { ...limitBuy('2900'), symbol: 'ETHUSDT' } })).body.order;
    const stop = (
      await rig.call('POST', '/v2/orders', {
        body: { symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_MARKET', quantity: '0.01', stopPrice: '55000' },
      })
    ).body.order;
    rig.ex.faults.failCancel(b.id, 'Unknown order sent.');
    const res = await rig.call('DELETE', '/v2/orders/open', { query: { symbol: 'BTCUSDT' } });
    expect(res.body).toEqual({
      ok: true,
      canceled: 1,
      total: 2,
      results: [
        { orderId: a.id, symbol: 'BTCUSDT', status: 'CANCELED' },
        { orderId: b.id, symbol: 'BTCUSDT', status: 'FAILED', error: 'Unknown order sent.' },
      ],
    });
    const statuses = rig.ex.account(rig.accountId).venueOrderStatus;
    expect(statuses[b.id]).toBe('NEW');
    expect(statuses[eth.id]).toBe('NEW');
    expect(statuses[stop.id]).toBe('NEW');
  });

  it('DELETE /v2/orders/open with nothing open answers exactly { ok: true, canceled: 0 }', async () => {
    const rig = setup();
    const res = await rig.call('DELETE', '/v2/orders/open');
    expect(res.body).toEqual({ ok: true, canceled: 0 });
  });

  it('a cancel of an order the venue already filled (before sync) fails with the venue error', async () => {
    const rig = setup();
    const a = (await rig.call('POST', '/v2/orders', { body: limitBuy('59000') })).body.order;
    rig.ex.fillOrder(a.id);
    const res = await rig.call('POST', `/v2/orders/${a.id}/cancel`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Unknown order sent.');
  });
});

describe('PENDING_NEW (venueAckDelayMs)', () => {
  it('by default a new order is NEW everywhere at once', async () => {
    const rig = setup();
    const { order } = (await rig.call('POST', '/v2/orders', { body: limitBuy('59000') })).body;
    expect((await rig.call('GET', `/v2/orders/${order.id}`)).body.order.status).toBe('NEW');
  });

  it('GET /v2/orders(/:id) shows PENDING_NEW until the venue ack is recorded; the POST response says NEW', async () => {
    const rig = setup({ venueAckDelayMs: 500 });
    const seen = events(rig);
    const created = await rig.call('POST', '/v2/orders', { body: limitBuy('59000') });
    expect(created.body.order.status).toBe('NEW');
    const { id } = created.body.order;
    expect((await rig.call('GET', `/v2/orders/${id}`)).body.order.status).toBe('PENDING_NEW');
    const pending = await rig.call('GET', '/v2/orders', { query: { status: 'PENDING_NEW' } });
    expect(pending.body.orders.map((o: { id: string }) => o.id)).toEqual([id]);
    // The venue works it already.
    const venue = await rig.call('GET', '/v2/futures/open-orders');
    expect(venue.body.orders).toEqual([expect.objectContaining({ status: 'NEW', origQty: '0.01' })]);
    // Through the SDK too: the status is part of the typed Order.
    expect((await rig.client.orders.get(id)).order.status).toBe('PENDING_NEW');
    // A sync tick before the ack does not skip PENDING_NEW.
    rig.ex.sync();
    expect((await rig.call('GET', `/v2/orders/${id}`)).body.order.status).toBe('PENDING_NEW');

    rig.ex.advance(499);
    expect((await rig.call('GET', `/v2/orders/${id}`)).body.order.status).toBe('PENDING_NEW');
    rig.ex.advance(1);
    expect((await rig.call('GET', `/v2/orders/${id}`)).body.order.status).toBe('NEW');
    expect(seen.map((e) => [e.event, (e.data as { status: string }).status])).toEqual([
      ['order_new', 'NEW'],
      ['order_update', 'NEW'],
    ]);
  });

  it('a PENDING_NEW order can be cancelled, and a MARKET order fills before its ack matters', async () => {
    const rig = setup({ venueAckDelayMs: 1_000 });
    const { order } = (await rig.call('POST', '/v2/orders', { body: limitBuy('59000') })).body;
    const canceled = await rig.call('POST', `/v2/orders/${order.id}/cancel`);
    expect(canceled.body.order.status).toBe('CANCELED');
    const market = await rig.call('POST', '/v2/orders', {
      body: { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' },
    });
    expect(market.body.order.status).toBe('NEW');
    expect((await rig.call('GET', `/v2/orders/${market.body.order.id}`)).body.order.status).toBe('FILLED');
    rig.ex.advance(1_000);
    expect((await rig.call('GET', `/v2/orders/${order.id}`)).body.order.status).toBe('CANCELED');
    expect((await rig.call('GET', `/v2/orders/${market.body.order.id}`)).body.order.status).toBe('FILLED');
  });

  it('batch results say NEW while the rows are PENDING_NEW', async () => {
    const rig = setup({ venueAckDelayMs: 200 });
    const res = await rig.call('POST', '/v2/orders/batch', {
      body: { orders: [limitBuy('59000'), limitBuy('58000')] },
    });
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(['NEW', 'NEW']);
    const list = await rig.call('GET', '/v2/orders');
    expect(list.body.orders.map((o: { status: string }) => o.status)).toEqual(['PENDING_NEW', 'PENDING_NEW']);
  });
});
