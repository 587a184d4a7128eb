// The `hooks` option and `client.rateLimits()` on a real socket against the simulator (issue 21).
import {
  createPublicClient,
  FuturesClient,
  type RequestHookEvent,
  type ResponseHookEvent,
  type RetryHookEvent,
} from 'futures-sdk';
import { ticker24hr } from 'futures-sdk/market';
import { createExchange, type Exchange } from 'futures-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingLogger } from '../helpers/client.ts';

let ex: Exchange;
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ex = createExchange({ seed: 21, volatility: 0 });
  ex.setMarkPrice('BTCUSDT', '60000');
  ({ url, close } = await ex.listen());
});
afterAll(() => close());

function account() {
  const { accountId } = ex.createAccount({ balances: { USDT: '10000000' } });
  return ex.createApiKey(accountId, { permissions: ['TRADE'] });
}

type Recorded =
  | { kind: 'request'; event: RequestHookEvent }
  | { kind: 'response'; event: ResponseHookEvent }
  | { kind: 'retry'; event: RetryHookEvent };

function recorder() {
  const events: Recorded[] = [];
  return {
    events,
    hooks: {
      request: (event: RequestHookEvent) => {
        events.push({ kind: 'request', event });
      },
      response: (event: ResponseHookEvent) => {
        events.push({ kind: 'response', event });
      },
      retry: (event: RetryHookEvent) => {
        events.push({ kind: 'retry', event });
      },
    },
  };
}

const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '30000' } as const;

describe('hooks', () => {
  it('one request and one response per attempt, one retry per scheduled retry, in order', async () => {
    const { apiKey, apiSecret } = account();
    const { events, hooks } = recorder();
    const client = new FuturesClient({
      baseUrl: url,
      apiKey,
      apiSecret,
      hooks,
      retry: { limit: 3, baseDelayMs: 5, maxDelayMs: 10 },
    });
    ex.faults.add({ method: 'POST', path: '/v2/orders', status: 503, times: 1 });
    const created = await client.orders.create(order);

    expect(events.map((e) => `${e.kind}:${e.event.attempt}`)).toEqual([
      'request:1',
      'response:1',
      'retry:1',
      'request:2',
      'response:2',
    ]);
    for (const { event } of events) {
      expect(event.endpoint).toBe('orders.create');
      expect(event.method).toBe('POST');
      expect(event.path).toBe('/v2/orders');
      expect(event.clientOrderId).toBe(created.order.clientOrderId);
    }
    const [first, second] = events.filter((e) => e.kind === 'response').map((e) => e.event as ResponseHookEvent);
    expect(first!.status).toBe(503);
    expect(second!.status).toBe(200);
    expect(first!.error).toBeUndefined();
    expect(first!.durationMs).toBeGreaterThanOrEqual(0);
    expect(second!.durationMs).toBeGreaterThanOrEqual(0);
    const retry = events.find((e) => e.kind === 'retry')!.event as RetryHookEvent;
    expect(retry.reason).toBe('503');
    expect(retry.delayMs).toBeGreaterThanOrEqual(0);
    expect(retry.delayMs).toBeLessThanOrEqual(10);

    // A path template with the spec's `:id`, never the id itself.
    events.length = 0;
    await client.orders.cancel(created.order.id);
    expect(events.map((e) => [e.kind, e.event.endpoint, e.event.path])).toEqual([
      ['request', 'orders.cancel', '/v2/orders/:id/cancel'],
      ['response', 'orders.cancel', '/v2/orders/:id/cancel'],
    ]);
    expect(JSON.stringify(events)).not.toContain(created.order.id);
  });

  it('a response event carries the error when no response came', async () => {
    const { apiKey, apiSecret } = account();
    const { events, hooks } = recorder();
    const client = new FuturesClient({ baseUrl: url, apiKey, apiSecret, hooks, retry: false, timeoutMs: 50 });
    ex.faults.add({ method: 'GET', path: '/v2/positions', delayMs: 500, times: 1 });
    await expect(client.account.positions()).rejects.toMatchObject({ name: 'TimeoutError' });
    const response = events.find((e) => e.kind === 'response')!.event as ResponseHookEvent;
    expect(response.status).toBeUndefined();
    expect(response.error?.name).toBe('TimeoutError');
  });

  it('a hook that throws (or rejects) is logged and harms nothing', async () => {
    const { apiKey, apiSecret } = account();
    const logger = recordingLogger();
    const boom = () => {
      throw new Error('hook exploded');
    };
    const client = new FuturesClient({
      baseUrl: url,
      apiKey,
      apiSecret,
      logger,
      hooks: { request: boom, response: async () => Promise.reject(new Error('async hook failed')), retry: boom },
      retry: { limit: 2, baseDelayMs: 5, maxDelayMs: 10 },
    });
    ex.faults.add({ method: 'POST', path: '/v2/orders', status: 503, times: 1 });
    const created = await client.orders.create(order);
    expect(created.order.id).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const warnings = logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
    expect(warnings.filter((m) => m.includes('hooks.request threw'))).toHaveLength(2);
    expect(warnings.filter((m) => m.includes('hooks.retry threw'))).toHaveLength(1);
    expect(warnings.filter((m) => m.includes('hooks.response threw'))).toHaveLength(2);
  });

  it('works on a public client; a hook that is not a function is logged and ignored', async () => {
    const { events, hooks } = recorder();
    const market = createPublicClient({ baseUrl: url, hooks });
    await ticker24hr(market, { symbol: 'BTCUSDT' });
    expect(events.map((e) => `${e.kind}:${e.event.endpoint}`)).toEqual([
      'request:market.ticker24hr',
      'response:market.ticker24hr',
    ]);
    // A member that is not a function fails like a hook that throws: logged, and the call goes on.
    const logger = recordingLogger();
    const odd = createPublicClient({ baseUrl: url, logger, hooks: { request: 'x' as never } });
    await ticker24hr(odd, { symbol: 'BTCUSDT' });
    expect(logger.lines.filter((l) => l.message.includes('hooks.request threw'))).toHaveLength(1);
  });
});

