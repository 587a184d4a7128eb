import { type BaseClient, ConfigurationError, createBaseClient, FuturesClient } from 'futures-sdk';
import * as account from 'futures-sdk/account';
import * as futures from 'futures-sdk/futures';
import * as market from 'futures-sdk/market';
import * as orders from 'futures-sdk/orders';
import { createExchange } from 'futures-sdk/testing';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../helpers/clock.ts';

/** What a request carried, minus what is fresh per request (timestamp, signature, generated clientOrderId). */
interface Sent {
  method: string;
  path: string;
  query: string;
  body: unknown;
  apiKey: string | null;
}

const FRESH = new Set(['timestamp', 'signature', 'clientOrderId']);

function stripFresh(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripFresh);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !FRESH.has(k))
      .map(([k, v]) => [k, stripFresh(v)]),
  );
}

/**
 * A simulated exchange with a funded account, and two clients on it that share one recording fetch: a
 * FuturesClient and a base client (each with its own key, so their signatures never collide).
 */
function rig() {
  const clock = new FakeClock();
  const ex = createExchange({ seed: 1, volatility: 0, now: () => clock.now() });
  ex.setMarkPrice('BTCUSDT', '60000');
  const { accountId } = ex.createAccount({ balances: { USDT: '100000' } });
  const sent: Sent[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const text = await request.clone().text();
    const query = new URLSearchParams([...url.searchParams].filter(([k]) => !FRESH.has(k)));
    sent.push({
      method: request.method,
      path: url.pathname,
      query: query.toString(),
      body: text === '' ? undefined : stripFresh(JSON.parse(text)),
      apiKey: request.headers.get('x-api-key') === null ? null : 'present',
    });
    return ex.fetch(request);
  };
  const options = (creds: { apiKey: string; apiSecret: string }) => ({
    baseUrl: ex.baseUrl,
    ...creds,
    fetch,
    clock,
  });
  const full = new FuturesClient(options(ex.createApiKey(accountId, { permissions: ['TRADE'] })));
  const base = createBaseClient(options(ex.createApiKey(accountId, { permissions: ['TRADE'] })));
  return { ex, accountId, sent, full, base };
}

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterator) out.push(item);
  return out;
}

const WIRE: Record<string, string> = {
  'market.health': 'GET /health',
  'market.symbols': 'GET /v2/symbols',
  'market.ticker24hr': 'GET /v2/ticker/24hr?symbol=BTCUSDT',
  'market.depth': 'GET /v2/depth?limit=5&symbol=BTCUSDT',
  'market.trades': 'GET /v2/trades?symbol=BTCUSDT',
  'market.fundingRate': 'GET /v2/funding-rate?symbol=BTCUSDT',
  'market.klines': 'GET /v2/klines?interval=1m&limit=3&symbol=BTCUSDT',
  'market.leaderboard': 'GET /v2/leaderboard?limit=10&period=7d&type=volume',
  'market.platformTokens': 'GET /v2/platform/tokens',
  'market.platformStatus': 'GET /v2/platform/status',
  'account.balance': 'GET /v2/futures/balance',
  'account.positions': 'GET /v2/positions',
  'account.exposure': 'GET /v2/risk/exposure',
  'account.transfers': 'GET /v2/me/transfers?take=10',
  'account.transfersAll': 'GET /v2/me/transfers',
  'account.activities': 'GET /v2/me/activities?take=10',
  'account.activitiesAll': 'GET /v2/me/activities',
  'account.pnlHistory': 'GET /v2/account/pnl-history',
  'account.spotBalances': 'GET /v2/accounts/',
  'orders.list': 'GET /v2/orders?symbol=BTCUSDT',
  'orders.listAll': 'GET /v2/orders?limit=200&offset=0&symbol=BTCUSDT',
  'orders.openOrders': 'GET /v2/futures/open-orders?symbol=BTCUSDT',
  'orders.myTrades': 'GET /v2/futures/myTrades?symbol=BTCUSDT',
  'orders.positionHistory': 'GET /v2/futures/positionHistory',
};

type Pair = [
  name: string,
  viaResource: (c: FuturesClient) => Promise<unknown>,
  standalone: (c: BaseClient) => Promise<unknown>,
];

