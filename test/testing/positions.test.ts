import { ConflictError, MarginSwitchError } from 'futures-sdk';
import type { AccountEvent } from 'futures-sdk/testing';
import { describe, expect, it } from 'vitest';
import { clientFor, type Rig, setup } from './_helpers.ts';

function events(rig: Rig): AccountEvent[] {
  const list: AccountEvent[] = [];
  rig.ex.subscribeAccount(rig.accountId, (e) => list.push(e));
  return list;
}

async function openLong(rig: Rig, quantity = '0.1', symbol = 'BTCUSDT') {
  await rig.client.orders.create({ symbol, side: 'BUY', type: 'MARKET', quantity });
  const { positions } = await rig.client.account.positions();
  return positions.find((p) => p.symbol === symbol)!;
}

describe('positions', () => {
  it('weighted average entry, realized PnL on reduction, fees in the wallet, OPEN → CLOSED with history', async () => {
    const rig = setup();
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1' }); // @60000
    rig.ex.setMarkPrice('BTCUSDT', '63000');
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.2' }); // @63000
    let [p] = (await rig.client.account.positions()).positions;
    expect(p).toMatchObject({ quantity: '0.3', avgEntryPrice: '62000' });
    rig.ex.setMarkPrice('BTCUSDT', '64000');
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.1' });
    [p] = (await rig.client.account.positions()).positions;
    expect(p).toMatchObject({ quantity: '0.2', avgEntryPrice: '62000', realizedPnl: '200' });
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.2' });
    expect((await rig.client.account.positions()).positions).toEqual([]);
    const closed = (await rig.client.account.positions({ status: 'CLOSED' })).positions;
    expect(closed[0]).toMatchObject({ status: 'CLOSED', realizedPnl: '600', closeReason: 'ORDER', quantity: '0' });
    // Fees: 0.05 % of 6000 + 12600 + 6400 + 12800 = 18.9; PnL +600.
    expect(rig.ex.account(rig.accountId).balances['USDT']).toBe('10581.1');
    const history = await rig.call('GET', '/v2/futures/positionHistory');
    expect(history.body.data).toEqual([
      {
        symbol: 'BTCUSDT',
        orderSide: 1,
        totalClosedQuantity: '0.3',
        entryPrice: '62000',
        averageClosePrice: '64000',
        realizedPnL: '600',
        fee: '18.9',
        fundingFee: '0',
        openedAt: expect.any(String),
        closedAt: expect.any(String),
        liquidatedAt: null,
      },
    ]);
  });

  it('one-way mode flips a long into a short through zero (history for the closed leg)', async () => {
    const rig = setup();
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1' });
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.3' });
    const [p] = (await rig.client.account.positions()).positions;
    expect(p).toMatchObject({ quantity: '-0.2', positionSide: 'BOTH' });
    expect((await rig.call('GET', '/v2/futures/positionHistory')).body.data).toHaveLength(1);
  });

  it('hedge mode keeps LONG and SHORT apart and requires positionSide', async () => {
    const rig = setup({ positionMode: 'HEDGE' });
    const missing = await rig.call('POST', '/v2/orders', {
      body: { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1' },
    });
    expect(missing.status).toBe(400);
    await rig.client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.1',
      positionSide: 'LONG',
    });
    await rig.client.orders.create({
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'MARKET',
      quantity: '0.05',
      positionSide: 'SHORT',
    });
    const { positions } = await rig.client.account.positions();
    expect(positions.map((p) => [p.positionSide, p.quantity]).sort()).toEqual([
      ['LONG', '0.1'],
      ['SHORT', '-0.05'],
    ]);
  });

  it('GET /v2/risk/exposure sums |quantity| of open positions', async () => {
    const rig = setup();
    await openLong(rig, '0.1');
    await rig.client.orders.create({ symbol: 'ETHUSDT', side: 'SELL', type: 'MARKET', quantity: '2' });
    const res = await rig.call('GET', '/v2/risk/exposure');
    expect(res.body.grossExposure).toBe('2.1');
    expect(res.body.positions).toHaveLength(2);
  });

  it('liquidates when the mark crosses the liquidation price', async () => {
    const rig = setup();
    const p = await openLong(rig, '0.1');
    rig.ex.setMarkPrice('BTCUSDT', '57000');
    const closed = (await rig.client.account.positions({ status: 'CLOSED' })).positions;
    expect(closed[0]).toMatchObject({ id: p.id, closeReason: 'LIQUIDATION' });
    const history = (await rig.call('GET', '/v2/futures/positionHistory')).body.data;
    expect(history[0].liquidatedAt).toBe(new Date(rig.ex.now()).toISOString());
  });
});

