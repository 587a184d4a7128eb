import { AuthenticationError, PermissionDeniedError } from 'futures-sdk';
import { describe, expect, it } from 'vitest';
import { clientFor, setup, signedFetch } from './_helpers.ts';

describe('authentication (spec: Authentication)', () => {
  it('accepts a request signed with canonicalQuery + HMAC and answers with Date and JSON content type', async () => {
    const rig = setup();
    const res = await rig.call('GET', '/v2/positions');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, positions: [] });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Date.parse(res.headers.get('date')!)).toBe(Math.floor(rig.ex.now() / 1000) * 1000);
  });

  it('works through FuturesClient, which signs with the SDK signer', async () => {
    const rig = setup();
    await expect(rig.client.account.positions()).resolves.toEqual({ ok: true, positions: [] });
  });

  it('rejects a missing X-API-KEY with 401 "Missing API key" and a fresh errorId', async () => {
    const rig = setup();
    const a = await rig.call('GET', '/v2/positions', { apiKey: null });
    const b = await rig.call('GET', '/v2/positions', { apiKey: null });
    expect(a.status).toBe(401);
    expect(a.body.ok).toBe(false);
    expect(a.body.error).toBe('Missing API key');
    expect(a.body.errorId).toMatch(/^err_/);
    expect(b.body.errorId).not.toBe(a.body.errorId);
  });

  it.each([
    ['unknown key', { apiKey: 'simk_nope' }, 401, 'Invalid API key'],
    ['missing signature', { signature: null }, 401, 'Missing signature'],
    ['wrong signature', { signature: 'ab'.repeat(32) }, 401, 'Invalid signature'],
    ['timestamp 5001 ms old', { timestamp: 'OLD' }, 401, 'Invalid or expired timestamp'],
    ['timestamp 5001 ms ahead', { timestamp: 'NEW' }, 401, 'Invalid or expired timestamp'],
    ['non-numeric timestamp', { timestamp: 'abc' }, 401, 'Invalid or expired timestamp'],
  ] as const)('%s → %i %s', async (_name, override, status, error) => {
    const rig = setup();
    const now = rig.ex.now();
    const timestamp =
      'timestamp' in override
        ? override.timestamp === 'OLD'
          ? now - 5001
          : override.timestamp === 'NEW'
            ? now + 5001
            : override.timestamp
        : undefined;
    const res = await rig.call('GET', '/v2/positions', {
      ...override,
      ...(timestamp !== undefined ? { timestamp } : {}),
    });
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(error);
  });

  it('accepts a timestamp exactly 5000 ms off in either direction', async () => {
    const rig = setup();
    expect((await rig.call('GET', '/v2/positions', { timestamp: rig.ex.now() - 5000 })).status).toBe(200);
    expect((await rig.call('GET', '/v2/positions', { timestamp: rig.ex.now() + 5000 })).status).toBe(200);
  });

  it('signs every query parameter: a tampered parameter fails the HMAC', async () => {
    const rig = setup();
    const ok = await rig.call('GET', '/v2/positions', { query: { status: 'CLOSED' } });
    expect(ok.status).toBe(200);
    // Sign { status: OPEN } but send status=CLOSED.
    const { canonicalQuery, hmacSha256Hex } = await import('futures-sdk');
    const timestamp = rig.ex.now() + 1;
    const sig = hmacSha256Hex(rig.creds.apiSecret, canonicalQuery({ status: 'OPEN', timestamp }));
    const res = await rig.ex.fetch(
      `${rig.ex.baseUrl}/v2/positions?status=CLOSED&timestamp=${timestamp}&signature=${sig}`,
      {
        headers: { 'X-API-KEY': rig.creds.apiKey },
      },
    );
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe('Invalid signature');
  });

  it('rejects a (key, signature) replay within 60 s, and accepts it again after the window', async () => {
    const rig = setup();
    const timestamp = rig.ex.now();
    expect((await rig.call('GET', '/v2/positions', { timestamp })).status).toBe(200);
    const replay = await rig.call('GET', '/v2/positions', { timestamp });
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe('Signature replay detected');
    // After 60 s the cache forgets it, but the timestamp is then stale: the drift check answers instead.
    rig.ex.advance(60_001);
    const later = await rig.call('GET', '/v2/positions', { timestamp });
    expect(later.body.error).toBe('Invalid or expired timestamp');
  });

  it('rejects an expired key with 401 "API key expired"', async () => {
    const rig = setup();
    const creds = rig.ex.createApiKey(rig.accountId, { expiresAt: rig.ex.now() + 1000 });
    expect((await signedFetch(rig.ex, creds, 'GET', '/v2/positions')).status).toBe(200);
    rig.ex.advance(1000);
    const res = await signedFetch(rig.ex, creds, 'GET', '/v2/positions');
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('API key expired');
  });

  it('checks the IP whitelist against the socket address', async () => {
    const rig = setup({ clientIp: '10.0.0.9' });
    const denied = rig.ex.createApiKey(rig.accountId, { ipWhitelist: ['10.0.0.1'] });
    const allowed = rig.ex.createApiKey(rig.accountId, { ipWhitelist: ['10.0.0.9'] });
    const res = await signedFetch(rig.ex, denied, 'GET', '/v2/positions', {
      headers: { 'X-Forwarded-For': '10.0.0.1' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('IP not whitelisted for this API key');
    expect((await signedFetch(rig.ex, allowed, 'GET', '/v2/positions')).status).toBe(200);
  });

  it('with trustProxy uses the last hop of X-Forwarded-For', async () => {
    const rig = setup({ trustProxy: true });
    const creds = rig.ex.createApiKey(rig.accountId, { ipWhitelist: ['203.0.113.7'] });
    const ok = await signedFetch(rig.ex, creds, 'GET', '/v2/positions', {
      headers: { 'X-Forwarded-For': '198.51.100.1, 203.0.113.7' },
    });
    expect(ok.status).toBe(200);
    const spoofed = await signedFetch(rig.ex, creds, 'GET', '/v2/positions', {
      headers: { 'X-Forwarded-For': '203.0.113.7, 198.51.100.1' },
    });
    expect(spoofed.status).toBe(403);
  });

  it('checks the key before the timestamp, and the timestamp before the signature', async () => {
    const rig = setup();
    const stale = rig.ex.now() - 10_000;
    expect((await rig.call('GET', '/v2/positions', { apiKey: 'simk_x', timestamp: stale })).body.error).toBe(
      'Invalid API key',
    );
    expect((await rig.call('GET', '/v2/positions', { timestamp: stale, signature: 'ab'.repeat(32) })).body.error).toBe(
      'Invalid or expired timestamp',
    );
  });

  it('lets a READ_ONLY key read but not trade (403)', async () => {
    const rig = setup();
    const readOnly = rig.ex.createApiKey(rig.accountId, { permissions: ['READ_ONLY'] });
    expect((await signedFetch(rig.ex, readOnly, 'GET', '/v2/futures/balance')).status).toBe(200);
    const res = await signedFetch(rig.ex, readOnly, 'POST', '/v2/orders', {
      body: { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.001' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/TRADE/);
    expect(rig.ex.account(rig.accountId).orders).toHaveLength(0);
  });

  it('surfaces auth failures through the client as typed errors', async () => {
    const rig = setup();
    const readOnly = rig.ex.createApiKey(rig.accountId, { permissions: ['READ_ONLY'] });
    const client = clientFor(rig.ex, readOnly);
    await expect(
      client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.001' }),
    ).rejects.toBeInstanceOf(PermissionDeniedError);
    const bad = clientFor(rig.ex, { apiKey: 'simk_bad', apiSecret: 'x' });
    await expect(bad.account.positions()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it.each([
    ['POST', '/v2/withdraw'],
    ['POST', '/v2/transfers/internal'],
    ['POST', '/v2/deposit/signature'],
    ['POST', '/v2/deposit/confirm'],
    ['POST', '/v2/auth/logout'],
    ['POST', '/v2/api-keys'],
    ['GET', '/v2/api-keys'],
    ['DELETE', '/v2/api-keys/k1'],
    ['GET', '/v2/admin/users'],
    ['GET', '/v2/admin/reports/daily'],
    ['GET', '/api/v2/bd/partners'],
    ['POST', '/api/v2/manage/limits'],
  ])('restricted endpoint %s %s → 403 even with a valid signed key', async (method, path) => {
    const rig = setup();
    const res = await rig.call(method, path, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
    expect(res.status).toBe(403);
    expect(res.body.ok).toBe(false);
  });

  it('answers 404 for an unknown route', async () => {
    const rig = setup();
    const res = await rig.call('GET', '/v2/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body.errorId).toBeTypeOf('string');
  });

  it('serves public market endpoints without a key', async () => {
    const rig = setup();
    const res = await rig.ex.fetch(`${rig.ex.baseUrl}/health`);
    expect(res.status).toBe(200);
    expect((await res.json()).ok).toBe(true);
  });

  it("rejects another user's subAccountId with 403 Unauthorized subAccountId", async () => {
    const rig = setup();
    const other = rig.ex.createAccount({ balances: { USDT: '1' } });
    const res = await rig.call('GET', '/v2/futures/balance', { query: { subAccountId: other.subAccountId } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Unauthorized subAccountId');
    const own = rig.ex.createSubAccount(rig.accountId);
    expect((await rig.call('GET', '/v2/futures/balance', { query: { subAccountId: own.subAccountId } })).status).toBe(
      200,
    );
  });
});

describe('rate limits (spec: Limits)', () => {
  it('allows 100 batch calls per minute per account, then 429 with Retry-After and an errorId', async () => {
    const rig = setup();
    const body = { orders: [{ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '1000' }] };
    for (let i = 0; i < 100; i++) {
      rig.ex.advance(1); // distinct timestamps, so distinct signatures
      expect((await rig.call('POST', '/v2/orders/batch', { body })).status).toBe(200);
    }
    rig.ex.advance(1);
    const limited = await rig.call('POST', '/v2/orders/batch', { body });
    expect(limited.status).toBe(429);
    expect(limited.body.errorId).toMatch(/^err_/);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(59);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Other buckets are independent.
    expect((await rig.call('GET', '/v2/positions')).status).toBe(200);
    rig.ex.advance(retryAfter * 1000);
    expect((await rig.call('POST', '/v2/orders/batch', { body })).status).toBe(200);
  });

  it('counts per accountId: another account is not limited', async () => {
    const rig = setup();
    const other = rig.ex.createAccount({ balances: { USDT: '10000' } });
    const otherKey = rig.ex.createApiKey(other.accountId);
    const body = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '1000' };
    for (let i = 0; i < 300; i++) {
      rig.ex.advance(1);
      const res = await rig.call('POST', '/v2/orders', { body });
      expect(res.status).toBe(200);
    }
    rig.ex.advance(1);
    expect((await rig.call('POST', '/v2/orders', { body })).status).toBe(429);
    expect((await signedFetch(rig.ex, otherKey, 'POST', '/v2/orders', { body })).status).toBe(200);
  });
});

describe('rate limits: the close and default buckets', () => {
  it('POST /v2/positions/close: 300 per minute per account, then 429; other buckets unaffected', async () => {
    const rig = setup();
    await rig.client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
    const [position] = (await rig.client.account.positions()).positions;
    const body = { positionId: position!.id };
    // The first call closes it; the others are graceful no-ops (reconciled), which still count.
    for (let i = 0; i < 300; i++) {
      rig.ex.advance(1);
      expect((await rig.call('POST', '/v2/positions/close', { body })).status).toBe(200);
    }
    rig.ex.advance(1);
    const limited = await rig.call('POST', '/v2/positions/close', { body });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body).toMatchObject({ ok: false, errorId: expect.any(String) });
    expect((await rig.call('GET', '/v2/positions')).status).toBe(200);
  });

  it('every other signed call shares the default bucket: 1000 per minute, then 429 with Retry-After', async () => {
    const rig = setup();
    const paths = ['/v2/positions', '/v2/futures/balance', '/v2/orders', '/v2/risk/exposure'];
    for (let i = 0; i < 1000; i++) {
      if (i % 100 === 0) rig.ex.advance(1);
      const res = await rig.call('GET', paths[i % paths.length]!);
      if (res.status !== 200) throw new Error(`call ${i} answered ${res.status}`);
    }
    const limited = await rig.call('GET', '/v2/futures/balance');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    // The orders bucket is separate.
    const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '1000' };
    expect((await rig.call('POST', '/v2/orders', { body: order })).status).toBe(200);
    rig.ex.advance(60_000);
    expect((await rig.call('GET', '/v2/futures/balance')).status).toBe(200);
  });
});