// Reads: the simulator's state does not move between the two calls, so both must resolve the same value.
const reads = (accountId: string): Pair[] => [
  ['market.health', (c) => c.market.health(), (c) => market.health(c)],
  ['market.symbols', (c) => c.market.symbols(), (c) => market.symbols(c)],
  [
    'market.ticker24hr',
    (c) => c.market.ticker24hr({ symbol: 'BTCUSDT' }),
    (c) => market.ticker24hr(c, { symbol: 'BTCUSDT' }),
  ],
  [
    'market.depth',
    (c) => c.market.depth({ symbol: 'BTCUSDT', limit: 5 }),
    (c) => market.depth(c, { symbol: 'BTCUSDT', limit: 5 }),
  ],
  ['market.trades', (c) => c.market.trades({ symbol: 'BTCUSDT' }), (c) => market.trades(c, { symbol: 'BTCUSDT' })],
  [
    'market.fundingRate',
    (c) => c.market.fundingRate({ symbol: 'BTCUSDT' }),
    (c) => market.fundingRate(c, { symbol: 'BTCUSDT' }),
  ],
  [
    'market.klines',
    (c) => c.market.klines({ symbol: 'BTCUSDT', interval: '1m', limit: 3 }),
    (c) => market.klines(c, { symbol: 'BTCUSDT', interval: '1m', limit: 3 }),
  ],
  [
    'market.leaderboard',
    (c) => c.market.leaderboard({ type: 'volume', period: '7d', limit: 10 }),
    (c) => market.leaderboard(c, { type: 'volume', period: '7d', limit: 10 }),
  ],
  ['market.platformTokens', (c) => c.market.platformTokens(), (c) => market.platformTokens(c)],
  ['market.platformStatus', (c) => c.market.platformStatus(), (c) => market.platformStatus(c)],
  ['account.balance', (c) => c.account.balance(), (c) => account.balance(c)],
  ['account.positions', (c) => c.account.positions(), (c) => account.positions(c)],
  ['account.exposure', (c) => c.account.exposure(), (c) => account.exposure(c)],
  ['account.transfers', (c) => c.account.transfers({ take: 10 }), (c) => account.transfers(c, { take: 10 })],
  ['account.transfersAll', (c) => collect(c.account.transfersAll()), (c) => collect(account.transfersAll(c))],
  ['account.activities', (c) => c.account.activities({ take: 10 }), (c) => account.activities(c, { take: 10 })],
  ['account.activitiesAll', (c) => collect(c.account.activitiesAll()), (c) => collect(account.activitiesAll(c))],
  ['account.pnlHistory', (c) => c.account.pnlHistory(), (c) => account.pnlHistory(c)],
  ['account.spotBalances', (c) => c.account.spotBalances(accountId), (c) => account.spotBalances(c, accountId)],
  ['orders.list', (c) => c.orders.list({ symbol: 'BTCUSDT' }), (c) => orders.list(c, { symbol: 'BTCUSDT' })],
  [
    'orders.listAll',
    (c) => collect(c.orders.listAll({ symbol: 'BTCUSDT' })),
    (c) => collect(orders.listAll(c, { symbol: 'BTCUSDT' })),
  ],
  [
    'orders.openOrders',
    (c) => c.orders.openOrders({ symbol: 'BTCUSDT' }),
    (c) => orders.openOrders(c, { symbol: 'BTCUSDT' }),
  ],
  [
    'orders.myTrades',
    (c) => c.orders.myTrades({ symbol: 'BTCUSDT' }),
    (c) => orders.myTrades(c, { symbol: 'BTCUSDT' }),
  ],
  ['orders.positionHistory', (c) => c.orders.positionHistory(), (c) => orders.positionHistory(c)],
];