describe('GET /v2/futures/positionHistory', () => {
  it('pages newest first, filters by symbol and time, caps limit at 1000', async () => {
    const rig = setup();
    const start = rig.ex.now();
    for (const symbol of ['BTCUSDT', 'ETHUSDT', 'BTCUSDT']) {
      rig.ex.advance(1000);
      await rig.client.orders.create({ symbol, side: 'BUY', type: 'MARKET', quantity: '0.1' });
      await rig.client.orders.create({ symbol, side: 'SELL', type: 'MARKET', quantity: '0.1' });
    }
    const page1 = await rig.call('GET', '/v2/futures/positionHistory', { query: { page: 1, limit: 2 } });
    expect(page1.body.data.map((h: { symbol: string }) => h.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
    const page2 = await rig.call('GET', '/v2/futures/positionHistory', { query: { page: 2, limit: 2 } });
    expect(page2.body.data.map((h: { closedAt: string }) => h.closedAt)).toEqual([
      new Date(start + 1000).toISOString(),
    ]);
    const btc = await rig.call('GET', '/v2/futures/positionHistory', { query: { symbol: 'BTCUSDT' } });
    expect(btc.body.data).toHaveLength(2);
    const windowed = await rig.call('GET', '/v2/futures/positionHistory', {
      query: { startTime: start + 2000, endTime: start + 2000 },
    });
    expect(windowed.body.data.map((h: { symbol: string }) => h.symbol)).toEqual(['ETHUSDT']);
    expect((await rig.call('GET', '/v2/futures/positionHistory', { query: { limit: 1001 } })).status).toBe(400);
  });
});

describe('POST /v2/positions/close', () => {
  it('closes with an inverted reduce-only MARKET order; partial and full', async () => {
    const rig = setup();
    const seen = events(rig);
    const p = await openLong(rig, '0.3');
    seen.length = 0;
    const partial = await rig.call('POST', '/v2/positions/close', { body: { positionId: p.id, quantity: '0.1' } });
    expect(partial.status).toBe(200);
    expect(partial.body.closed).toEqual({ symbol: 'BTCUSDT', side: 'SELL', quantity: '0.1', remainingPosition: '0.2' });
    expect(partial.body.venue).toBeDefined();
    expect(partial.body.order).toBeUndefined();
    expect(partial.body.position).toBeUndefined();
    expect(seen.map((e) => e.event)).toEqual(['order_new', 'order_update', 'position_update']);
    const closingOrder = rig.ex.account(rig.accountId).orders.at(-1)!;
    expect(closingOrder).toMatchObject({ type: 'MARKET', side: 'SELL', reduceOnly: true });
    const full = await rig.call('POST', '/v2/positions/close', { body: { positionId: p.id } });
    expect(full.body.closed).toEqual({ symbol: 'BTCUSDT', side: 'SELL', quantity: '0.2', remainingPosition: '0' });
    expect((await rig.client.account.positions()).positions).toEqual([]);
  });

  it('answers 200 reconciled when the venue already closed it; 404 for unknown; 400 for too much', async () => {
    const rig = setup();
    const p = await openLong(rig, '0.1');
    expect(
      (await rig.call('POST', '/v2/positions/close', { body: { positionId: p.id, quantity: '0.2' } })).status,
    ).toBe(400);
    expect((await rig.call('POST', '/v2/positions/close', { body: { positionId: 'pos_404' } })).status).toBe(404);
    // A maker fill closes it on the venue; the DB still says OPEN until the sync tick.
    const { order } = await rig.client.orders.create({
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'LIMIT',
      quantity: '0.1',
      price: '61000',
    });
    rig.ex.fillOrder(order.id);
    expect((await rig.client.account.positions()).positions).toHaveLength(1);
    const before = rig.ex.account(rig.accountId).orders.length;
    const res = await rig.call('POST', '/v2/positions/close', { body: { positionId: p.id } });
    expect(res.body).toEqual({ ok: true, closed: { symbol: 'BTCUSDT', reconciled: true, remainingPosition: '0' } });
    expect(rig.ex.account(rig.accountId).orders).toHaveLength(before);
    expect((await rig.client.account.positions()).positions).toEqual([]);
  });

  it("404s another user's position", async () => {
    const rig = setup();
    const other = rig.ex.createAccount({ balances: { USDT: '10000' } });
    const otherClient = clientFor(rig.ex, rig.ex.createApiKey(other.accountId));
    await otherClient.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1' });
    const [theirs] = (await otherClient.account.positions()).positions;
    const res = await rig.call('POST', '/v2/positions/close', { body: { positionId: theirs!.id } });
    expect(res.status).toBe(404);
    expect((await otherClient.account.positions()).positions).toHaveLength(1);
  });
});

describe('futures configuration', () => {
  it('leverage: 1..125, 409 OPEN_POSITION_LEVERAGE_GUARD with an open position unless forced (re-prices liquidation)', async () => {
    const rig = setup();
    expect((await rig.call('POST', '/v2/futures/leverage', { body: { symbol: 'BTCUSDT', leverage: 0 } })).status).toBe(
      400,
    );
    expect(
      (await rig.call('POST', '/v2/futures/leverage', { body: { symbol: 'BTCUSDT', leverage: 126 } })).status,
    ).toBe(400);
    expect(
      (await rig.call('POST', '/v2/futures/leverage', { body: { symbol: 'BTCUSDT', leverage: 2.5 } })).status,
    ).toBe(400);
    const set = await rig.call('POST', '/v2/futures/leverage', { body: { symbol: 'BTCUSDT', leverage: 10 } });
    expect(set.body).toEqual({ ok: true, data: { leverage: 10, symbol: 'BTCUSDT' } });
    const p = await openLong(rig, '0.1');
    expect(p).toMatchObject({ leverage: 10, initialMargin: '600', liquidationPrice: '54300' });
    const guarded = await rig.call('POST', '/v2/futures/leverage', { body: { symbol: 'BTCUSDT', leverage: 5 } });
    expect(guarded.status).toBe(409);
    expect(guarded.body.code).toBe('OPEN_POSITION_LEVERAGE_GUARD');
    const forced = await rig.call('POST', '/v2/futures/leverage', {
      body: { symbol: 'BTCUSDT', leverage: 5, forceWithOpenPosition: true },
    });
    expect(forced.status).toBe(200);
    const [after] = (await rig.client.account.positions()).positions;
    expect(after).toMatchObject({ leverage: 5, liquidationPrice: '48300' });
  });

  it('margin-type: unchanged when already in mode; 409 OPEN_POSITION_MARGIN_GUARD; forced switch', async () => {
    const rig = setup();
    const same = await rig.call('POST', '/v2/futures/margin-type', {
      body: { symbol: 'BTCUSDT', marginType: 'CROSSED' },
    });
    expect(same.body).toEqual({ ok: true, data: { marginType: 'CROSSED', symbol: 'BTCUSDT', unchanged: true } });
    await openLong(rig, '0.1');
    const guarded = await rig.call('POST', '/v2/futures/margin-type', {
      body: { symbol: 'BTCUSDT', marginType: 'ISOLATED' },
    });
    expect(guarded.status).toBe(409);
    expect(guarded.body.code).toBe('OPEN_POSITION_MARGIN_GUARD');
    const other = await rig.call('POST', '/v2/futures/margin-type', {
      body: { symbol: 'ETHUSDT', marginType: 'ISOLATED' },
    });
    expect(other.body).toEqual({ ok: true, data: { marginType: 'ISOLATED', symbol: 'ETHUSDT' } });
    const [p] = (await rig.client.account.positions()).positions;
    expect(p!.marginMode).toBe('ISOLATED'); // sub-account-wide
  });

  it('sub-accounts keep their own wallet, orders, positions and margin mode; leverage is per symbol', async () => {
    const rig = setup();
    const { subAccountId: sub2 } = rig.ex.createSubAccount(rig.accountId, { balances: { USDT: '500' } });
    const { subAccountId: empty } = rig.ex.createSubAccount(rig.accountId);
    const buy = (subAccountId?: string) => ({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.1',
      ...(subAccountId ? { subAccountId } : {}),
    });
    const broke = await rig.call('POST', '/v2/orders', { body: buy(empty) });
    expect(broke.status).toBe(400);
    expect(broke.body.error).toMatch(/Insufficient balance/);
    await rig.call('POST', '/v2/futures/leverage', { body: { symbol: 'BTCUSDT', leverage: 20, subAccountId: sub2 } });
    await rig.call('POST', '/v2/futures/leverage', { body: { symbol: 'BTCUSDT', leverage: 10 } });
    expect((await rig.call('POST', '/v2/orders', { body: buy(sub2) })).status).toBe(200); // margin 300 of 500
    expect((await rig.call('POST', '/v2/orders', { body: buy() })).status).toBe(200); // margin 600 of 10000
    await rig.call('POST', '/v2/orders', { body: { ...buy(), symbol: 'ETHUSDT', quantity: '1' } });
    const positions = (await rig.client.account.positions()).positions.map((p) => [p.symbol, p.leverage]);
    expect(positions.sort()).toEqual([
      ['BTCUSDT', 10],
      ['BTCUSDT', 20],
      ['ETHUSDT', 20],
    ]);
    const switched = await rig.call('POST', '/v2/futures/margin-type', {
      body: { symbol: 'SOLUSDT', marginType: 'ISOLATED', subAccountId: sub2 },
    });
    expect(switched.status).toBe(200);
    const modes = Object.fromEntries(
      rig.ex.account(rig.accountId).subAccounts.map((s) => [s.subAccountId, s.marginType]),
    );
    expect(modes).toEqual({ [rig.subAccountId]: 'CROSSED', [sub2]: 'ISOLATED', [empty]: 'CROSSED' });
    const balance = async (subAccountId: string) =>
      (await rig.client.account.balance({ subAccountId })).balances.assets.find((a) => a.asset === 'USDT')!;
    expect((await balance(sub2)).walletBalance).toBe('497'); // 500 − 3 commission
    expect((await balance(rig.subAccountId)).walletBalance).toBe('9995.5'); // 10000 − 3 − 1.5
    const openOrders = await rig.call('GET', '/v2/futures/open-orders', { query: { subAccountId: empty } });
    expect(openOrders.body.orders).toEqual([]);
  });

  it('margin-type: an injected venue reject answers 400 OPEN_POSITION_MARGIN_REJECT and leaves the mode', async () => {
    const rig = setup();
    await openLong(rig, '0.1');
    rig.ex.faults.rejectMarginType();
    // A guarded call never reaches the venue, so it does not use up the reject.
    const guarded = await rig.call('POST', '/v2/futures/margin-type', {
      body: { symbol: 'BTCUSDT', marginType: 'ISOLATED' },
    });
    expect(guarded.body.code).toBe('OPEN_POSITION_MARGIN_GUARD');
    const body = { symbol: 'BTCUSDT', marginType: 'ISOLATED' as const, forceWithOpenPosition: true };
    const rejected = await rig.call('POST', '/v2/futures/margin-type', { body });
    expect(rejected.status).toBe(400);
    expect(rejected.body).toMatchObject({
      ok: false,
      code: 'OPEN_POSITION_MARGIN_REJECT',
      venueErrorCode: -4048,
      details: { code: -4048 },
      errorId: expect.any(String),
    });
    expect(rig.ex.account(rig.accountId).subAccounts[0]!.marginType).toBe('CROSSED');
    // Through the SDK: a typed error carrying the code.
    rig.ex.faults.rejectMarginType();
    await expect(rig.client.futures.setMarginType(body)).rejects.toMatchObject({
      status: 400,
      code: 'OPEN_POSITION_MARGIN_REJECT',
    });
    // One reject per arming: the next forced call goes through.
    const ok = await rig.call('POST', '/v2/futures/margin-type', { body });
    expect(ok.body).toEqual({ ok: true, data: { marginType: 'ISOLATED', symbol: 'BTCUSDT' } });
  });

  it('close-and-switch-margin: cancels orders on the symbol, closes both hedge legs, switches', async () => {
    const rig = setup({ positionMode: 'HEDGE' });
    const seen = events(rig);
    await rig.client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.1',
      positionSide: 'LONG',
    });
    await rig.client.orders.create({
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'MARKET',
      quantity: '0.2',
      positionSide: 'SHORT',
    });
    const { order } = await rig.client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.1',
      price: '50000',
      positionSide: 'LONG',
    });
    const open = (await rig.client.account.positions()).positions;
    seen.length = 0;
    const res = await rig.call('POST', '/v2/futures/close-and-switch-margin', {
      body: { symbol: 'BTCUSDT', targetMarginType: 'ISOLATED' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ symbol: 'BTCUSDT', marginType: 'ISOLATED', canceledOrders: [order.id] });
    expect(res.body.data.closedPositions).toEqual(
      expect.arrayContaining(open.map((p) => ({ id: p.id, venuePositionId: p.venuePositionId, quantity: p.quantity }))),
    );
    expect(seen.filter((e) => e.event === 'order_canceled')).toHaveLength(1);
    expect(seen.filter((e) => e.event === 'position_update')).toHaveLength(2);
    expect((await rig.client.account.positions()).positions).toEqual([]);
    expect(rig.ex.account(rig.accountId).subAccounts[0]!.marginType).toBe('ISOLATED');
  });

  it('close-and-switch-margin: injected 502 at stage switch (positions stay closed) and at stage close', async () => {
    const rig = setup();
    await openLong(rig, '0.1');
    rig.ex.faults.failMarginSwitch('switch');
    const sw = await rig.call('POST', '/v2/futures/close-and-switch-margin', {
      body: { symbol: 'BTCUSDT', targetMarginType: 'ISOLATED' },
    });
    expect(sw.status).toBe(502);
    expect(sw.body).toMatchObject({ ok: false, stage: 'switch', canceledOrders: [], details: expect.any(Object) });
    expect(sw.body.closedPositions).toHaveLength(1);
    expect((await rig.client.account.positions()).positions).toEqual([]);
    expect(rig.ex.account(rig.accountId).subAccounts[0]!.marginType).toBe('CROSSED');

    await openLong(rig, '0.1');
    rig.ex.faults.failMarginSwitch('close');
    const err = await rig.client.futures
      .closeAndSwitchMargin({ symbol: 'BTCUSDT', targetMarginType: 'ISOLATED' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MarginSwitchError);
    expect((err as MarginSwitchError).stage).toBe('close');
    expect((err as MarginSwitchError).venueErrorCode).toBe(-2019);
    expect((await rig.client.account.positions()).positions).toHaveLength(1);
  });

  it('position-mode: refused with 400 while any position is open', async () => {
    const rig = setup();
    const ok = await rig.call('POST', '/v2/futures/position-mode', { body: { positionMode: 'HEDGE' } });
    expect(ok.body).toEqual({ ok: true, data: { positionMode: 'HEDGE' } });
    await rig.client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.1',
      positionSide: 'LONG',
    });
    const refused = await rig.call('POST', '/v2/futures/position-mode', { body: { positionMode: 'ONE_WAY' } });
    expect(refused.status).toBe(400);
    await expect(rig.client.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 3 })).rejects.toBeInstanceOf(
      ConflictError,
    );
  });
});
