import { describe, expect, it } from 'vitest';
import { ConflictError, ReplaceOrderError, ServerError } from '../../src/index.ts';
import { order, specRoutes, transfer } from './_fixtures.ts';
import { type RecordedRequest, recordingFetch, testClient } from './_recording-fetch.ts';

const limit = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '61000' } as const;

describe('orders.cancelAll', () => {
  it('fills in total and results when the server says nothing was open', async () => {
    const { fetch } = recordingFetch({ 'DELETE /v2/orders/open': { body: { ok: true, canceled: 0 } } });
    await expect(testClient(fetch).orders.cancelAll()).resolves.toEqual({
      ok: true,
      canceled: 0,
      total: 0,
      results: [],
    });
  });

  it('passes FAILED entries through with their error', async () => {
    const body = {
      ok: true,
      canceled: 1,
      total: 2,
      results: [
        { orderId: 'a', symbol: 'BTCUSDT', status: 'CANCELED' },
        { orderId: 'b', symbol: 'BTCUSDT', status: 'FAILED', error: 'Unknown order' },
      ],
    };
    const { fetch } = recordingFetch({ 'DELETE /v2/orders/open': { body } });
    await expect(testClient(fetch).orders.cancelAll()).resolves.toEqual(body);
  });

  it('with includeConditional, cancels working conditional orders one by one and reports each', async () => {
    const stop = order({ id: 'stop-1', type: 'STOP_MARKET', stopPrice: '50000', price: null, status: 'NEW' });
    const tp = order({ id: 'tp-1', type: 'TAKE_PROFIT', stopPrice: '70000', status: 'NEW' });
    const tpm = order({ id: 'tpm-1', type: 'TAKE_PROFIT_MARKET', stopPrice: '70000', status: 'PARTIALLY_FILLED' });
    const plainLimit = order({ id: 'lim-1', type: 'LIMIT', status: 'NEW' });
    const { fetch, requests } = recordingFetch({
      'GET /v2/orders': (req) => {
        const status = req.query.get('status');
        const rows = [stop, tp, tpm, plainLimit].filter((o) => o.status === status);
        return { body: { ok: true, orders: rows, total: rows.length } };
      },
      'DELETE /v2/orders/open': {
        body: {
          ok: true,
          canceled: 1,
          total: 1,
          results: [{ orderId: 'lim-1', symbol: 'BTCUSDT', status: 'CANCELED' }],
        },
      },
      'POST /v2/orders/stop-1/cancel': { body: { ok: true, order: { ...stop, status: 'CANCELED' }, venue: {} } },
      'POST /v2/orders/tp-1/cancel': { status: 400, body: { ok: false, error: 'Order already triggered' } },
      'POST /v2/orders/tpm-1/cancel': { body: { ok: true, order: { ...tpm, status: 'CANCELED' }, venue: {} } },
    });
    const res = await testClient(fetch).orders.cancelAll({ symbol: 'BTCUSDT', includeConditional: true });
    expect(res.canceled).toBe(3);
    expect(res.total).toBe(4);
    expect(res.results).toEqual([
      { orderId: 'lim-1', symbol: 'BTCUSDT', status: 'CANCELED' },
      { orderId: 'stop-1', symbol: 'BTCUSDT', status: 'CANCELED', conditional: true },
      { orderId: 'tp-1', symbol: 'BTCUSDT', status: 'FAILED', error: 'Order already triggered', conditional: true },
      { orderId: 'tpm-1', symbol: 'BTCUSDT', status: 'CANCELED', conditional: true },
    ]);
    // The listing is filtered by symbol, and includeConditional never reaches the server.
    const lists = requests.filter((r) => r.method === 'GET');
    expect(lists.map((r) => r.query.get('symbol'))).toEqual(['BTCUSDT', 'BTCUSDT', 'BTCUSDT']);
    const del = requests.find((r) => r.method === 'DELETE')!;
    expect(del.query.has('includeConditional')).toBe(false);
    expect(requests.filter((r) => r.rawPath === '/v2/orders/lim-1/cancel')).toHaveLength(0);
  });

  it('with includeConditional and nothing open anywhere, still resolves the filled-in shape', async () => {
    const { fetch } = recordingFetch({
      'GET /v2/orders': { body: { ok: true, orders: [], total: 0 } },
      'DELETE /v2/orders/open': { body: { ok: true, canceled: 0 } },
    });
    await expect(testClient(fetch).orders.cancelAll({ includeConditional: true })).resolves.toEqual({
      ok: true,
      canceled: 0,
      total: 0,
      results: [],
    });
  });

  it('a failed listing rejects before anything is canceled', async () => {
    const { fetch, requests } = recordingFetch({
      'GET /v2/orders': { status: 500, body: { ok: false, error: 'db down' } },
    });
    const client = testClient(fetch, { retry: false });
    await expect(client.orders.cancelAll({ includeConditional: true })).rejects.toBeInstanceOf(ServerError);
    expect(requests.every((r) => r.method === 'GET')).toBe(true);
  });
});

