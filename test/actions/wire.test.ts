import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/endpoints/registry.ts';
import type { FuturesClient } from '../../src/index.ts';
import { specRoutes } from './_fixtures.ts';
import { recordingFetch, testClient } from './_recording-fetch.ts';

/** One call per endpoint; its method, path and signing are read from the endpoint's definition. */
type Case = {
  name: string;
  call: (c: FuturesClient) => Promise<unknown>;
  /** The path id the call passes, in place of the definition's `{id}`. */
  id?: string;
  query?: Record<string, string>;
  body?: unknown;
};

const cases: Case[] = [
  {
    name: 'orders.create',
    call: (c) => c.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '60000' }),
  },
  {
    name: 'orders.createBatch',
    call: (c) => c.orders.createBatch([{ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '1' }]),
  },
  {
    name: 'orders.list',
    call: (c) => c.orders.list({ symbol: 'BTCUSDT', status: 'NEW', limit: 200, offset: 0 }),
    query: { symbol: 'BTCUSDT', status: 'NEW', limit: '200', offset: '0' },
  },
  { name: 'orders.get', call: (c) => c.orders.get('ord-1'), id: 'ord-1' },
  {
    name: 'orders.cancel',
    call: (c) => c.orders.cancel('ord-1'),
    id: 'ord-1',
    body: {},
  },
  {
    name: 'orders.cancelAll',
    call: (c) => c.orders.cancelAll({ symbol: 'BTCUSDT' }),
    query: { symbol: 'BTCUSDT' },
  },
  {
    name: 'orders.closePosition',
    call: (c) => c.orders.closePosition({ positionId: 'pos-1', quantity: '0.005' }),
    body: { positionId: 'pos-1', quantity: '0.005' },
  },
  {
    name: 'orders.openOrders',
    call: (c) => c.orders.openOrders({ symbol: 'BTCUSDT' }),
    query: { symbol: 'BTCUSDT' },
  },
  {
    name: 'orders.myTrades',
    call: (c) => c.orders.myTrades({ symbol: 'BTCUSDT', fromId: 6 }),
    query: { symbol: 'BTCUSDT', fromId: '6' },
  },
  {
    name: 'orders.positionHistory',
    call: (c) => c.orders.positionHistory({ page: 2, limit: 1000, startTime: 1, endTime: 2 }),
    query: { page: '2', limit: '1000', startTime: '1', endTime: '2' },
  },
  {
    name: 'futures.setLeverage',
    call: (c) => c.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 10, forceWithOpenPosition: true }),
    body: { symbol: 'BTCUSDT', leverage: 10, forceWithOpenPosition: true },
  },
  {
    name: 'futures.setMarginType',
    call: (c) => c.futures.setMarginType({ symbol: 'BTCUSDT', marginType: 'ISOLATED' }),
    body: { symbol: 'BTCUSDT', marginType: 'ISOLATED' },
  },
  {
    name: 'futures.closeAndSwitchMargin',
    call: (c) => c.futures.closeAndSwitchMargin({ symbol: 'BTCUSDT', targetMarginType: 'ISOLATED' }),
    body: { symbol: 'BTCUSDT', targetMarginType: 'ISOLATED' },
  },
  {
    name: 'futures.setPositionMode',
    call: (c) => c.futures.setPositionMode({ positionMode: 'HEDGE' }),
    body: { positionMode: 'HEDGE' },
  },
  {
    name: 'account.balance',
    call: (c) => c.account.balance(),
  },
  {
    name: 'account.positions',
    call: (c) => c.account.positions({ status: 'CLOSED' }),
    query: { status: 'CLOSED' },
  },
  {
    name: 'account.exposure',
    call: (c) => c.account.exposure(),
  },
  {
    name: 'account.transfers',
    call: (c) => c.account.transfers({ skip: 0, take: 100, type: 'deposit' }),
    query: { skip: '0', take: '100', type: 'deposit' },
  },
  {
    name: 'account.activities',
    call: (c) => c.account.activities({ skip: 5, take: 10 }),
    query: { skip: '5', take: '10' },
  },
  {
    name: 'account.pnlHistory',
    call: (c) => c.account.pnlHistory({ period: 'monthly', limit: 12 }),
    query: { period: 'monthly', limit: '12' },
  },
  {
    name: 'account.spotBalances',
    call: (c) => c.account.spotBalances('acc-1'),
    id: 'acc-1',
  },
  { name: 'market.symbols', call: (c) => c.market.symbols() },
  {
    name: 'market.ticker24hr',
    call: (c) => c.market.ticker24hr({ symbol: 'BTCUSDT' }),
    query: { symbol: 'BTCUSDT' },
  },
  {
    name: 'market.depth',
    call: (c) => c.market.depth({ symbol: 'BTCUSDT', limit: 5 }),
    query: { symbol: 'BTCUSDT', limit: '5' },
  },
  {
    name: 'market.trades',
    call: (c) => c.market.trades({ symbol: 'BTCUSDT' }),
    query: { symbol: 'BTCUSDT' },
  },
  {
    name: 'market.fundingRate',
    call: (c) => c.market.fundingRate({ symbol: 'BTCUSDT' }),
    query: { symbol: 'BTCUSDT' },
  },
  {
    name: 'market.klines',
    call: (c) => c.market.klines({ symbol: 'BTCUSDT', interval: '1M', limit: 3 }),
    query: { symbol: 'BTCUSDT', interval: '1M', limit: '3' },
  },
  {
    name: 'market.leaderboard',
    call: (c) => c.market.leaderboard({ type: 'volume', period: '7d', limit: 100 }),
    query: { type: 'volume', period: '7d', limit: '100' },
  },
  {
    name: 'market.platformTokens',
    call: (c) => c.market.platformTokens(),
  },
  {
    name: 'market.platformStatus',
    call: (c) => c.market.platformStatus(),
  },
  { name: 'market.health', call: (c) => c.market.health() },
];

