import {
  BadRequestError,
  ConflictError,
  FuturesClient,
  MarginSwitchError,
  ReplaceOrderError,
  ResponseValidationError,
} from 'futures-sdk';
import { createExchange, type Exchange } from 'futures-sdk/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { normalizePositionHistory, parseKline } from '../../src/helpers/index.ts';

let ex: Exchange;
let accountId: string;
let client: FuturesClient;

function setup(options: { spotShape?: 'array' | 'raw' } = {}) {
  ex = createExchange({ seed: 1, volatility: 0 });
  ex.setMarkPrice('BTCUSDT', '60000');
  ({ accountId } = ex.createAccount({
    balances: { USDT: '100000' },
    spotBalances: { USDT: '50' },
    ...(options.spotShape ? { spotShape: options.spotShape } : {}),
  }));
  const creds = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  client = new FuturesClient({ baseUrl: ex.baseUrl, ...creds, fetch: ex.fetch, retry: { limit: 2, baseDelayMs: 1 } });
}

const limitBuy = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '50000' } as const;
const marketBuy = { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.02' } as const;

async function openPosition() {
  await client.orders.create(marketBuy);
  ex.sync();
  const { positions } = await client.account.positions();
  const position = positions.find((p) => p.symbol === 'BTCUSDT');
  if (!position) throw new Error('expected an open BTCUSDT position');
  return position;
}

beforeEach(() => setup());

describe('every endpoint an API key may call is reachable through the client (simulator)', () => {
  const calls: Array<[string, () => Promise<{ ok: true }>]> = [
    ['orders.create', () => client.orders.create(limitBuy)],
    ['orders.createBatch', () => client.orders.createBatch([limitBuy, { ...limitBuy, price: '49000' }])],
    ['orders.list', () => client.orders.list()],
    ['orders.get', async () => client.orders.get((await client.orders.create(limitBuy)).order.id)],
    ['orders.cancel', async () => client.orders.cancel((await client.orders.create(limitBuy)).order.id)],
    ['orders.cancelAll', () => client.orders.cancelAll()],
    ['orders.closePosition', async () => client.orders.closePosition({ positionId: (await openPosition()).id })],
    ['orders.openOrders', () => client.orders.openOrders()],
    ['orders.myTrades', () => client.orders.myTrades({ symbol: 'BTCUSDT' })],
    ['orders.positionHistory', () => client.orders.positionHistory()],
    ['futures.setLeverage', () => client.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 5 })],
    ['futures.setMarginType', () => client.futures.setMarginType({ symbol: 'BTCUSDT', marginType: 'ISOLATED' })],
    [
      'futures.closeAndSwitchMargin',
      () => client.futures.closeAndSwitchMargin({ symbol: 'BTCUSDT', targetMarginType: 'ISOLATED' }),
    ],
    ['futures.setPositionMode', () => client.futures.setPositionMode({ positionMode: 'HEDGE' })],
    ['account.balance', () => client.account.balance()],
    ['account.positions', () => client.account.positions()],
    ['account.exposure', () => client.account.exposure()],
    ['account.transfers', () => client.account.transfers()],
    ['account.activities', () => client.account.activities()],
    ['account.pnlHistory', () => client.account.pnlHistory()],
    ['account.spotBalances', () => client.account.spotBalances(accountId)],
    ['market.symbols', () => client.market.symbols()],
    ['market.ticker24hr', () => client.market.ticker24hr()],
    ['market.depth', () => client.market.depth({ symbol: 'BTCUSDT' })],
    ['market.trades', () => client.market.trades({ symbol: 'BTCUSDT' })],
    ['market.fundingRate', () => client.market.fundingRate({ symbol: 'BTCUSDT' })],
    ['market.klines', () => client.market.klines({ symbol: 'BTCUSDT', interval: '1m' })],
    ['market.leaderboard', () => client.market.leaderboard({ type: 'volume' })],
    ['market.platformTokens', () => client.market.platformTokens()],
    ['market.platformStatus', () => client.market.platformStatus()],
    ['market.health', () => client.market.health()],
  ];

  it.each(calls)('%s', async (_name, call) => {
    const result = await call();
    expect(result.ok).toBe(true);
  });
});

