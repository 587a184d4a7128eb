import { AbortError, CancelAllAbortedError, FuturesClient } from 'futures-sdk';
import { createExchange } from 'futures-sdk/testing';
import { describe, expect, it } from 'vitest';

/** A client on the simulator whose signal fires right after the `abortAfter`-th request matching `when`. */
function setup(when: (method: string, path: string) => boolean, abortAfter = 1) {
  const ex = createExchange({ seed: 3, volatility: 0 });
  ex.setMarkPrice('BTCUSDT', '60000');
  const { accountId } = ex.createAccount({ balances: { USDT: '100000' } });
  const creds = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  const controller = new AbortController();
  let seen = 0;
  const client = new FuturesClient({
    baseUrl: ex.baseUrl,
    ...creds,
    retry: false,
    fetch: async (input, init) => {
      const method = (input instanceof Request ? input.method : init?.method) ?? 'GET';
      const url = input instanceof Request ? input.url : String(input);
      const response = await ex.fetch(input, init);
      if (when(method, new URL(url).pathname) && ++seen === abortAfter) controller.abort();
      return response;
    },
  });
  return { ex, client, signal: controller.signal };
}

const stop = (stopPrice: string) =>
  ({ symbol: 'BTCUSDT', side: 'BUY', type: 'STOP_MARKET', quantity: '0.01', stopPrice }) as const;

describe('orders.cancelAll({ includeConditional: true }) aborted midway (simulator)', () => {
  it('rejects with a CancelAllAbortedError whose partial matches the exchange', async () => {
    const { client, signal } = setup((method, path) => method === 'POST' && path.endsWith('/cancel'));
    const { order: resting } = await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.01',
      price: '50000',
    });
    const stops = await Promise.all(
      ['70000', '71000', '72000'].map(async (p) => (await client.orders.create(stop(p))).order),
    );

    const error = await client.orders.cancelAll({ includeConditional: true }, { signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelAllAbortedError);
    expect(error).toBeInstanceOf(AbortError);
    const aborted = error as CancelAllAbortedError;
    expect(aborted.name).toBe('CancelAllAbortedError');
    expect(aborted.outcomeUnknown).toBe(true);
    const { bulk, conditional, interrupted, notReached } = aborted.partial;

    expect(bulk).toMatchObject({ ok: true, canceled: 1, total: 1 });
    expect(bulk.results).toEqual([expect.objectContaining({ orderId: resting.id, status: 'CANCELED' })]);
    expect(conditional).toEqual([
      { orderId: expect.any(String), symbol: 'BTCUSDT', status: 'CANCELED', conditional: true },
    ]);
    // The signal fired before the second conditional cancel was sent: it is known to be still working.
    expect(interrupted).toEqual({ orderId: expect.any(String), symbol: 'BTCUSDT', outcomeUnknown: false });
    expect(notReached).toEqual([{ orderId: expect.any(String), symbol: 'BTCUSDT' }]);
    const accounted = [conditional[0]?.orderId, interrupted.orderId, notReached[0]?.orderId];
    expect(new Set(accounted)).toEqual(new Set(stops.map((o) => o.id)));
    expect(aborted.message).toContain(interrupted.orderId);

    // What partial says is what the exchange holds.
    const status = async (id: string) => (await client.orders.get(id)).order.status;
    expect(await status(resting.id)).toBe('CANCELED');
    expect(await status(conditional[0]?.orderId ?? '')).toBe('CANCELED');
    expect(await status(interrupted.orderId)).toBe('NEW');
    expect(await status(notReached[0]?.orderId ?? '')).toBe('NEW');
  });

  it('an abort before the bulk cancel is a plain AbortError: nothing was canceled', async () => {
    const { client, signal } = setup((method, path) => method === 'GET' && path === '/v2/orders');
    const { order } = await client.orders.create(stop('70000'));
    const error = await client.orders.cancelAll({ includeConditional: true }, { signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(error).not.toBeInstanceOf(CancelAllAbortedError);
    expect((error as AbortError).outcomeUnknown).toBe(false);
    expect((await client.orders.get(order.id)).order.status).toBe('NEW');
  });
});
