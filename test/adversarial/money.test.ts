/**
 * Adversarial review, MONEY SAFETY: duplicated orders and lost errors. Every test drives the wire through the
 * simulated exchange (`ex.fetch`, `ex.faults`) with a fake clock shared by client and exchange.
 */
import {
  AbortError,
  ConnectionError,
  FuturesClient,
  FuturesError,
  RateLimitError,
  ReplaceOrderError,
  TimeoutError,
} from 'futures-sdk';
import { createExchange, type Exchange } from 'futures-sdk/testing';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../helpers/clock.ts';
import { limitBuy, simulatorRig as rig } from '../helpers/simulator-rig.ts';

function ordersPlaced(ex: Exchange): number {
  return ex.requests.filter((r) => r.method === 'POST' && r.path === '/v2/orders' && r.status === 200).length;
}

async function failure(promise: Promise<unknown>): Promise<FuturesError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FuturesError);
  return error as FuturesError;
}

describe('a retried call whose first attempt may have acted never ends in a plain "not done" error', () => {
  it('create: reset after the server placed the order, then a long 429 → RateLimitError says the outcome is unknown', async () => {
    const { ex, client } = rig();
    ex.faults.add({ method: 'POST', path: '/v2/orders', reset: true });
    ex.faults.add({ method: 'POST', path: '/v2/orders', status: 429, headers: { 'Retry-After': '3600' } });
    const error = await failure(client.orders.create(limitBuy));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(ordersPlaced(ex)).toBe(1); // the order exists…
    expect(error.outcomeUnknown).toBe(true); // …and the error says it may
    expect(error.message).toMatch(/outcome is unknown/i);
  });

  it('create: reset after placing, then refused connections until the limit → not "never reached the server"', async () => {
    const { ex, client } = rig({ retry: { limit: 2 } });
    ex.faults.add({ method: 'POST', path: '/v2/orders', reset: true });
    ex.faults.add({ method: 'POST', path: '/v2/orders', refused: true, times: 2 });
    const error = await failure(client.orders.create(limitBuy));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).refused).toBe(true);
    expect(ordersPlaced(ex)).toBe(1);
    expect(error.outcomeUnknown).toBe(true);
  });

  it('replace: the replacement was placed (reset) then 429 → createOutcomeUnknown is true, not "could not be placed"', async () => {
    const { ex, client } = rig();
    const { order } = await client.orders.create(limitBuy);
    ex.faults.add({ method: 'POST', path: '/v2/orders', reset: true });
    ex.faults.add({ method: 'POST', path: '/v2/orders', status: 429, headers: { 'Retry-After': '3600' } });
    const error = await failure(client.orders.replace(order.id, { ...limitBuy, price: '49000' }));
    expect(error).toBeInstanceOf(ReplaceOrderError);
    expect(ordersPlaced(ex)).toBe(2);
    expect((error as ReplaceOrderError).createOutcomeUnknown).toBe(true);
    expect(error.message).not.toMatch(/could not be placed/);
  });

  it('create: aborted during the backoff after a reset → AbortError says the outcome is unknown', async () => {
    const { ex, client, clock } = rig();
    ex.faults.add({ method: 'POST', path: '/v2/orders', reset: true });
    const controller = new AbortController();
    const sleep = clock.sleep.bind(clock);
    clock.sleep = (ms, signal) => {
      controller.abort(new Error('user gave up'));
      return sleep(ms, signal);
    };
    const error = await failure(client.orders.create(limitBuy, { signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortError);
    expect(ordersPlaced(ex)).toBe(1);
    expect(error.outcomeUnknown).toBe(true);
  });

  it('a call refused before it ever reached the server is not marked unknown', async () => {
    const { ex, client } = rig({ retry: false });
    ex.faults.add({ method: 'POST', path: '/v2/orders', refused: true });
    const error = await failure(client.orders.create(limitBuy));
    expect(ordersPlaced(ex)).toBe(0);
    expect(error.outcomeUnknown).toBe(false);
  });
});