describe('orders through the simulator', () => {
  it('create → get → list → cancel', async () => {
    const { order } = await client.orders.create(limitBuy);
    expect(order.status).toBe('NEW');
    expect(order.clientOrderId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await client.orders.get(order.id)).order.id).toBe(order.id);
    const page = await client.orders.list({ symbol: 'BTCUSDT', status: 'NEW' });
    expect(page.orders.map((o) => o.id)).toContain(order.id);
    const { order: canceled } = await client.orders.cancel(order.id);
    expect(canceled.status).toBe('CANCELED');
  });

  it('listAll walks more than one page', async () => {
    for (let i = 0; i < 42; i++) await client.orders.createBatch(Array.from({ length: 5 }, () => limitBuy));
    let n = 0;
    for await (const _ of client.orders.listAll({ symbol: 'BTCUSDT' })) n++;
    expect(n).toBe(210);
  });

  it('cancelAll with nothing open resolves the filled-in shape', async () => {
    await expect(client.orders.cancelAll()).resolves.toEqual({ ok: true, canceled: 0, total: 0, results: [] });
  });

  it('cancelAll leaves conditional orders unless includeConditional is set', async () => {
    await openPosition();
    await client.orders.create(limitBuy);
    const stop = await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'STOP_MARKET',
      quantity: '0.02',
      stopPrice: '55000',
      reduceOnly: true,
    });
    const plain = await client.orders.cancelAll({ symbol: 'BTCUSDT' });
    expect(plain.canceled).toBe(1);
    expect((await client.orders.get(stop.order.id)).order.status).toBe('NEW');

    const full = await client.orders.cancelAll({ symbol: 'BTCUSDT', includeConditional: true });
    expect(full.results).toEqual([
      { orderId: stop.order.id, symbol: 'BTCUSDT', status: 'CANCELED', conditional: true },
    ]);
    expect(full.canceled).toBe(1);
    expect((await client.orders.get(stop.order.id)).order.status).toBe('CANCELED');
  });

  it('replace cancels and creates; a failing create yields ReplaceOrderError', async () => {
    const { order } = await client.orders.create(limitBuy);
    const { canceled, created } = await client.orders.replace(order.id, { ...limitBuy, price: '51000' });
    expect(canceled.order.status).toBe('CANCELED');
    expect(created.order.price).toBe('51000');

    ex.faults.add({
      method: 'POST',
      path: '/v2/orders',
      status: 400,
      body: { ok: false, error: 'Insufficient balance' },
    });
    const error = await client.orders
      .replace(created.order.id, { ...limitBuy, price: '52000' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplaceOrderError);
    expect((error as ReplaceOrderError).cause).toBeInstanceOf(BadRequestError);
    expect((await client.orders.get(created.order.id)).order.status).toBe('CANCELED');
  });

  it('closePosition closes with the inverted side, then reconciles', async () => {
    const position = await openPosition();
    const { closed } = await client.orders.closePosition({ positionId: position.id });
    expect(closed.reconciled).not.toBe(true);
    if (!closed.reconciled) expect(closed.side).toBe('SELL');
    ex.sync();
    const { data } = await client.orders.positionHistory({ symbol: 'BTCUSDT' });
    const rows = data.map(normalizePositionHistory);
    expect(rows[0]?.side).toBe('LONG');
  });

  it('myTrades lists the taker fill with an integer id', async () => {
    await openPosition();
    const { data } = await client.orders.myTrades({ symbol: 'BTCUSDT' });
    expect(data.length).toBeGreaterThan(0);
    expect(Number.isInteger(data[0]?.id)).toBe(true);
    const after = await client.orders.myTrades({ symbol: 'BTCUSDT', fromId: data.at(-1)!.id });
    expect(after.data).toEqual([]);
  });

  it('openOrders uses venue names', async () => {
    await client.orders.create(limitBuy);
    const { orders } = await client.orders.openOrders({ symbol: 'BTCUSDT' });
    expect(typeof orders[0]?.orderId).toBe('number');
    expect(orders[0]?.origQty).toBe('0.01');
  });
});

