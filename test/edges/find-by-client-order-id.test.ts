import { FuturesClient, FuturesError, RequestValidationError } from 'futures-sdk';
import { createExchange, type Exchange } from 'futures-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Unknown outcomes of a create, resolved on a real socket against the simulator: the error names the
// clientOrderId it sent, orders.findByClientOrderId finds the order from it, and a repeat of the create with that
// id is answered idempotently (issue 20).

let ex: Exchange;
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ex = createExchange({ seed: 20, volatility: 0 });
  ex.setMarkPrice('BTCUSDT', '60000');
  ex.setMarkPrice('ETHUSDT', '3000');
  ({ url, close } = await ex.listen());
});
afterAll(() => close());

/** A fresh account, a client without retries, and a count of the list pages it reads. */
function rig() {
  const { accountId } = ex.createAccount({ balances: { USDT: '10000000' } });
  const credentials = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  const calls = { listPages: 0, total: 0 };
  const counting: typeof fetch = async (input, init) => {
    calls.total++;
    const request = new Request(input, init);
    if (request.method === 'GET' && new URL(request.url).pathname === '/v2/orders') calls.listPages++;
    return await fetch(input, init);
  };
  const client = new FuturesClient({ baseUrl: url, ...credentials, fetch: counting, retry: false });
  return { client, calls, orders: () => ex.account(accountId).orders };
}

const limit = (price: string, symbol = 'BTCUSDT') =>
  ({ symbol, side: 'BUY', type: 'LIMIT', quantity: '0.001', price }) as const;

async function restingOrders(client: FuturesClient, count: number): Promise<void> {
  for (let i = 0; i < count; i += 5) {
    const items = Array.from({ length: Math.min(5, count - i) }, (_, k) => limit(String(30000 + i + k)));
    const { results } = await client.orders.createBatch(items);
    if (!results.every((r) => r.success)) throw new Error('setup: an order was not placed');
  }
}