describe('cancelAll({ includeConditional: true })', () => {
  it('a conditional cancel whose connection dropped after the server canceled is reported as unknown, not FAILED', async () => {
    const { ex, client } = rig();
    const { order: stop } = await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'STOP_MARKET',
      quantity: '0.01',
      stopPrice: '70000',
    });
    ex.faults.add({ method: 'POST', path: `/v2/orders/${stop.id}/cancel`, reset: true });
    const result = await client.orders.cancelAll({ includeConditional: true });
    expect((await client.orders.get(stop.id)).order.status).toBe('CANCELED'); // it WAS canceled
    const entry = result.results.find((r) => r.orderId === stop.id);
    expect(entry).toMatchObject({ conditional: true, outcomeUnknown: true });
    expect(entry?.error).toMatch(/outcome is unknown/i);
  });

  it('an abort after the bulk cancel says the bulk cancel already happened', async () => {
    const controller = new AbortController();
    const { ex, client } = rig({
      fetch: async (input, init) => {
        const method = input instanceof Request ? input.method : init?.method;
        const response = await ex.fetch(input, init);
        if (method === 'DELETE') controller.abort(new Error('shutting down'));
        return response;
      },
    });
    const { order: resting } = await client.orders.create(limitBuy);
    await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'STOP_MARKET',
      quantity: '0.01',
      stopPrice: '70000',
    });
    const error = await failure(client.orders.cancelAll({ includeConditional: true }, { signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortError);
    expect((await client.orders.get(resting.id)).order.status).toBe('CANCELED');
    expect(error.outcomeUnknown).toBe(true);
  });
});