describe('futures configuration through the simulator', () => {
  it('the leverage guard surfaces as ConflictError.isOpenPositionGuard', async () => {
    await openPosition();
    const error = await client.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).isOpenPositionGuard).toBe(true);
    const forced = await client.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 20, forceWithOpenPosition: true });
    expect(forced.data.leverage).toBe(20);
  });

  it('close-and-switch failing at leg 3 is a MarginSwitchError with what was closed', async () => {
    await openPosition();
    ex.faults.failMarginSwitch('switch');
    const error = await client.futures
      .closeAndSwitchMargin({ symbol: 'BTCUSDT', targetMarginType: 'ISOLATED' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MarginSwitchError);
    expect((error as MarginSwitchError).stage).toBe('switch');
    expect((error as MarginSwitchError).closedPositions.length).toBeGreaterThan(0);
  });
});

describe('account through the simulator', () => {
  it('transfersAll and activitiesAll see deposits', async () => {
    for (let i = 0; i < 3; i++) ex.deposit(accountId, 'USDT', '10');
    const transfers = [];
    for await (const t of client.account.transfersAll({ type: 'deposit' })) transfers.push(t);
    expect(transfers).toHaveLength(3);
    expect(transfers.every((t) => t.transferType === 1)).toBe(true);
    const activities = [];
    for await (const a of client.account.activitiesAll()) activities.push(a);
    expect(activities.filter((a) => a.type === 'TRANSFER')).toHaveLength(3);
  });

  it('activities carry orders and executions after trading', async () => {
    await client.orders.create(limitBuy);
    await openPosition();
    const { data, totals } = await client.account.activities({ take: 50 });
    const orders = data.filter((a) => a.type === 'ORDER');
    expect(orders.length).toBeGreaterThan(0);
    for (const a of orders) if (a.type === 'ORDER') expect(a.data.symbol).toBe('BTCUSDT');
    expect(totals.totalOrderBuyCount).toBeGreaterThan(0);
  });

  it('spotBalances parses the raw upstream shape too', async () => {
    const first = await client.account.spotBalances(accountId);
    expect(Array.isArray(first.balances)).toBe(true);
    setup({ spotShape: 'raw' });
    const raw = await client.account.spotBalances(accountId);
    expect(Array.isArray(raw.balances)).toBe(false);
  });

  it('balance, exposure and pnlHistory', async () => {
    await openPosition();
    const { balances } = await client.account.balance();
    expect(balances.assets.find((a) => a.asset === 'USDT')).toBeDefined();
    const { grossExposure } = await client.account.exposure();
    expect(grossExposure).toMatch(/^0\.020*$/);
    const pnl = await client.account.pnlHistory({ period: 'monthly' });
    expect(typeof pnl.summary.totalTrades).toBe('number');
  });
});

describe('market through the simulator', () => {
  it('klines parse into named candles; leaderboard rows follow the type', async () => {
    const { data } = await client.market.klines({ symbol: 'BTCUSDT', interval: '1m', limit: 5 });
    expect(data.length).toBeLessThanOrEqual(5);
    const candle = parseKline(data[0]!);
    expect(typeof candle.openTime).toBe('number');
    const refs = await client.market.leaderboard({ type: 'referrals', period: '30d' });
    expect(refs.type).toBe('referrals');
  });
});