describe('orders.replace', () => {
  it('cancels then creates and reports both steps', async () => {
    const created = order({ id: 'ord-2', price: '61000' });
    const { fetch, requests } = recordingFetch({
      'POST /v2/orders/ord-1/cancel': specRoutes()['POST /v2/orders/ord-1/cancel'],
      'POST /v2/orders': { body: { ok: true, order: created, venue: {} } },
    });
    const res = await testClient(fetch).orders.replace('ord-1', limit);
    expect(res.canceled.order.status).toBe('CANCELED');
    expect(res.created.order.id).toBe('ord-2');
    expect(requests.map((r) => `${r.method} ${r.rawPath}`)).toEqual([
      'POST /v2/orders/ord-1/cancel',
      'POST /v2/orders',
    ]);
  });

  it('when the cancel fails, rejects with that error and creates nothing', async () => {
    const { fetch, requests } = recordingFetch({
      'POST /v2/orders/ord-1/cancel': { status: 404, body: { ok: false, error: 'Order not found' } },
    });
    await expect(testClient(fetch).orders.replace('ord-1', limit)).rejects.toMatchObject({
      name: 'NotFoundError',
      error: 'Order not found',
    });
    expect(requests).toHaveLength(1);
  });

  it('when the create fails after the cancel, rejects with ReplaceOrderError carrying both', async () => {
    const { fetch } = recordingFetch({
      'POST /v2/orders/ord-1/cancel': specRoutes()['POST /v2/orders/ord-1/cancel'],
      'POST /v2/orders': { status: 409, body: { ok: false, error: 'clientOrderId already used' } },
    });
    const error = await testClient(fetch)
      .orders.replace('ord-1', limit)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplaceOrderError);
    const replaceError = error as ReplaceOrderError;
    expect(replaceError.message).toMatch(/ord-1 was canceled/);
    expect(replaceError.canceled.order.status).toBe('CANCELED');
    expect(replaceError.cause).toBeInstanceOf(ConflictError);
    expect(replaceError.oldOrderId).toBe('ord-1');
  });
});

describe('async iterators', () => {
  function pagedOrders(count: number) {
    const all = Array.from({ length: count }, (_, i) => order({ id: `o-${i}` }));
    return (req: RecordedRequest) => {
      const offset = Number(req.query.get('offset'));
      const pageLimit = Number(req.query.get('limit'));
      return { body: { ok: true, orders: all.slice(offset, offset + pageLimit), total: all.length } };
    };
  }

  it('orders.listAll walks every page with limit 200 until total', async () => {
    const { fetch, requests } = recordingFetch({ 'GET /v2/orders': pagedOrders(450) });
    const ids: string[] = [];
    for await (const o of testClient(fetch).orders.listAll({ symbol: 'BTCUSDT' })) ids.push(o.id);
    expect(ids).toHaveLength(450);
    expect(new Set(ids).size).toBe(450);
    expect(requests.map((r) => [r.query.get('limit'), r.query.get('offset'), r.query.get('symbol')])).toEqual([
      ['200', '0', 'BTCUSDT'],
      ['200', '200', 'BTCUSDT'],
      ['200', '400', 'BTCUSDT'],
    ]);
  });

  it('orders.listAll stops at an exact multiple without an extra request', async () => {
    const { fetch, requests } = recordingFetch({ 'GET /v2/orders': pagedOrders(400) });
    let n = 0;
    for await (const _ of testClient(fetch).orders.listAll()) n++;
    expect(n).toBe(400);
    expect(requests).toHaveLength(2);
  });

  it('breaking out of the loop stops fetching', async () => {
    const { fetch, requests } = recordingFetch({ 'GET /v2/orders': pagedOrders(1000) });
    for await (const o of testClient(fetch).orders.listAll()) if (o.id === 'o-5') break;
    expect(requests).toHaveLength(1);
  });

  it('account.transfersAll pages with take 100 and passes the type', async () => {
    const all = Array.from({ length: 150 }, (_, i) => transfer({ id: `t-${i}`, transferType: 2 }));
    const { fetch, requests } = recordingFetch({
      'GET /v2/me/transfers': (req) => {
        const skip = Number(req.query.get('skip'));
        const take = Number(req.query.get('take'));
        return { body: { ok: true, transfers: all.slice(skip, skip + take), total: all.length } };
      },
    });
    const got = [];
    for await (const t of testClient(fetch).account.transfersAll({ type: 'withdraw' })) got.push(t.id);
    expect(got).toHaveLength(150);
    expect(requests.map((r) => [r.query.get('take'), r.query.get('skip'), r.query.get('type')])).toEqual([
      ['100', '0', 'withdraw'],
      ['100', '100', 'withdraw'],
    ]);
  });

  it('account.activitiesAll skips nothing when the server caps pages below the requested size', async () => {
    const feed = Array.from({ length: 70 }, (_, i) => ({
      type: 'EXECUTION',
      id: `e-${i}`,
      data: {},
      ts: '2026-04-26T10:00:00.000Z',
    }));
    const totals = specRoutes()['GET /v2/me/activities'].body.totals;
    const { fetch, requests } = recordingFetch({
      'GET /v2/me/activities': (req) => {
        const skip = Number(req.query.get('skip'));
        const take = Math.min(Number(req.query.get('take')), 25); // an undocumented server cap
        return { body: { ok: true, data: feed.slice(skip, skip + take), total: feed.length, totals } };
      },
    });
    const ids = [];
    for await (const a of testClient(fetch).account.activitiesAll()) ids.push(a.id);
    expect(ids).toEqual(feed.map((f) => f.id));
    expect(requests.map((r) => r.query.get('skip'))).toEqual(['0', '25', '50']);
  });

  it('a page error rejects the iteration with the FuturesError', async () => {
    const { fetch } = recordingFetch({
      'GET /v2/orders': { status: 401, body: { ok: false, error: 'Invalid API key' } },
    });
    const iterate = async () => {
      for await (const _ of testClient(fetch).orders.listAll()) {
        // no rows expected
      }
    };
    await expect(iterate()).rejects.toMatchObject({ name: 'AuthenticationError', error: 'Invalid API key' });
  });
});