const definitionOf = (name: string) => {
  const endpoint = ENDPOINTS.find((e) => e.name === name);
  if (!endpoint) throw new Error(`no endpoint definition named ${name}`);
  return endpoint;
};

describe('every endpoint on the wire', () => {
  it('has one case per endpoint definition, and no other', () => {
    expect(cases.map((c) => c.name).sort()).toEqual(ENDPOINTS.map((e) => e.name).sort());
  });

  it.each(cases)('$name', async ({ name, call, id, query, body }) => {
    const endpoint = definitionOf(name);
    const { method } = endpoint;
    const path = id === undefined ? endpoint.path : endpoint.path.replace('{id}', id);
    const signed = endpoint.auth === 'signed';
    const { fetch, requests } = recordingFetch(specRoutes());
    const result = (await call(testClient(fetch))) as { ok: unknown };
    expect(result.ok).toBe(true);
    expect(requests).toHaveLength(1);
    const req = requests[0]!;
    expect(req.method).toBe(method);
    expect(req.rawPath).toBe(path);
    if (signed) {
      expect(req.headers.get('x-api-key')).toBe('test-api-key-0001');
      expect(req.query.get('timestamp')).toMatch(/^\d{13}$/);
      expect(req.query.get('signature')).toMatch(/^[0-9a-f]{64}$/);
    } else {
      expect(req.headers.has('x-api-key')).toBe(false);
      expect(req.query.has('signature')).toBe(false);
      expect(req.query.has('timestamp')).toBe(false);
    }
    const sent = Object.fromEntries([...req.query].filter(([k]) => k !== 'timestamp' && k !== 'signature'));
    expect(sent).toEqual(query ?? {});
    if (body !== undefined) expect(req.body).toEqual(body);
    if (method === 'GET' || method === 'DELETE') expect(req.body).toBeUndefined();
    if (req.body !== undefined) expect(req.headers.get('content-type')).toBe('application/json');
  });
});