describe('rateLimits()', () => {
  it('shows each bucket with what the client used, queued and the pause of a 429', async () => {
    const { apiKey, apiSecret } = account();
    const client = new FuturesClient({ baseUrl: url, apiKey, apiSecret, retry: false });
    const fresh = client.rateLimits();
    expect(fresh.map((b) => b.bucket)).toEqual(['orders', 'batch', 'close', 'default']);
    expect(fresh.find((b) => b.bucket === 'orders')).toEqual({
      bucket: 'orders',
      limit: 300,
      windowMs: 60_000,
      used: 0,
      queued: 0,
    });

    await client.orders.create(order);
    await client.orders.create({ ...order, price: '30001' });
    await client.account.positions();
    const after = client.rateLimits();
    expect(after.find((b) => b.bucket === 'orders')!.used).toBe(2);
    expect(after.find((b) => b.bucket === 'default')!.used).toBe(1);

    ex.faults.add({ method: 'GET', path: '/v2/positions', status: 429, headers: { 'Retry-After': '5' }, times: 1 });
    const before = Date.now();
    await expect(client.account.positions()).rejects.toMatchObject({ status: 429 });
    const paused = client.rateLimits().find((b) => b.bucket === 'default')!;
    expect(paused.used).toBe(1); // a 429 is not counted
    expect(paused.pausedUntil).toBeGreaterThanOrEqual(before + 4_000);
    expect(paused.pausedUntil).toBeLessThanOrEqual(Date.now() + 5_000);

    // A call waits out the pause in the queue.
    const controller = new AbortController();
    const waiting = client.account.positions({}, { signal: controller.signal }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.rateLimits().find((b) => b.bucket === 'default')!.queued).toBe(1);
    controller.abort();
    await waiting;
    expect(client.rateLimits().find((b) => b.bucket === 'default')!.queued).toBe(0);
    expect(JSON.stringify(client.rateLimits())).not.toContain(apiKey.slice(0, 5));
  });
});

describe('redaction of every event', () => {
  it('no hook event or rateLimits() entry holds the key (beyond its last 4), the secret, a signature or a query', async () => {
    const { apiKey, apiSecret } = account();
    const { events, hooks } = recorder();
    const sent: string[] = [];
    const client = new FuturesClient({
      baseUrl: url,
      apiKey,
      apiSecret,
      hooks,
      timeoutMs: 100,
      retry: { limit: 2, baseDelayMs: 5, maxDelayMs: 10 },
      fetch: (input, init) => {
        sent.push(String(input));
        return fetch(input, init);
      },
    });
    ex.faults.add({ method: 'POST', path: '/v2/orders', status: 503, times: 1 });
    ex.faults.add({ method: 'GET', path: '/v2/positions', delayMs: 300, times: 1 });
    ex.faults.add({ method: 'GET', path: '/v2/orders', status: 500, times: 3 });
    const created = await client.orders.create(order);
    await client.account.positions();
    await client.orders.list({ symbol: 'BTCUSDT' }).catch(() => undefined);
    await client.orders.cancel(created.order.id);

    const signatures = sent.map((u) => new URL(u).searchParams.get('signature')).filter((s) => s !== null);
    expect(signatures.length).toBeGreaterThan(4);
    expect(events.some((e) => e.kind === 'response' && e.event.error)).toBe(true);
    // Timings are numbers (no secret fits in one), and their digits could match anything: left out of the text.
    const texts = [
      ...events.map((e) => JSON.stringify({ ...e.event, durationMs: 0, delayMs: 0 })),
      JSON.stringify(client.rateLimits().map((b) => ({ ...b, pausedUntil: 0 }))),
    ];
    for (const text of texts) {
      for (let i = 0; i + 5 <= apiKey.length; i++) expect(text).not.toContain(apiKey.slice(i, i + 5));
      for (let i = 0; i + 5 <= apiSecret.length; i++) expect(text).not.toContain(apiSecret.slice(i, i + 5));
      for (const signature of signatures) expect(text).not.toContain(signature);
      expect(text).not.toContain('?');
      expect(text).not.toContain('symbol');
      expect(text).not.toContain('timestamp');
      expect(text).not.toContain('30000'); // the request body's price
    }
  });
});
