import { ConnectionError, RateLimitError, ResponseValidationError, ServerError, TimeoutError } from 'futures-sdk';
import { createExchange } from 'futures-sdk/testing';
import 'futures-sdk/testing/msw';
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { clientFor, setup } from './_helpers.ts';

describe('fault injection', () => {
  it('status faults answer instead of the exchange, `times` times, then normal service', async () => {
    const rig = setup();
    rig.ex.faults.add({ path: '/v2/positions', status: 503, times: 2 });
    expect((await rig.call('GET', '/v2/positions')).status).toBe(503);
    const second = await rig.call('GET', '/v2/positions');
    expect(second.status).toBe(503);
    expect(second.body).toMatchObject({ ok: false, errorId: expect.any(String) });
    expect((await rig.call('GET', '/v2/positions')).status).toBe(200);
  });

  it('the client retries 5xx faults and sees the recovery', async () => {
    const rig = setup();
    rig.ex.faults.add({ path: '/v2/positions', status: 502, times: 2 });
    const client = clientFor(rig.ex, rig.creds, { retry: { limit: 3, baseDelayMs: 1, maxDelayMs: 2 } });
    await expect(client.account.positions()).resolves.toEqual({ ok: true, positions: [] });
    expect(rig.ex.requests.filter((r) => r.path === '/v2/positions').map((r) => r.status)).toEqual([502, 502, 200]);
  });

  it('429 with Retry-After reaches the client as RateLimitError', async () => {
    const rig = setup();
    rig.ex.faults.add({ path: '/v2/positions', status: 429, headers: { 'Retry-After': '7' } });
    const err = await rig.client.account.positions().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBe(7000);
  });

  it('rawBody and truncate produce bodies the client rejects as ResponseValidationError', async () => {
    const rig = setup();
    rig.ex.faults.add({ path: '/v2/positions', status: 200, rawBody: '<html>oops</html>' });
    await expect(rig.client.account.positions()).rejects.toBeInstanceOf(ResponseValidationError);
    rig.ex.faults.add({ path: '/v2/positions', truncate: true });
    await expect(rig.client.account.positions()).rejects.toBeInstanceOf(ResponseValidationError);
    rig.ex.faults.add({ path: '/v2/positions', status: 500, rawBody: 'Internal' });
    await expect(rig.client.account.positions()).rejects.toBeInstanceOf(ServerError);
  });

  it('refused never reaches the exchange; reset is processed then dropped', async () => {
    const rig = setup();
    rig.ex.faults.add({ path: '/v2/positions', refused: true });
    const refused = await rig.ex.fetch(`${rig.ex.baseUrl}/v2/positions`).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TypeError);
    expect(((refused as TypeError).cause as { code: string }).code).toBe('ECONNREFUSED');
    expect(rig.ex.requests).toHaveLength(0);
    rig.ex.faults.add({ method: 'POST', path: '/v2/orders', reset: true });
    const err = await rig.client.orders
      .create({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '50000' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(rig.ex.account(rig.accountId).orders).toHaveLength(1); // it was processed
  });

  it('delayMs makes the client time out', async () => {
    const rig = setup();
    rig.ex.faults.add({ path: '/v2/positions', delayMs: 200 });
    await expect(rig.client.account.positions({}, { timeoutMs: 50 })).rejects.toBeInstanceOf(TimeoutError);
  });

  it('path prefixes with * and method filters; clear() disarms everything', async () => {
    const rig = setup();
    rig.ex.faults.add({ method: 'POST', path: '/v2/futures/*', status: 503, times: 5 });
    expect((await rig.call('GET', '/v2/futures/balance')).status).toBe(200);
    expect((await rig.call('POST', '/v2/futures/leverage', { body: { symbol: 'BTCUSDT', leverage: 3 } })).status).toBe(
      503,
    );
    rig.ex.faults.clear();
    expect((await rig.call('POST', '/v2/futures/leverage', { body: { symbol: 'BTCUSDT', leverage: 3 } })).status).toBe(
      200,
    );
  });
});

describe('request log and clock', () => {
  it('records method, path, query, headers, body and status of each request', async () => {
    const rig = setup();
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '50000' });
    const [entry] = rig.ex.requests;
    expect(entry).toMatchObject({ method: 'POST', path: '/v2/orders', status: 200 });
    expect(entry!.query['signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(entry!.headers['x-api-key']).toBe(rig.creds.apiKey);
    expect(entry!.headers['content-type']).toMatch(/application\/json/);
    expect(entry!.body).toMatchObject({ symbol: 'BTCUSDT', clientOrderId: expect.any(String) });
  });

  it('server time follows the injected clock plus advance(); the Date header shows it', async () => {
    let base = Date.UTC(2026, 0, 1);
    const ex = createExchange({ seed: 3, now: () => base });
    expect(ex.now()).toBe(base);
    ex.advance(1500);
    base += 1000;
    expect(ex.now()).toBe(Date.UTC(2026, 0, 1) + 2500);
    const res = await ex.fetch(`${ex.baseUrl}/health`);
    expect(res.headers.get('date')).toBe(new Date(ex.now()).toUTCString());
    expect(() => ex.advance(-1)).toThrow(RangeError);
  });

  it('a client whose clock disagrees learns the offset from a 401 and retries once', async () => {
    const rig = setup();
    rig.ex.advance(3_600_000); // the server is an hour ahead of the client's clock below
    const { FuturesClient } = await import('futures-sdk');
    const client = new FuturesClient({
      baseUrl: rig.ex.baseUrl,
      ...rig.creds,
      fetch: rig.ex.fetch,
      retry: false,
      clock: { now: () => Date.UTC(2026, 4, 1, 12, 0, 0), sleep: async () => {}, random: () => 0.5 },
    });
    await expect(client.account.positions()).resolves.toMatchObject({ ok: true });
    expect(rig.ex.requests.map((r) => r.status)).toEqual([401, 200]);
  });
});

describe('account events and JWT', () => {
  it('issues HS256 JWTs that verify until expiry or revocation', () => {
    const rig = setup();
    const token = rig.ex.issueJwt(rig.accountId, { expiresInMs: 60_000 });
    expect(JSON.parse(atob(token.split('.')[0]!))).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(rig.ex.verifyJwt(token)).toEqual({ accountId: rig.accountId });
    expect(rig.ex.verifyJwt(`${token.slice(0, -2)}xx`)).toBeUndefined();
    const [, payload] = token.split('.');
    const none = `${btoa(JSON.stringify({ alg: 'none', typ: 'JWT' })).replace(/=+$/, '')}.${payload}.`;
    expect(rig.ex.verifyJwt(none)).toBeUndefined();
    rig.ex.advance(60_000);
    expect(rig.ex.verifyJwt(token)).toBeUndefined();
    const fresh = rig.ex.issueJwt(rig.accountId);
    rig.ex.revokeJwts(rig.accountId);
    expect(rig.ex.verifyJwt(fresh)).toBeUndefined();
    expect(rig.ex.verifyJwt(rig.ex.issueJwt(rig.accountId))).toEqual({ accountId: rig.accountId });
  });

  it('snapshot has open positions, working orders and balances; events go only to the account', async () => {
    const rig = setup();
    const other = rig.ex.createAccount({ balances: { USDT: '1' } });
    const foreign: unknown[] = [];
    rig.ex.subscribeAccount(other.accountId, (e) => foreign.push(e));
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '50000' });
    const snap = rig.ex.snapshot(rig.accountId) as { positions: unknown[]; openOrders: unknown[]; balances: unknown[] };
    expect(snap.positions).toHaveLength(1);
    expect(snap.openOrders).toHaveLength(1);
    expect(snap.balances).toEqual([expect.objectContaining({ asset: 'USDT' })]);
    expect(foreign).toEqual([]);
    expect(rig.ex.activeSymbols()).toContain('ETHUSDT');
    expect(rig.ex.marketPayload('BTCUSDT', 'ticker')).toBeDefined();
  });
});

describe('MSW handlers', () => {
  it('serve the exchange to a client using the global fetch', async () => {
    const rig = setup();
    const server = setupServer(...rig.ex.handlers());
    server.listen();
    try {
      const { FuturesClient } = await import('futures-sdk');
      const { systemClock } = await import('../../src/_internal/clock.ts');
      const client = new FuturesClient({
        baseUrl: rig.ex.baseUrl,
        ...rig.creds,
        retry: false,
        clock: { ...systemClock, now: () => rig.ex.now() },
      });
      const { order } = await client.orders.create({
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'MARKET',
        quantity: '0.01',
      });
      expect(order.symbol).toBe('BTCUSDT');
      expect((await client.account.positions()).positions).toHaveLength(1);
    } finally {
      server.close();
    }
  });
});
