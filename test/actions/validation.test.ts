import { describe, expect, it } from 'vitest';
import { type FuturesClient, RequestValidationError } from '../../src/index.ts';
import { forbiddenFetch, testClient } from './_recording-fetch.ts';

// Calls go through `as never` where the value is deliberately ill-typed: run-time validation is under test.
type Case = [name: string, call: (c: FuturesClient) => Promise<unknown> | AsyncGenerator<unknown>, field: string];

const market = { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' } as const;

const cases: Case[] = [
  ['batch of 0', (c) => c.orders.createBatch([]), 'orders'],
  ['batch of 6', (c) => c.orders.createBatch(Array.from({ length: 6 }, () => market)), 'orders'],
  [
    'batch item with a bad quantity',
    (c) => c.orders.createBatch([market, { ...market, quantity: '-1' }]),
    'orders.1.quantity',
  ],
  [
    'batch LIMIT item without price',
    (c) => c.orders.createBatch([{ ...market, type: 'LIMIT' } as never]),
    'orders.0.price',
  ],
  [
    'batch with a duplicated clientOrderId',
    (c) =>
      c.orders.createBatch([
        { ...market, clientOrderId: 'x' },
        { ...market, clientOrderId: 'x' },
      ]),
    'orders.1.clientOrderId',
  ],
  ['create with a number quantity', (c) => c.orders.create({ ...market, quantity: 1 as never }), 'quantity'],
  ['create with quantity 1e-7', (c) => c.orders.create({ ...market, quantity: '1e-7' }), 'quantity'],
  ['create with quantity 0', (c) => c.orders.create({ ...market, quantity: '0' }), 'quantity'],
  ['create MARKET with a price', (c) => c.orders.create({ ...market, price: '1' } as never), 'price'],
  [
    'create STOP without stopPrice',
    (c) => c.orders.create({ ...market, type: 'STOP', price: '1' } as never),
    'stopPrice',
  ],
  ['create with a typo key', (c) => c.orders.create({ ...market, reduce_only: true } as never), 'reduce_only'],
  ['list limit 0', (c) => c.orders.list({ limit: 0 }), 'limit'],
  ['list limit 201', (c) => c.orders.list({ limit: 201 }), 'limit'],
  ['list limit 1.5', (c) => c.orders.list({ limit: 1.5 }), 'limit'],
  ['list offset -1', (c) => c.orders.list({ offset: -1 }), 'offset'],
  ['list unknown key', (c) => c.orders.list({ page: 2 } as never), 'page'],
  ['get empty id', (c) => c.orders.get(''), '(root)'],
  ['cancel empty id', (c) => c.orders.cancel(''), '(root)'],
  ['cancel unknown key', (c) => c.orders.cancel('a', { subaccount: 'x' } as never), 'subaccount'],
  ['cancelAll unknown key', (c) => c.orders.cancelAll({ symbols: 'BTCUSDT' } as never), 'symbols'],
  ['replace with an invalid new order', (c) => c.orders.replace('ord-1', { ...market, quantity: '' }), 'quantity'],
  ['closePosition without positionId', (c) => c.orders.closePosition({} as never), 'positionId'],
  ['closePosition quantity "abc"', (c) => c.orders.closePosition({ positionId: 'p', quantity: 'abc' }), 'quantity'],
  ['myTrades without symbol', (c) => c.orders.myTrades({} as never), 'symbol'],
  ['myTrades fromId "5"', (c) => c.orders.myTrades({ symbol: 'BTCUSDT', fromId: '5' as never }), 'fromId'],
  ['positionHistory page 0', (c) => c.orders.positionHistory({ page: 0 }), 'page'],
  ['positionHistory limit 1001', (c) => c.orders.positionHistory({ limit: 1001 }), 'limit'],
  ['positionHistory endTime < startTime', (c) => c.orders.positionHistory({ startTime: 10, endTime: 5 }), 'endTime'],
  ['leverage 0', (c) => c.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 0 }), 'leverage'],
  ['leverage 126', (c) => c.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 126 }), 'leverage'],
  ['leverage 2.5', (c) => c.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 2.5 }), 'leverage'],
  ['leverage without symbol', (c) => c.futures.setLeverage({ leverage: 5 } as never), 'symbol'],
  [
    'marginType lower-case',
    (c) => c.futures.setMarginType({ symbol: 'X', marginType: 'isolated' as never }),
    'marginType',
  ],
  [
    'closeAndSwitch bad target',
    (c) => c.futures.closeAndSwitchMargin({ symbol: 'X', targetMarginType: 'CROSS' as never }),
    'targetMarginType',
  ],
  ['positionMode bad value', (c) => c.futures.setPositionMode({ positionMode: 'ONEWAY' as never }), 'positionMode'],
  ['balance empty subAccountId', (c) => c.account.balance({ subAccountId: '' }), 'subAccountId'],
  ['positions bad status', (c) => c.account.positions({ status: 'open' as never }), 'status'],
  ['transfers take 101', (c) => c.account.transfers({ take: 101 }), 'take'],
  ['transfers skip -1', (c) => c.account.transfers({ skip: -1 }), 'skip'],
  ['transfers bad type', (c) => c.account.transfers({ type: 'deposits' as never }), 'type'],
  ['activities take 0', (c) => c.account.activities({ take: 0 }), 'take'],
  ['pnlHistory bad period', (c) => c.account.pnlHistory({ period: '7d' as never }), 'period'],
  ['spotBalances empty id', (c) => c.account.spotBalances(''), '(root)'],
  ['ticker24hr empty symbol', (c) => c.market.ticker24hr({ symbol: '' }), 'symbol'],
  ['depth without symbol', (c) => c.market.depth({} as never), 'symbol'],
  ['trades limit 0', (c) => c.market.trades({ symbol: 'BTCUSDT', limit: 0 }), 'limit'],
  ['fundingRate without symbol', (c) => c.market.fundingRate({} as never), 'symbol'],
  ['klines bad interval', (c) => c.market.klines({ symbol: 'BTCUSDT', interval: '2m' as never }), 'interval'],
  ['klines without symbol', (c) => c.market.klines({ interval: '1m' } as never), 'symbol'],
  [
    'klines with startTime (ignored by the server)',
    (c) => c.market.klines({ symbol: 'BTCUSDT', interval: '1m', startTime: 1 as never }),
    'startTime',
  ],
  ['leaderboard without type', (c) => c.market.leaderboard({} as never), 'type'],
  ['leaderboard limit 101', (c) => c.market.leaderboard({ type: 'volume', limit: 101 }), 'limit'],
  ['leaderboard period daily', (c) => c.market.leaderboard({ type: 'volume', period: 'daily' as never }), 'period'],
  ['listAll unknown key', (c) => c.orders.listAll({ limit: 5 } as never), 'limit'],
  ['transfersAll bad type', (c) => c.account.transfersAll({ type: 'x' as never }), 'type'],
];