describe('responses the SDK cannot trust reject with ResponseValidationError carrying the raw body (simulator)', () => {
  it('a non-JSON 2xx body', async () => {
    ex.faults.add({ method: 'GET', path: '/v2/positions', rawBody: '<html>200 OK from a proxy</html>' });
    const error = await client.account.positions().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).body).toBe('<html>200 OK from a proxy</html>');
  });

  it('a truncated 2xx body', async () => {
    ex.faults.add({ method: 'GET', path: '/v2/symbols', truncate: true });
    const error = await client.market.symbols().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(typeof (error as ResponseValidationError).body).toBe('string');
  });

  it.each([
    ['a missing required field', { ok: true, grossExposure: '0' }, 'positions'],
    ['a wrong type', { ok: true, grossExposure: 0, positions: [] }, 'grossExposure'],
  ])('%s', async (_name, body, field) => {
    ex.faults.add({ method: 'GET', path: '/v2/risk/exposure', status: 200, body });
    const error = await client.account.exposure().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((i) => i.path.join('.'))).toContain(field);
    expect((error as ResponseValidationError).body).toEqual(body);
  });

  it('an order whose type is outside the closed enum', async () => {
    const { order } = await client.orders.create(limitBuy);
    const body = { ok: true, order: { ...order, type: 'ICEBERG' } };
    ex.faults.add({ method: 'GET', path: `/v2/orders/${order.id}`, status: 200, body });
    const error = await client.orders.get(order.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((i) => i.path.join('.'))).toEqual(['order.type']);
  });
});

describe('errors users must tell apart, as the simulator produces them', () => {
  it('a second closing order: BadRequestError.isClosingOrderReserved', async () => {
    const position = await openPosition();
    const closing = { symbol: 'BTCUSDT', side: 'SELL', quantity: position.quantity, reduceOnly: true } as const;
    await client.orders.create({ ...closing, type: 'TAKE_PROFIT_MARKET', stopPrice: '70000' });
    const error = await client.orders
      .create({ ...closing, type: 'STOP_MARKET', stopPrice: '50000' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).isClosingOrderReserved).toBe(true);
    expect((error as BadRequestError).isMaxNotionalExceeded).toBe(false);
  });

  it('max notional: BadRequestError.isMaxNotionalExceeded', async () => {
    ex.setMaxOrderNotional(accountId, '100');
    const error = await client.orders.create(limitBuy).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).isMaxNotionalExceeded).toBe(true);
    expect((error as BadRequestError).reason).toBe('max_order_notional_exceeded');
  });

  it('the margin guard: ConflictError.isOpenPositionGuard with OPEN_POSITION_MARGIN_GUARD', async () => {
    await openPosition();
    const error = await client.futures
      .setMarginType({ symbol: 'BTCUSDT', marginType: 'ISOLATED' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'OPEN_POSITION_MARGIN_GUARD', isOpenPositionGuard: true });
  });

  it("another account's clientOrderId: a ConflictError that is not a guard", async () => {
    await client.orders.create({ ...limitBuy, clientOrderId: 'shared-id' });
    const other = ex.createAccount({ balances: { USDT: '100000' } });
    const otherClient = new FuturesClient({
      baseUrl: ex.baseUrl,
      ...ex.createApiKey(other.accountId, { permissions: ['TRADE'] }),
      fetch: ex.fetch,
    });
    const error = await otherClient.orders.create({ ...limitBuy, clientOrderId: 'shared-id' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).isOpenPositionGuard).toBe(false);
  });

  it('close-and-switch failing at leg 3 lists the canceled orders and closed positions', async () => {
    const position = await openPosition();
    const { order } = await client.orders.create(limitBuy);
    ex.faults.failMarginSwitch('switch');
    const error = (await client.futures
      .closeAndSwitchMargin({ symbol: 'BTCUSDT', targetMarginType: 'ISOLATED' })
      .catch((e: unknown) => e)) as MarginSwitchError;
    expect(error).toBeInstanceOf(MarginSwitchError);
    expect(error.status).toBe(502);
    expect(error.canceledOrders).toContain(order.id);
    expect(error.closedPositions.map((p) => p.id)).toContain(position.id);
    // No rollback: the order stays canceled and the margin mode unchanged.
    expect((await client.orders.get(order.id)).order.status).toBe('CANCELED');
  });

  it('close-and-switch failing at leg 2 is a MarginSwitchError with stage close', async () => {
    await openPosition();
    ex.faults.failMarginSwitch('close');
    const error = await client.futures
      .closeAndSwitchMargin({ symbol: 'BTCUSDT', targetMarginType: 'ISOLATED' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MarginSwitchError);
    expect(error).toMatchObject({ status: 502, stage: 'close' });
    expect((error as MarginSwitchError).venueErrorCode).toBeDefined();
  });
});