describe('standalone functions (futures-sdk/orders, /futures, /account, /market)', () => {
  it('every read sends the same request and resolves the same value as the resource method', async () => {
    const { sent, full, base, ex, accountId } = rig();
    // Something to list: one resting order and one filled trade.
    await full.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '50000' });
    await full.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
    ex.setMarkPrice('BTCUSDT', '60000');
    for (const [name, viaResource, standalone] of reads(accountId)) {
      sent.length = 0;
      const expected = await viaResource(full);
      const fromResource = sent.splice(0);
      // The spec's request, written out here so that a wrong path or parameter fails even though both forms share
      // one code path (the resource methods call the standalone functions).
      const first = fromResource[0];
      expect(first && `${first.method} ${first.path}${first.query ? `?${first.query}` : ''}`, name).toContain(
        WIRE[name],
      );
      const actual = await standalone(base);
      expect(sent, name).toEqual(fromResource);
      expect(actual, name).toEqual(expected);
      // And with a FuturesClient as the client argument.
      sent.length = 0;
      expect(await standalone(full), name).toEqual(expected);
      expect(sent, name).toEqual(fromResource);
    }
  });

  it('writes send the same request as the resource method and resolve the same shape', async () => {
    const { sent, full, base } = rig();
    const limit = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '50000' } as const;
    const pairs: Array<[string, () => Promise<unknown>, () => Promise<unknown>]> = [
      ['orders.create', () => full.orders.create(limit), () => orders.create(base, limit)],
      ['orders.createBatch', () => full.orders.createBatch([limit]), () => orders.createBatch(base, [limit])],
      [
        'futures.setLeverage',
        () => full.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 7 }),
        () => futures.setLeverage(base, { symbol: 'BTCUSDT', leverage: 7 }),
      ],
      [
        'futures.setMarginType',
        () => full.futures.setMarginType({ symbol: 'ETHUSDT', marginType: 'ISOLATED' }),
        () => futures.setMarginType(base, { symbol: 'ETHUSDT', marginType: 'ISOLATED' }),
      ],
      [
        'futures.setPositionMode',
        () => full.futures.setPositionMode({ positionMode: 'ONE_WAY' }),
        () => futures.setPositionMode(base, { positionMode: 'ONE_WAY' }),
      ],
      [
        'orders.cancelAll',
        () => full.orders.cancelAll({ symbol: 'BTCUSDT' }),
        () => orders.cancelAll(base, { symbol: 'BTCUSDT' }),
      ],
    ];
    for (const [name, viaResource, standalone] of pairs) {
      sent.length = 0;
      const expected = await viaResource().then(
        (value) => ({ ok: true, keys: Object.keys(value as object).sort() }),
        (error: Error) => ({ ok: false, name: error.name }),
      );
      const fromResource = sent.splice(0);
      const actual = await standalone().then(
        (value) => ({ ok: true, keys: Object.keys(value as object).sort() }),
        (error: Error) => ({ ok: false, name: error.name }),
      );
      expect(sent, name).toEqual(fromResource);
      expect(actual, name).toEqual(expected);
    }
  });

  it('get, cancel and replace take the id like the resource methods', async () => {
    const { sent, full, base } = rig();
    const limit = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '50000' } as const;
    const { order } = await orders.create(base, limit);
    expect(await orders.get(base, order.id)).toEqual(await full.orders.get(order.id));
    const replaced = await orders.replace(base, order.id, { ...limit, price: '50500' });
    expect(replaced.created.order.price).toBe('50500');
    sent.length = 0;
    const canceled = await orders.cancel(base, replaced.created.order.id);
    expect(canceled.order.status).toBe('CANCELED');
    expect(sent).toMatchObject([{ method: 'POST', path: `/v2/orders/${replaced.created.order.id}/cancel` }]);
  });

  it('createBaseClient applies the same option guards and attaches no resources', () => {
    expect(() => createBaseClient({ baseUrl: 'http://api.example.com' })).toThrow(ConfigurationError);
    expect(() => createBaseClient({ baseUrl: 'https://api.example.com/v2' })).toThrow(/must not end with \/v2/);
    expect(() => createBaseClient({ baseUrl: 'https://api.example.com', apiSecret: 's' })).toThrow(
      /apiKey is required/,
    );
    const base = createBaseClient({ baseUrl: 'https://api.example.com' });
    expect('orders' in base).toBe(false);
    expect('market' in base).toBe(false);
  });

  it('a signed call on a key-less base client rejects with ConfigurationError before any network', async () => {
    let calls = 0;
    const base = createBaseClient({
      baseUrl: 'https://api.example.com',
      fetch: async () => {
        calls++;
        return new Response('{}');
      },
    });
    await expect(account.balance(base)).rejects.toBeInstanceOf(ConfigurationError);
    expect(calls).toBe(0);
  });

  it('anything but a client rejects with ConfigurationError (never a synchronous throw or a TypeError)', async () => {
    const notAClient = { baseUrl: 'https://api.example.com' } as unknown as BaseClient;
    const pending = market.ticker24hr(notAClient);
    await expect(pending).rejects.toBeInstanceOf(ConfigurationError);
    await expect(collect(orders.listAll(notAClient))).rejects.toBeInstanceOf(ConfigurationError);
  });
});