async function settle(result: Promise<unknown> | AsyncGenerator<unknown>): Promise<unknown> {
  try {
    if (Symbol.asyncIterator in result) {
      for await (const _ of result) {
        // draining the iterator is what triggers the request
      }
      return undefined;
    }
    return await result;
  } catch (error) {
    return error;
  }
}

describe('documented bounds are checked before any network call', () => {
  it.each(cases)('%s', async (_name, call, field) => {
    const { fetch, calls } = forbiddenFetch();
    const error = await settle(call(testClient(fetch)));
    expect(error).toBeInstanceOf(RequestValidationError);
    const issues = (error as RequestValidationError).issues.map((i) => (i.path.length ? i.path.join('.') : '(root)'));
    expect(issues).toContain(field);
    expect((error as Error).message).toContain(field === '(root)' ? 'Invalid request' : field);
    expect(calls).toEqual([]);
  });

  it('rejects (never throws synchronously), so .catch() sees validation errors', async () => {
    const { fetch } = forbiddenFetch();
    const client = testClient(fetch);
    let thrown: unknown;
    const promise = (() => {
      try {
        return client.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 500 });
      } catch (error) {
        thrown = error;
        return undefined;
      }
    })();
    expect(thrown).toBeUndefined();
    await expect(promise).rejects.toBeInstanceOf(RequestValidationError);
  });

  it('accepts the edges of every documented range', async () => {
    const { fetch, calls } = forbiddenFetch();
    const client = testClient(fetch, { retry: false });
    const edges = [
      client.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 1 }),
      client.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 125 }),
      client.orders.list({ limit: 1 }),
      client.orders.list({ limit: 200, offset: 0 }),
      client.account.transfers({ take: 100, skip: 0 }),
      client.orders.positionHistory({ limit: 1000, page: 1 }),
      client.market.leaderboard({ type: 'commission', limit: 100, period: 'all' }),
      client.orders.createBatch(Array.from({ length: 5 }, () => market)),
    ];
    const results = await Promise.allSettled(edges);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      expect((r as PromiseRejectedResult).reason).not.toBeInstanceOf(RequestValidationError);
    }
    expect(calls).toHaveLength(edges.length);
  });

  it('a signed call on a client without credentials rejects with ConfigurationError before the network', async () => {
    const { fetch, calls } = forbiddenFetch();
    const { FuturesClient } = await import('../../src/index.ts');
    const client = new FuturesClient({ baseUrl: 'https://api.example.test', fetch });
    await expect(client.account.exposure()).rejects.toMatchObject({ name: 'ConfigurationError' });
    await expect(client.orders.cancelAll()).rejects.toMatchObject({ name: 'ConfigurationError' });
    expect(calls).toEqual([]);
  });
});
