// The TracingChannel `futures-sdk:request` on a real socket against the simulator (issue 21): one trace per
// call, subscribed to as a user (or an APM agent) does.
import diagnostics from 'node:diagnostics_channel';
import { inspect } from 'node:util';
import { FuturesClient, type RequestTraceContext } from 'futures-sdk';
import { createExchange, type Exchange } from 'futures-sdk/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

let ex: Exchange;
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ex = createExchange({ seed: 2121, volatility: 0 });
  ex.setMarkPrice('BTCUSDT', '60000');
  ({ url, close } = await ex.listen());
});
afterAll(() => close());

const channel = diagnostics.tracingChannel<unknown, RequestTraceContext>('futures-sdk:request');
type Seen = { event: string; context: RequestTraceContext; snapshot: RequestTraceContext };
let seen: Seen[] = [];
const record = (event: string) => (context: RequestTraceContext) => {
  seen.push({ event, context, snapshot: { ...context } });
};
const handlers = {
  start: record('start'),
  end: record('end'),
  asyncStart: record('asyncStart'),
  asyncEnd: record('asyncEnd'),
  error: record('error'),
};
function subscribe() {
  seen = [];
  channel.subscribe(handlers);
}
afterEach(() => channel.unsubscribe(handlers));

function client(options: Partial<ConstructorParameters<typeof FuturesClient>[0]> = {}) {
  const { accountId } = ex.createAccount({ balances: { USDT: '10000000' } });
  const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  return { apiKey, apiSecret, client: new FuturesClient({ baseUrl: url, apiKey, apiSecret, ...options }) };
}

const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '30000' } as const;
const events = () => seen.map((s) => s.event);
const final = () => seen.at(-1)!.snapshot;