describe('hostile callbacks and abort reasons still end in a FuturesError of the right kind', () => {
  it('a signer that never answers: aborting the call rejects with AbortError (nothing sent)', async () => {
    const { ex, client: _ } = rig();
    const client = new FuturesClient({
      baseUrl: ex.baseUrl,
      apiKey: 'k-1234',
      signer: () => new Promise<string>(() => {}),
      fetch: ex.fetch,
    });
    const controller = new AbortController();
    const pending = client.orders.create(limitBuy, { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    const error = await failure(pending);
    expect(error).toBeInstanceOf(AbortError);
    expect(error.outcomeUnknown).toBe(false);
    expect(ex.requests).toHaveLength(0);
  });

  it('a signer that never answers: the per-attempt timeout still ends the call', async () => {
    const { ex } = rig();
    const client = new FuturesClient({
      baseUrl: ex.baseUrl,
      apiKey: 'k-1234',
      signer: () => new Promise<string>(() => {}),
      fetch: ex.fetch,
      timeoutMs: 20,
      retry: false,
    });
    const error = await failure(client.orders.create(limitBuy));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.outcomeUnknown).toBe(false);
    expect(ex.requests).toHaveLength(0);
  });

  it.each([
    ['a null-prototype object', () => Object.create(null) as unknown],
    [
      'an object whose toString throws',
      () => ({
        toString: () => {
          throw new Error('boom');
        },
      }),
    ],
    ['a symbol', () => Symbol('why')],
  ])('abort reason %s → AbortError', async (_name, reason) => {
    const { client } = rig();
    const controller = new AbortController();
    controller.abort(reason());
    const error = await failure(client.orders.create(limitBuy, { signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortError);
  });

  it.each([
    ['undefined', () => undefined],
    ['a plain object', () => ({ ok: true, status: 200 })],
    [
      'a thrown string',
      () => {
        throw 'nope';
      },
    ],
  ])('a fetch returning/throwing %s → a FuturesError (once-call not retried)', async (_name, make) => {
    const { ex } = rig();
    const creds = ex.createApiKey(ex.createAccount().accountId, { permissions: ['TRADE'] });
    const client = new FuturesClient({
      baseUrl: ex.baseUrl,
      ...creds,
      fetch: (async () => make()) as unknown as typeof fetch,
      retry: { limit: 1, baseDelayMs: 1 },
    });
    const error = await failure(client.orders.cancel('ord_1'));
    expect(error).toBeInstanceOf(FuturesError);
  });
});

describe('retry paths of position-moving calls', () => {
  const batchBodies = (ex: Exchange) =>
    ex.requests
      .filter((r) => r.path === '/v2/orders/batch')
      .map((r) => (r.body as { orders: Array<{ clientOrderId: string }> }).orders.map((o) => o.clientOrderId));

  it('createBatch retried after a reset (server placed all) places nothing twice; ids stable and distinct', async () => {
    const { ex, client } = rig();
    ex.faults.add({ method: 'POST', path: '/v2/orders/batch', reset: true });
    const items = [0, 1, 2, 3, 4].map((i) => ({ ...limitBuy, price: String(50000 - i) }));
    const { results } = await client.orders.createBatch(items);
    expect(results.map((r) => r.idempotent)).toEqual([true, true, true, true, true]);
    const [first, second] = batchBodies(ex);
    expect(second).toEqual(first);
    expect(new Set(first).size).toBe(5);
    expect((await client.orders.list()).total).toBe(5);
  });

  it('createBatch rejects duplicate clientOrderIds of the caller before any network', async () => {
    const { ex, client } = rig();
    const error = await failure(
      client.orders.createBatch([
        { ...limitBuy, clientOrderId: 'same' },
        { ...limitBuy, clientOrderId: 'same' },
      ]),
    );
    expect(error.name).toBe('RequestValidationError');
    expect(ex.requests).toHaveLength(0);
  });

  it.each([
    ['503', { status: 503 }],
    ['reset after processing', { reset: true as const }],
  ])('closePosition is not repeated after %s and says the outcome is unknown', async (_n, fault) => {
    const { ex, client } = rig();
    await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.02' });
    ex.sync();
    const [position] = (await client.account.positions()).positions;
    ex.faults.add({ method: 'POST', path: '/v2/positions/close', ...fault });
    const error = await failure(client.orders.closePosition({ positionId: position!.id, quantity: '0.01' }));
    expect(ex.requests.filter((r) => r.path === '/v2/positions/close')).toHaveLength(1);
    expect(error.outcomeUnknown).toBe(true);
  });

  it('cancel and closeAndSwitchMargin are repeated after a 429 / refusal, and then not marked unknown', async () => {
    const { ex, client } = rig();
    const { order } = await client.orders.create(limitBuy);
    ex.faults.add({
      method: 'POST',
      path: `/v2/orders/${order.id}/cancel`,
      status: 429,
      headers: { 'Retry-After': '1' },
    });
    ex.faults.add({ method: 'POST', path: `/v2/orders/${order.id}/cancel`, refused: true });
    await expect(client.orders.cancel(order.id)).resolves.toMatchObject({ order: { status: 'CANCELED' } });
    ex.faults.add({ method: 'POST', path: '/v2/futures/close-and-switch-margin', reset: true });
    const error = await failure(
      client.futures.closeAndSwitchMargin({ symbol: 'BTCUSDT', targetMarginType: 'ISOLATED' }),
    );
    expect(ex.requests.filter((r) => r.path === '/v2/futures/close-and-switch-margin')).toHaveLength(1);
    expect(error.outcomeUnknown).toBe(true);
  });

  it('a 401 timestamp re-sync repeats a cancel once (the server refused it before acting)', async () => {
    const { ex, client, clock } = rig();
    const { order } = await client.orders.create(limitBuy);
    ex.advance(30_000); // the server clock jumps ahead: our next timestamp is 30 s stale
    await expect(client.orders.cancel(order.id)).resolves.toMatchObject({ order: { status: 'CANCELED' } });
    const cancels = ex.requests.filter((r) => r.path.endsWith('/cancel')).map((r) => r.status);
    expect(cancels).toEqual([401, 200]);
    void clock;
  });
});

describe('rate limiter: queued calls can always be aborted and never deadlock the bucket', () => {
  it('pause (429) then abort a queued call: it rejects at once; the bucket serves the next call after the pause', async () => {
    const clock = new ManualClock();
    const ex = createExchange({ seed: 1, volatility: 0, now: () => clock.now() });
    ex.setMarkPrice('BTCUSDT', '60000');
    const creds = ex.createApiKey(ex.createAccount({ balances: { USDT: '100000' } }).accountId, {
      permissions: ['TRADE'],
    });
    const client = new FuturesClient({ baseUrl: ex.baseUrl, ...creds, fetch: ex.fetch, clock, retry: false });
    ex.faults.add({ method: 'POST', path: '/v2/orders', status: 429, headers: { 'Retry-After': '30' } });
    await expect(client.orders.create(limitBuy)).rejects.toBeInstanceOf(RateLimitError);

    // A timeoutMs longer than the pause: they wait it out (a shorter one would fail at once with RateLimitError).
    const controller = new AbortController();
    const queued = client.orders.create(limitBuy, { signal: controller.signal, timeoutMs: 60_000 });
    const behind = client.orders.create(limitBuy, { timeoutMs: 60_000 });
    await new Promise((r) => setTimeout(r, 5));
    expect(ex.requests).toHaveLength(1); // both wait for the pause
    controller.abort();
    const aborted = await failure(queued);
    expect(aborted).toBeInstanceOf(AbortError);
    expect(aborted.outcomeUnknown).toBe(false);
    clock.advance(30_000);
    await expect(behind).resolves.toMatchObject({ ok: true });
    expect(ordersPlaced(ex)).toBe(1);
  });

  it('301 order calls in one window: the 301st waits for the window, and aborting it frees nothing wrongly', async () => {
    const clock = new ManualClock();
    const ex = createExchange({ seed: 1, volatility: 0, now: () => clock.now() });
    ex.setMarkPrice('BTCUSDT', '60000');
    const creds = ex.createApiKey(ex.createAccount({ balances: { USDT: '100000000' } }).accountId, {
      permissions: ['TRADE'],
    });
    const client = new FuturesClient({ baseUrl: ex.baseUrl, ...creds, fetch: ex.fetch, clock, retry: false });
    const first = Array.from({ length: 300 }, (_, i) =>
      client.orders.create({ ...limitBuy, price: String(40000 + i), quantity: '0.001' }),
    );
    await Promise.all(first);
    const controller = new AbortController();
    const late = client.orders.create(limitBuy, { signal: controller.signal });
    const later = client.orders.create(limitBuy);
    await new Promise((r) => setTimeout(r, 5));
    expect(ordersPlaced(ex)).toBe(300);
    controller.abort();
    await expect(late).rejects.toBeInstanceOf(AbortError);
    await new Promise((r) => setTimeout(r, 5));
    expect(ordersPlaced(ex)).toBe(300); // the abort did not let `later` jump the window
    clock.advance(60_000);
    await expect(later).resolves.toMatchObject({ ok: true });
    expect(ordersPlaced(ex)).toBe(301);
  });
});

describe('decimal params: only plain positive ASCII decimals leave the process', () => {
  it.each(['1.', '.5', '１', '٣', '1\n', '\n1', '0.000', '00', '+1', '1,5', '1_000', '0x10', 'Infinity', '1 ', ''])(
    'quantity %j is rejected before any network',
    async (quantity) => {
      const { ex, client } = rig();
      const error = await failure(client.orders.create({ ...limitBuy, quantity }));
      expect(error.name).toBe('RequestValidationError');
      expect(error.message).toContain('quantity');
      expect(ex.requests).toHaveLength(0);
    },
  );

  it.each(['00.1', '0.10', '1'])('quantity %j (a plain positive decimal) is sent verbatim', async (quantity) => {
    const { ex, client } = rig();
    await client.orders.create({ ...limitBuy, quantity });
    expect((ex.requests[0]!.body as { quantity: string }).quantity).toBe(quantity);
  });
});