describe('request details', () => {
  it('percent-encodes the other characters of a path id (non-ASCII letters, punctuation)', async () => {
    const { fetch, requests } = recordingFetch({});
    const client = testClient(fetch, { retry: false });
    await client.orders.get('ordé-1').catch(() => undefined);
    await client.orders.cancel('x:y@z[1]').catch(() => undefined);
    await client.account.spotBalances('acc_1😀').catch(() => undefined);
    expect(requests.map((r) => r.rawPath)).toEqual([
      '/v2/orders/ord%C3%A9-1',
      '/v2/orders/x%3Ay%40z%5B1%5D/cancel',
      '/v2/accounts/acc_1%F0%9F%98%80/balances',
    ]);
  });

  it("rejects ids a proxy could re-route ('/', '?', '#', '%', '.', '..', ...): nothing is sent (v0.3)", async () => {
    const { fetch, requests } = recordingFetch({});
    const client = testClient(fetch);
    await expect(client.orders.get('..')).rejects.toMatchObject({ name: 'RequestValidationError' });
    await expect(client.orders.cancel('.')).rejects.toMatchObject({ name: 'RequestValidationError' });
    await expect(client.account.spotBalances('..')).rejects.toMatchObject({ name: 'RequestValidationError' });
    await expect(client.orders.get('a/../b')).rejects.toMatchObject({ name: 'RequestValidationError' });
    await expect(client.orders.cancel('x?y#z')).rejects.toMatchObject({ name: 'RequestValidationError' });
    await expect(client.account.spotBalances('acc 1/é')).rejects.toMatchObject({ name: 'RequestValidationError' });
    expect(requests).toHaveLength(0);
  });

  it('fills subAccountId from the client wherever the endpoint accepts one', async () => {
    const { fetch, requests } = recordingFetch(specRoutes());
    const client = testClient(fetch, { subAccountId: 'sub-9' });
    await client.account.balance();
    await client.orders.openOrders();
    await client.orders.myTrades({ symbol: 'BTCUSDT' });
    await client.orders.positionHistory();
    await client.orders.cancelAll();
    await client.orders.cancel('ord-1');
    await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' });
    await client.orders.createBatch([{ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' }]);
    const [balance, open, trades, history, cancelAll, cancel, create, batch] = requests;
    for (const r of [balance, open, trades, history, cancelAll]) expect(r?.query.get('subAccountId')).toBe('sub-9');
    expect(cancel?.body).toEqual({ subAccountId: 'sub-9' });
    expect((create!.body as Record<string, unknown>)['subAccountId']).toBe('sub-9');
    expect((batch!.body as { orders: Array<Record<string, unknown>> }).orders[0]?.['subAccountId']).toBe('sub-9');
  });

  it('never adds the client subAccountId to an endpoint that does not accept one', async () => {
    const { fetch, requests } = recordingFetch(specRoutes());
    const client = testClient(fetch, { subAccountId: 'sub-9' });
    await client.orders.list();
    await client.orders.get('ord-1');
    await client.orders.closePosition({ positionId: 'pos-1' });
    await client.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 5 });
    await client.futures.setMarginType({ symbol: 'BTCUSDT', marginType: 'ISOLATED' });
    await client.futures.closeAndSwitchMargin({ symbol: 'BTCUSDT', targetMarginType: 'ISOLATED' });
    await client.futures.setPositionMode({ positionMode: 'HEDGE' });
    await client.account.positions();
    await client.account.exposure();
    await client.account.transfers();
    await client.account.activities();
    await client.account.pnlHistory();
    await client.account.spotBalances('acc-1');
    expect(requests).toHaveLength(13);
    for (const r of requests) {
      expect(r.query.has('subAccountId'), `${r.method} ${r.rawPath}`).toBe(false);
      expect(r.body ?? {}, `${r.method} ${r.rawPath}`).not.toHaveProperty('subAccountId');
    }
  });

  it('lets an explicit subAccountId win over the client default', async () => {
    const { fetch, requests } = recordingFetch(specRoutes());
    const client = testClient(fetch, { subAccountId: 'sub-9' });
    await client.account.balance({ subAccountId: 'sub-1' });
    await client.orders.cancel('ord-1', { subAccountId: 'sub-1' });
    expect(requests[0]?.query.get('subAccountId')).toBe('sub-1');
    expect(requests[1]?.body).toEqual({ subAccountId: 'sub-1' });
  });

  it('does not send subAccountId when neither the call nor the client has one', async () => {
    const { fetch, requests } = recordingFetch(specRoutes());
    const client = testClient(fetch);
    await client.account.balance();
    await client.orders.closePosition({ positionId: 'pos-1' });
    expect(requests[0]?.query.has('subAccountId')).toBe(false);
    expect(requests[1]?.body).toEqual({ positionId: 'pos-1' });
  });

  it('gives every batch item its own UUID v4 clientOrderId and keeps caller-chosen ones', async () => {
    const { fetch, requests } = recordingFetch(specRoutes());
    await testClient(fetch).orders.createBatch([
      { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' },
      { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1', clientOrderId: 'mine-1' },
      { symbol: 'ETHUSDT', side: 'SELL', type: 'STOP_MARKET', quantity: '2', stopPrice: '3000' },
    ]);
    const ids = (requests[0]!.body as { orders: Array<{ clientOrderId: string }> }).orders.map((o) => o.clientOrderId);
    const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(ids[0]).toMatch(uuidV4);
    expect(ids[1]).toBe('mine-1');
    expect(ids[2]).toMatch(uuidV4);
    expect(ids[0]).not.toBe(ids[2]);
  });

  it('keeps the batch clientOrderIds across retries, with a fresh signature per attempt', async () => {
    const routes = specRoutes();
    const { fetch, requests } = recordingFetch({
      'POST /v2/orders/batch': [{ status: 503, body: { ok: false, error: 'busy' } }, routes['POST /v2/orders/batch']],
    });
    await testClient(fetch).orders.createBatch([
      { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' },
      { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '1' },
    ]);
    expect(requests).toHaveLength(2);
    expect(requests[1]?.body).toEqual(requests[0]?.body);
    expect(requests[1]?.query.get('signature')).not.toBe(requests[0]?.query.get('signature'));
  });

  it('does not retry a cancel or close-position after a 5xx (the server may have acted)', async () => {
    const fail = { status: 503, body: { ok: false, error: 'busy' } };
    const { fetch, requests } = recordingFetch({
      'POST /v2/orders/ord-1/cancel': fail,
      'POST /v2/positions/close': fail,
      'POST /v2/futures/close-and-switch-margin': { status: 504, body: { ok: false, error: 'gateway' } },
    });
    const client = testClient(fetch);
    await expect(client.orders.cancel('ord-1')).rejects.toMatchObject({ status: 503 });
    await expect(client.orders.closePosition({ positionId: 'p' })).rejects.toMatchObject({ status: 503 });
    await expect(
      client.futures.closeAndSwitchMargin({ symbol: 'BTCUSDT', targetMarginType: 'CROSSED' }),
    ).rejects.toMatchObject({ status: 504 });
    expect(requests).toHaveLength(3);
  });

  it('retries the idempotent setters and cancel-all on a 5xx', async () => {
    const routes = specRoutes();
    const fail = { status: 502, body: { ok: false, error: 'bad gateway' } };
    const { fetch, requests } = recordingFetch({
      'POST /v2/futures/leverage': [fail, routes['POST /v2/futures/leverage']],
      'DELETE /v2/orders/open': [fail, routes['DELETE /v2/orders/open']],
    });
    const client = testClient(fetch);
    await client.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 5 });
    await client.orders.cancelAll();
    expect(requests.map((r) => r.method)).toEqual(['POST', 'POST', 'DELETE', 'DELETE']);
  });

  it('signs the query it sends: user params appear in the signed payload', async () => {
    const { fetch, requests } = recordingFetch(specRoutes());
    // status is a free string (an open enum); symbol would be refused before sending (upper-case letters and digits).
    await testClient(fetch).orders.list({ status: 'NEW USDT&x=1', limit: 5 });
    const q = requests[0]!.query;
    expect(q.get('status')).toBe('NEW USDT&x=1');
    const { canonicalQuery, hmacSha256Hex } = await import('../../src/index.ts');
    const payload = canonicalQuery(Object.fromEntries([...q].filter(([k]) => k !== 'signature')));
    expect(q.get('signature')).toBe(hmacSha256Hex('test-secret', payload));
  });
});