describe('futures-sdk:request', () => {
  it('a successful call: start, end, asyncStart, asyncEnd on one context, with every field', async () => {
    const { client: c } = client();
    subscribe();
    await c.account.positions();
    expect(events()).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(new Set(seen.map((s) => s.context)).size).toBe(1);
    // At start: what the call is, nothing of its outcome (and a create's clientOrderId: see below).
    expect(seen[0]!.snapshot).toEqual({ endpoint: 'account.positions', method: 'GET', path: '/v2/positions' });
    const end = final();
    expect(end).toMatchObject({
      endpoint: 'account.positions',
      method: 'GET',
      path: '/v2/positions',
      status: 200,
      attempts: 1,
      outcomeUnknown: false,
    });
    expect(end.queuedMs).toBeGreaterThanOrEqual(0);
    expect(end.queuedMs).toBeLessThan(50);
    expect(end.durationMs).toBeGreaterThan(0);
    expect(end.durationMs).toBeGreaterThanOrEqual(end.queuedMs!);
    expect('clientOrderId' in end).toBe(false);
    expect('error' in end).toBe(false);
    // The response is not in the context (it may echo the request's body).
    const keys = Object.entries(end).filter(([, v]) => v !== undefined);
    expect(keys.map(([k]) => k).sort()).toEqual([
      'attempts',
      'durationMs',
      'endpoint',
      'method',
      'outcomeUnknown',
      'path',
      'queuedMs',
      'status',
    ]);
  });

  it('a retried create: one trace, attempts 2, its clientOrderId (generated or given), the template path', async () => {
    const { client: c } = client({ retry: { limit: 3, baseDelayMs: 5, maxDelayMs: 10 } });
    subscribe();
    ex.faults.add({ method: 'POST', path: '/v2/orders', status: 503, times: 1 });
    const created = await c.orders.create(order);
    expect(events()).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(final()).toMatchObject({
      endpoint: 'orders.create',
      method: 'POST',
      path: '/v2/orders',
      status: 200,
      attempts: 2,
      outcomeUnknown: false,
      clientOrderId: created.order.clientOrderId,
    });
    expect(seen[0]!.snapshot.clientOrderId).toBe(created.order.clientOrderId); // already at start

    seen = [];
    await c.orders.create({ ...order, clientOrderId: 'trace-given-1' });
    expect(final()).toMatchObject({ attempts: 1, clientOrderId: 'trace-given-1' });

    seen = [];
    await c.orders.cancel(created.order.id);
    expect(final()).toMatchObject({ endpoint: 'orders.cancel', method: 'POST', path: '/v2/orders/:id/cancel' });
    expect(JSON.stringify(seen.map((s) => s.snapshot))).not.toContain(created.order.id);
  });

  it('a 4xx: start, end, error, asyncStart, asyncEnd, with the status and the error', async () => {
    const { client: c } = client();
    subscribe();
    const error = await c.orders.get('no-such-order').catch((e: unknown) => e);
    expect(events()).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    const end = final();
    expect(end).toMatchObject({ endpoint: 'orders.get', path: '/v2/orders/:id', status: 404, attempts: 1 });
    expect(end.outcomeUnknown).toBe(false);
    expect(end.error).toBe(error);
    expect(end.error?.name).toBe('NotFoundError');
    // `error` is already there when `error` is published.
    expect(seen.find((s) => s.event === 'error')!.snapshot.error).toBe(error);
  });

  it('an outcome-unknown failure: outcomeUnknown, the last status that came, every attempt', async () => {
    const { client: c } = client({ retry: { limit: 1, baseDelayMs: 5, maxDelayMs: 10 } });
    subscribe();
    // A 503, then the request is processed and the connection drops before the answer.
    ex.faults.add({ method: 'POST', path: '/v2/orders', status: 503, times: 1 });
    ex.faults.add({ method: 'POST', path: '/v2/orders', reset: true, times: 1 });
    const error = await c.orders.create({ ...order, clientOrderId: 'trace-unknown-1' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ConnectionError', outcomeUnknown: true });
    expect(events()).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    expect(final()).toMatchObject({
      endpoint: 'orders.create',
      status: 503,
      attempts: 2,
      outcomeUnknown: true,
      clientOrderId: 'trace-unknown-1',
      error,
    });

    // No response at all: no status.
    seen = [];
    ex.faults.add({ method: 'POST', path: '/v2/orders', reset: true, times: 1 });
    const { client: once } = client({ retry: false });
    await once.orders.create(order).catch(() => undefined);
    expect(final()).toMatchObject({ attempts: 1, outcomeUnknown: true });
    expect('status' in final()).toBe(false);
  });

  it('a call its checks refuse is not traced (nothing is sent)', async () => {
    const { client: c } = client();
    subscribe();
    await expect(c.orders.get('a/b')).rejects.toMatchObject({ name: 'RequestValidationError' });
    await expect(c.orders.create({ ...order, quantity: 'lots' })).rejects.toMatchObject({
      name: 'RequestValidationError',
    });
    expect(seen).toEqual([]);
  });

  it('queuedMs is the time a call waited in the pacer (a 429 pause)', async () => {
    const { client: c } = client({ retry: { limit: 2, baseDelayMs: 5, maxDelayMs: 10 } });
    subscribe();
    ex.faults.add({ method: 'GET', path: '/v2/positions', status: 429, headers: { 'Retry-After': '1' }, times: 1 });
    const first = c.account.positions();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Started while the bucket is paused: it waits in the queue for the rest of the pause.
    await Promise.all([first, c.account.balance()]);
    const ends = seen.filter((s) => s.event === 'asyncEnd').map((s) => s.snapshot);
    const positions = ends.find((e) => e.endpoint === 'account.positions')!;
    const balance = ends.find((e) => e.endpoint === 'account.balance')!;
    expect(positions).toMatchObject({ status: 200, attempts: 2 });
    expect(positions.queuedMs).toBeGreaterThan(700);
    expect(balance).toMatchObject({ status: 200, attempts: 1 });
    expect(balance.queuedMs).toBeGreaterThan(600);
    for (const e of [positions, balance]) expect(e.durationMs).toBeGreaterThanOrEqual(e.queuedMs!);
  });

  it('a call aborted while it waits in the pacer: attempts 0, its wait in queuedMs', async () => {
    const { client: c } = client({ retry: false });
    ex.faults.add({ method: 'GET', path: '/v2/positions', status: 429, headers: { 'Retry-After': '5' }, times: 1 });
    await expect(c.account.positions()).rejects.toMatchObject({ status: 429 });
    subscribe();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    await expect(c.account.balance({}, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(events()).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    expect(final()).toMatchObject({ endpoint: 'account.balance', attempts: 0, outcomeUnknown: false });
    expect('status' in final()).toBe(false);
    expect(final().queuedMs).toBeGreaterThan(100);
  });

  it('publishes nothing without subscribers', async () => {
    const { client: c } = client();
    seen = [];
    await c.account.positions();
    expect(seen).toEqual([]);
  });

  it('no message holds the key (beyond its last 4), the secret, a signature, a query or a request body', async () => {
    const sent: string[] = [];
    const {
      apiKey,
      apiSecret,
      client: c,
    } = client({
      timeoutMs: 100,
      retry: { limit: 2, baseDelayMs: 5, maxDelayMs: 10 },
      fetch: (input, init) => {
        sent.push(String(input));
        return fetch(input, init);
      },
    });
    subscribe();
    ex.faults.add({ method: 'POST', path: '/v2/orders', status: 503, times: 1 });
    ex.faults.add({ method: 'GET', path: '/v2/positions', delayMs: 300, times: 3 });
    ex.faults.add({ method: 'GET', path: '/v2/orders', status: 500, times: 3 });
    const created = await c.orders.create(order);
    await c.account.positions().catch(() => undefined);
    await c.orders.list({ symbol: 'BTCUSDT' }).catch(() => undefined);
    await c.orders.create({ ...order, price: '30001' });
    await c.orders.get('no-such-order').catch(() => undefined);
    await c.orders.cancel(created.order.id);

    const signatures = sent.map((u) => new URL(u).searchParams.get('signature')).filter((s) => s !== null);
    expect(signatures.length).toBeGreaterThan(4);
    expect(seen.filter((s) => s.snapshot.error).length).toBeGreaterThanOrEqual(3);
    // Timings are numbers (no secret fits in one), and their digits could match anything: left out of the text.
    const texts = seen.flatMap(({ snapshot }) => [
      JSON.stringify({ ...snapshot, durationMs: 0, queuedMs: 0 }),
      ...(snapshot.error ? [String(snapshot.error), inspect(snapshot.error, { depth: 10 })] : []),
    ]);
    // The simulator echoes no URL: not even the error holds a query.
    for (const text of texts) expect(text).not.toContain('?');
    for (const text of texts) {
      for (let i = 0; i + 5 <= apiKey.length; i++) expect(text).not.toContain(apiKey.slice(i, i + 5));
      for (let i = 0; i + 5 <= apiSecret.length; i++) expect(text).not.toContain(apiSecret.slice(i, i + 5));
      for (const signature of signatures) expect(text).not.toContain(signature);
      expect(text).not.toContain('timestamp=');
      expect(text).not.toContain('symbol=');
      expect(text).not.toContain('30000'); // the request bodies' prices
      expect(text).not.toContain('30001');
      expect(text).not.toContain(created.order.id);
    }
  });
});