describe('a create whose outcome is unknown', () => {
  it('rejects with outcomeUnknown and its clientOrderId; the lookup finds the order; a repeat places no second one', async () => {
    const { client, orders } = rig();
    ex.faults.add({ method: 'POST', path: '/v2/orders', reset: true }); // processed, then the socket drops
    const error = await client.orders.create(limit('59000')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FuturesError);
    const err = error as FuturesError;
    expect(err.outcomeUnknown).toBe(true);
    expect(err.clientOrderId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(JSON.parse(JSON.stringify(err)).clientOrderId).toBe(err.clientOrderId); // kept by the sealed view
    expect(orders()).toHaveLength(1);

    const found = await client.orders.findByClientOrderId(err.clientOrderId!);
    expect(found?.clientOrderId).toBe(err.clientOrderId);
    expect(found?.id).toBe(orders()[0]!.id);
    expect(await client.orders.findByClientOrderId(err.clientOrderId!, { symbol: 'BTCUSDT' })).toEqual(found);
    expect(await client.orders.findByClientOrderId(err.clientOrderId!, { symbol: 'ETHUSDT' })).toBeUndefined();

    const again = await client.orders.create({ ...limit('59000'), clientOrderId: err.clientOrderId! });
    expect(again.idempotent).toBe(true);
    expect(again.order.id).toBe(found?.id);
    expect(orders()).toHaveLength(1);
  });

  it('an id that was never placed resolves undefined', async () => {
    const { client } = rig();
    await client.orders.create(limit('58000'));
    expect(await client.orders.findByClientOrderId('never-placed')).toBeUndefined();
  });

  it('a timeout, an ApiError and a validation error of create carry the clientOrderId too', async () => {
    const { client } = rig();
    ex.faults.add({ method: 'POST', path: '/v2/orders', delayMs: 500 });
    const timeout = (await client.orders
      .create({ ...limit('57000'), clientOrderId: 'timeout-1' }, { timeoutMs: 100 })
      .catch((e: unknown) => e)) as FuturesError;
    expect(timeout.name).toBe('TimeoutError');
    expect(timeout.clientOrderId).toBe('timeout-1');

    ex.faults.add({ method: 'POST', path: '/v2/orders', status: 503 });
    const server = (await client.orders.create(limit('57000')).catch((e: unknown) => e)) as FuturesError;
    expect(server.name).toBe('ServerError');
    expect(server.outcomeUnknown).toBe(true);
    expect(typeof server.clientOrderId).toBe('string');

    const rejected = (await client.orders
      .create({ ...limit('57000'), quantity: '1000000', clientOrderId: 'too-big' })
      .catch((e: unknown) => e)) as FuturesError;
    expect(rejected.name).toBe('BadRequestError');
    expect(rejected.clientOrderId).toBe('too-big');

    const invalid = await client.orders
      .create({ ...limit('57000'), quantity: '-1', clientOrderId: 'mine' })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(RequestValidationError);
    expect((invalid as FuturesError).clientOrderId).toBe('mine');
    const anonymous = await client.orders.create({ ...limit('57000'), quantity: '-1' }).catch((e: unknown) => e);
    expect(anonymous).toBeInstanceOf(RequestValidationError);
    expect((anonymous as FuturesError).clientOrderId).toBeUndefined();
    // Errors of other calls carry none.
    const other = (await client.orders.get('missing').catch((e: unknown) => e)) as FuturesError;
    expect(other.name).toBe('NotFoundError');
    expect(other.clientOrderId).toBeUndefined();
  });
});

describe('createBatch', () => {
  it('names the clientOrderId it sent on every result, placed or not', async () => {
    const { client } = rig();
    const { results } = await client.orders.createBatch([
      { ...limit('56000'), clientOrderId: 'batch-mine' },
      limit('56001', 'NOSUCHUSDT'),
      limit('56002'),
    ]);
    expect(results.map((r) => r.success)).toEqual([true, false, true]);
    expect(results[0]?.clientOrderId).toBe('batch-mine');
    expect(results[1]?.clientOrderId).toMatch(/^[0-9a-f-]{36}$/);
    const third = results[2];
    expect(third?.success && (await client.orders.findByClientOrderId(third.clientOrderId))?.id).toBe(
      third?.success && third.orderId,
    );
  });

  it('an error that rejects the whole batch carries clientOrderIds', async () => {
    const { client, orders } = rig();
    ex.faults.add({ method: 'POST', path: '/v2/orders/batch', reset: true });
    const err = (await client.orders
      .createBatch([{ ...limit('55000'), clientOrderId: 'b-1' }, limit('55001')])
      .catch((e: unknown) => e)) as FuturesError;
    expect(err.outcomeUnknown).toBe(true);
    expect(err.clientOrderIds).toHaveLength(2);
    expect(err.clientOrderIds?.[0]).toBe('b-1');
    expect(orders()).toHaveLength(2);
    for (const id of err.clientOrderIds ?? []) expect(await client.orders.findByClientOrderId(id)).toBeDefined();
  });
});

describe('bounds and validation', () => {
  it('reads at most maxPages pages of 200, newest first, and stops at a match or a short page', async () => {
    const { client, calls } = rig();
    const target = await client.orders.create({ ...limit('3000', 'ETHUSDT'), clientOrderId: 'oldest' });
    await restingOrders(client, 200); // the target is now the 201st newest order

    calls.listPages = 0;
    expect(await client.orders.findByClientOrderId('oldest', { maxPages: 1 })).toBeUndefined();
    expect(calls.listPages).toBe(1);

    calls.listPages = 0;
    expect((await client.orders.findByClientOrderId('oldest'))?.id).toBe(target.order.id);
    expect(calls.listPages).toBe(2);

    calls.listPages = 0;
    expect(await client.orders.findByClientOrderId('never-placed')).toBeUndefined();
    expect(calls.listPages).toBe(2); // the second page is short: the last order was read

    calls.listPages = 0; // the symbol filter is the server's: one page of ETHUSDT orders holds it
    expect((await client.orders.findByClientOrderId('oldest', { symbol: 'ETHUSDT', maxPages: 1 }))?.id).toBe(
      target.order.id,
    );
    expect(calls.listPages).toBe(1);
  });

  it('checks its arguments before any network', async () => {
    const { client, calls } = rig();
    const bad: Array<[unknown, unknown]> = [
      ['', {}],
      [undefined, {}],
      [42, {}],
      ['id', { maxPages: 0 }],
      ['id', { maxPages: 51 }],
      ['id', { maxPages: 1.5 }],
      ['id', { symbol: 'btcusdt' }],
      ['id', { subAccountId: '' }],
      ['id', { pages: 2 }],
    ];
    for (const [id, query] of bad) {
      const error = await client.orders
        .findByClientOrderId(id as string, query as { maxPages?: number })
        .catch((e: unknown) => e);
      expect(error, JSON.stringify([id, query])).toBeInstanceOf(RequestValidationError);
      expect((error as Error).message).toContain('orders.findByClientOrderId');
    }
    expect(calls.total).toBe(0);
    await expect(client.orders.findByClientOrderId('id', { maxPages: 50 })).resolves.toBeUndefined();
    await expect(client.orders.findByClientOrderId('id', { maxPages: 1 })).resolves.toBeUndefined();
  });
});