describe('compound helpers report every outcome (simulator)', () => {
  it('cancelAll includeConditional reports a failed conditional cancel as FAILED and keeps going', async () => {
    const position = await openPosition();
    const closing = { symbol: 'BTCUSDT', side: 'SELL', quantity: position.quantity, reduceOnly: true } as const;
    const tp = await client.orders.create({ ...closing, type: 'TAKE_PROFIT_MARKET', stopPrice: '70000' });
    const buyStop = await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'STOP',
      quantity: '0.01',
      price: '66000',
      stopPrice: '65000',
    });
    ex.faults.failCancel(tp.order.id, 'Unknown order sent.');
    const res = await client.orders.cancelAll({ symbol: 'BTCUSDT', includeConditional: true });
    expect(res.results).toEqual(
      expect.arrayContaining([
        { orderId: tp.order.id, symbol: 'BTCUSDT', status: 'FAILED', error: expect.any(String), conditional: true },
        { orderId: buyStop.order.id, symbol: 'BTCUSDT', status: 'CANCELED', conditional: true },
      ]),
    );
    expect(res.total).toBe(2);
    expect(res.canceled).toBe(1);
    expect((await client.orders.get(tp.order.id)).order.status).toBe('NEW');
    expect((await client.orders.get(buyStop.order.id)).order.status).toBe('CANCELED');
  });

  it('replace whose create keeps failing with 5xx: the outcome is unknown and the clientOrderId recovers it', async () => {
    const { order } = await client.orders.create(limitBuy);
    const params = { ...limitBuy, price: '51000' };
    ex.faults.add({ method: 'POST', path: '/v2/orders', status: 503, times: 3 });
    const error = (await client.orders.replace(order.id, params).catch((e: unknown) => e)) as ReplaceOrderError;
    expect(error).toBeInstanceOf(ReplaceOrderError);
    expect(error.createOutcomeUnknown).toBe(true);
    expect(error.message).toMatch(/not known whether/);
    expect(error.canceled.order.status).toBe('CANCELED');
    const posts = ex.requests.filter((r) => r.method === 'POST' && r.path === '/v2/orders').slice(-3);
    expect(posts.map((r) => (r.body as { clientOrderId: string }).clientOrderId)).toEqual([
      error.clientOrderId,
      error.clientOrderId,
      error.clientOrderId,
    ]);
    const placed = await client.orders.create({ ...params, clientOrderId: error.clientOrderId });
    const again = await client.orders.create({ ...params, clientOrderId: error.clientOrderId });
    expect(again.idempotent).toBe(true);
    expect(again.order.id).toBe(placed.order.id);
  });

  it('replace whose create is refused (4xx): the outcome is known', async () => {
    const { order } = await client.orders.create(limitBuy);
    ex.setMaxOrderNotional(accountId, '100');
    const error = (await client.orders.replace(order.id, limitBuy).catch((e: unknown) => e)) as ReplaceOrderError;
    expect(error).toBeInstanceOf(ReplaceOrderError);
    expect(error.createOutcomeUnknown).toBe(false);
    expect(error.message).toMatch(/was canceled, but its replacement could not be placed/);
    expect((error.cause as BadRequestError).isMaxNotionalExceeded).toBe(true);
  });
});

describe('replace when the create answer is unreadable', () => {
  it('a 2xx body that cannot be parsed counts as an unknown outcome (the order was placed)', async () => {
    const { order } = await client.orders.create(limitBuy);
    ex.faults.add({ method: 'POST', path: '/v2/orders', truncate: true });
    const params = { ...limitBuy, price: '51500' };
    const error = (await client.orders.replace(order.id, params).catch((e: unknown) => e)) as ReplaceOrderError;
    expect(error).toBeInstanceOf(ReplaceOrderError);
    expect(error.cause).toBeInstanceOf(ResponseValidationError);
    expect(error.createOutcomeUnknown).toBe(true);
    const recovered = await client.orders.create({ ...params, clientOrderId: error.clientOrderId });
    expect(recovered.idempotent).toBe(true);
  });
});
