/**
 * `401 Signature replay detected` on a real wire. A proxy in front of the simulator's server delivers a copy of
 * the request first (what a retrying proxy or an eavesdropper does): the server acts on the copy and rejects the
 * request itself as a replay. That attempt was not acted on, but the call may have been: a call that is safe to
 * repeat goes again with a fresh signature; one that is not (`cancel`, `closePosition`) fails with
 * `outcomeUnknown: true`.
 */
import { createExchange, type Exchange } from 'futures-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, FuturesClient, type FuturesClientOptions } from '../../src/index.ts';
import { type FaultProxy, startFaultProxy } from '../reliability/fault-proxy.ts';

const SYMBOL = 'BTCUSDT';
let ex: Exchange;
let upstream: { url: string; close(): Promise<void> };
let proxy: FaultProxy;

beforeAll(async () => {
  ex = createExchange({ seed: 7, volatility: 0, syncIntervalMs: 20 });
  ex.setMarkPrice(SYMBOL, '60000');
  upstream = await ex.listen();
  proxy = await startFaultProxy(upstream.url);
});
afterAll(async () => {
  await proxy?.close();
  await upstream?.close();
});

/** A fresh account with a resting order and an open position, and a client that reaches it through the proxy. */
async function rig(extra: Partial<FuturesClientOptions> = {}) {
  const { accountId } = ex.createAccount({ balances: { USDT: '1000000' } });
  const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  const direct = new FuturesClient({ baseUrl: upstream.url, apiKey, apiSecret });
  const { order } = await direct.orders.create({
    symbol: SYMBOL,
    side: 'BUY',
    type: 'LIMIT',
    quantity: '0.01',
    price: '1000',
  });
  await direct.orders.create({ symbol: SYMBOL, side: 'BUY', type: 'MARKET', quantity: '0.01' });
  await new Promise((resolve) => setTimeout(resolve, 50)); // the sync tick brings the fill into GET /v2/positions
  const position = (await direct.account.positions()).positions.find((p) => p.symbol === SYMBOL);
  if (!position) throw new Error('setup: no position');
  const client = new FuturesClient({
    baseUrl: proxy.url,
    apiKey,
    apiSecret,
    retry: { limit: 2, baseDelayMs: 10 },
    ...extra,
  });
  const seen = (method: string, path: string) =>
    proxy.requests.filter((r) => r.apiKey === apiKey && r.method === method && r.url.split('?')[0] === path);
  return { client, apiKey, accountId, restingOrderId: order.id, positionId: position.id, seen };
}

describe('401 Signature replay detected', () => {
  it('a create is repeated at once with a fresh signature, and the order exists once', async () => {
    const r = await rig();
    proxy.queue(`POST /v2/orders for ${r.apiKey}`, { kind: 'duplicate' });
    const result = await r.client.orders.create({
      symbol: SYMBOL,
      side: 'SELL',
      type: 'LIMIT',
      quantity: '0.01',
      price: '90000',
      clientOrderId: 'replayed-1',
    });
    // The copy placed it; the retry found it.
    expect(result.idempotent).toBe(true);
    const sent = r.seen('POST', '/v2/orders');
    expect(sent.map((s) => s.fault)).toEqual(['duplicate', 'pass']);
    expect(sent[0]?.signature).not.toBe(sent[1]?.signature);
    const placed = ex.account(r.accountId).orders.filter((o) => o.clientOrderId === 'replayed-1');
    expect(placed).toHaveLength(1);
  });

  it('a read is repeated too', async () => {
    const r = await rig();
    proxy.queue(`GET /v2/futures/balance for ${r.apiKey}`, { kind: 'duplicate' });
    await expect(r.client.account.balance()).resolves.toMatchObject({ ok: true });
    expect(r.seen('GET', '/v2/futures/balance')).toHaveLength(2);
  });

  it('a cancel is not repeated: AuthenticationError with outcomeUnknown, and the order is in fact canceled', async () => {
    const r = await rig();
    const path = `/v2/orders/${r.restingOrderId}/cancel`;
    proxy.queue(`POST ${path} for ${r.apiKey}`, { kind: 'duplicate' });
    const error = await r.client.orders.cancel(r.restingOrderId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, error: 'Signature replay detected', outcomeUnknown: true });
    expect((error as Error).message).toContain('The outcome is unknown');
    expect(r.seen('POST', path)).toHaveLength(1);
    const order = ex.account(r.accountId).orders.find((o) => o.id === r.restingOrderId);
    expect(order?.status).toBe('CANCELED');
  });

  it('a close-position is not repeated either', async () => {
    const r = await rig();
    proxy.queue(`POST /v2/positions/close for ${r.apiKey}`, { kind: 'duplicate' });
    const error = await r.client.orders.closePosition({ positionId: r.positionId }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ error: 'Signature replay detected', outcomeUnknown: true });
    expect(r.seen('POST', '/v2/positions/close')).toHaveLength(1);
  });

  it('with retry: false even a create is not repeated, and says its outcome is unknown', async () => {
    const r = await rig({ retry: false });
    proxy.queue(`POST /v2/orders for ${r.apiKey}`, { kind: 'duplicate' });
    const error = await r.client.orders
      .create({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', quantity: '0.01', price: '90000', clientOrderId: 'r-2' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ error: 'Signature replay detected', outcomeUnknown: true });
    // It was placed (by the copy): exactly why the outcome had to be called unknown.
    expect(ex.account(r.accountId).orders.filter((o) => o.clientOrderId === 'r-2')).toHaveLength(1);
  });

  it('a replay on every attempt ends at the retry limit, outcome unknown, still one order', async () => {
    const r = await rig();
    proxy.queue(`POST /v2/orders for ${r.apiKey}`, { kind: 'duplicate' }, { kind: 'duplicate' }, { kind: 'duplicate' });
    const error = await r.client.orders
      .create({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', quantity: '0.01', price: '90000', clientOrderId: 'r-3' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ error: 'Signature replay detected', outcomeUnknown: true });
    expect(r.seen('POST', '/v2/orders')).toHaveLength(3);
    expect(ex.account(r.accountId).orders.filter((o) => o.clientOrderId === 'r-3')).toHaveLength(1);
  });
});
