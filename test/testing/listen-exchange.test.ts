import { FuturesClient, PermissionDeniedError } from 'futures-sdk';
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalQuery, hmacSha256Hex } from '../../src/signer.ts';
import { createExchange } from '../../src/testing/index.ts';
import '../../src/testing/msw/index.ts';

/** End to end through `createExchange`: the real engine behind the loopback server and the MSW handlers. */

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function setup() {
  const ex = createExchange({ seed: 1 });
  const { accountId } = ex.createAccount({ balances: { USDT: '10000' } });
  const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  const token = ex.issueJwt(accountId);
  /** A signed POST /v2/orders: a LIMIT buy far under the market, so it rests and pushes order_new. */
  const placeOrder = (baseUrl: string, fetchImpl: typeof fetch = fetch) => {
    const query = canonicalQuery({ timestamp: Date.now() });
    const signature = hmacSha256Hex(apiSecret, query);
    return fetchImpl(`${baseUrl}/v2/orders?${query}&signature=${signature}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-API-KEY': apiKey },
      body: JSON.stringify({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '1000' }),
    });
  };
  return { ex, token, placeOrder, creds: { apiKey, apiSecret } };
}

/** A request signed with the SDK's signer, sent over real HTTP. */
function signedHttp(
  url: string,
  creds: { apiKey: string; apiSecret: string },
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  timestamp = Date.now(),
) {
  const query = canonicalQuery({ timestamp });
  const signature = hmacSha256Hex(creds.apiSecret, query);
  return fetch(`${url}?${query}&signature=${signature}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', 'X-API-KEY': creds.apiKey, ...init.headers },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
}

function openSocket(url: string) {
  const socket = new WebSocket(url);
  const messages: Array<Record<string, unknown>> = [];
  socket.addEventListener('message', (event) => {
    const text = String(event.data);
    if (text.startsWith('{')) messages.push(JSON.parse(text) as Record<string, unknown>);
  });
  const closed = new Promise<number>((resolve) => socket.addEventListener('close', (event) => resolve(event.code)));
  const until = async (predicate: () => boolean) => {
    const deadline = Date.now() + 3_000;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out; got ${messages.length} messages`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { socket, messages, closed, until };
}

describe('createExchange transports', () => {
  it('ex.listen(): public REST, a signed order and its order_new on the account WebSocket', async () => {
    const { ex, token, placeOrder } = setup();
    const server = await ex.listen();
    cleanups.push(() => server.close());

    const depth = await fetch(`${server.url}/v2/depth?symbol=BTCUSDT&limit=5`);
    expect(depth.status).toBe(200);
    expect(((await depth.json()) as { bids: unknown[] }).bids).toHaveLength(5);

    const ws = openSocket(`${server.wsUrl}?token=${encodeURIComponent(token)}`);
    cleanups.push(() => ws.socket.close());
    await ws.until(() => ws.messages.some((m) => m.event === 'full_snapshot'));
    await ws.until(() => ws.messages.some((m) => typeof m.stream === 'string'));

    const response = await placeOrder(server.url);
    expect(response.status).toBe(200);
    const { order } = (await response.json()) as { order: { id: string } };
    await ws.until(() => ws.messages.some((m) => m.event === 'order_new'));
    const event = ws.messages.find((m) => m.event === 'order_new') as { data: { id?: string; order?: { id: string } } };
    expect(JSON.stringify(event.data)).toContain(order.id);
  });

  it('ex.listen(): an API key is not accepted on the account channel', async () => {
    const { ex } = setup();
    const server = await ex.listen();
    cleanups.push(() => server.close());
    const ws = openSocket(`${server.wsUrl}?token=not-a-jwt`);
    expect(await ws.closed).toBe(4001);
  });

  it('ex.handlers(): MSW serves the same exchange to fetch and the global WebSocket', async () => {
    const { ex, token, placeOrder } = setup();
    const msw = setupServer(...(ex.handlers() as Parameters<typeof setupServer>));
    msw.listen({ onUnhandledFrame: 'error' });
    cleanups.push(() => msw.close());

    const wsUrl = `${ex.baseUrl.replace(/^http/, 'ws')}/v2/ws/account?token=${encodeURIComponent(token)}`;
    const ws = openSocket(wsUrl);
    cleanups.push(() => ws.socket.close());
    await ws.until(() => ws.messages.some((m) => m.event === 'full_snapshot'));

    const response = await placeOrder(ex.baseUrl);
    expect(response.status).toBe(200);
    await ws.until(() => ws.messages.some((m) => m.event === 'order_new'));
  });
});

describe('key rules repeated over ex.listen(): real HTTP and a real WebSocket', () => {
  it('FuturesClient signs over HTTP; 401 for a bad or replayed signature; IP whitelist on the socket address', async () => {
    const { ex } = setup();
    const server = await ex.listen();
    cleanups.push(() => server.close());
    const { accountId } = ex.createAccount({ balances: { USDT: '1000' } });
    const creds = ex.createApiKey(accountId, { ipWhitelist: ['127.0.0.1'] });
    const client = new FuturesClient({ baseUrl: server.url, ...creds, retry: false });
    await expect(client.account.positions()).resolves.toEqual({ ok: true, positions: [] });

    const timestamp = Date.now() + 1;
    expect((await signedHttp(`${server.url}/v2/positions`, creds, {}, timestamp)).status).toBe(200);
    const replay = await signedHttp(`${server.url}/v2/positions`, creds, {}, timestamp);
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({ error: 'Signature replay detected', errorId: expect.any(String) });
    const wrongSecret = await signedHttp(`${server.url}/v2/positions`, { ...creds, apiSecret: 'nope' });
    expect((await wrongSecret.json()).error).toBe('Invalid signature');

    // The socket address is 127.0.0.1; X-Forwarded-For is ignored unless the exchange trusts a proxy.
    const elsewhere = ex.createApiKey(accountId, { ipWhitelist: ['203.0.113.7'] });
    const denied = await signedHttp(`${server.url}/v2/positions`, elsewhere, {
      headers: { 'X-Forwarded-For': '203.0.113.7' },
    });
    expect(denied.status).toBe(403);
    expect((await denied.json()).error).toBe('IP not whitelisted for this API key');
    const viaClient = new FuturesClient({ baseUrl: server.url, ...elsewhere, retry: false });
    await expect(viaClient.account.positions()).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it('429 with a Retry-After header after 100 batch calls in a minute', async () => {
    const { ex } = setup();
    const server = await ex.listen();
    cleanups.push(() => server.close());
    const { accountId } = ex.createAccount({ balances: { USDT: '1000' } });
    const client = new FuturesClient({
      baseUrl: server.url,
      ...ex.createApiKey(accountId),
      retry: false,
      rateLimit: false,
    });
    const item = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '1000' } as const;
    for (let i = 0; i < 100; i++) await client.orders.createBatch([item]);
    await expect(client.orders.createBatch([item])).rejects.toMatchObject({
      status: 429,
      retryAfterMs: expect.any(Number),
    });
    const last = ex.requests.at(-1)!;
    expect(last.status).toBe(429);
  });

  it('a maker fill reaches the WebSocket only as position_update at sync; a MARKET fill pushes three events', async () => {
    const { ex, token, placeOrder, creds } = setup();
    const server = await ex.listen();
    cleanups.push(() => server.close());
    const ws = openSocket(`${server.wsUrl}?token=${encodeURIComponent(token)}`);
    cleanups.push(() => ws.socket.close());
    await ws.until(() => ws.messages.some((m) => m.event === 'full_snapshot'));
    const events = () => ws.messages.filter((m) => typeof m.event === 'string' && m.event !== 'full_snapshot');

    const response = await placeOrder(server.url); // a resting LIMIT buy of 0.001 at 1000
    const { order } = (await response.json()) as { order: { id: string } };
    await ws.until(() => events().length === 1);
    ex.fillOrder(order.id); // on the venue only: nothing is pushed before the sync tick
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events().map((m) => m.event)).toEqual(['order_new']);
    ex.sync();
    await ws.until(() => events().length === 2);
    expect(events()[1]).toMatchObject({ event: 'position_update', data: { symbol: 'BTCUSDT', quantity: '0.001' } });

    const sold = await signedHttp(`${server.url}/v2/orders`, creds, {
      method: 'POST',
      body: { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.001' },
    });
    expect(sold.status).toBe(200);
    await ws.until(() => events().length === 5);
    expect(
      events()
        .slice(2)
        .map((m) => m.event),
    ).toEqual(['order_new', 'order_update', 'position_update']);
    expect(events()[4]).toMatchObject({ data: { quantity: '0', status: 'CLOSED' } });
  });

  it('the market firehose starts right after the upgrade, unasked, at roughly 300–400 messages per second', async () => {
    const { ex, token } = setup();
    const server = await ex.listen();
    cleanups.push(() => server.close());
    const ws = openSocket(`${server.wsUrl}?token=${encodeURIComponent(token)}`);
    cleanups.push(() => ws.socket.close());
    const opened = performance.now();
    const streams = () => ws.messages.filter((m) => typeof m.stream === 'string');
    await ws.until(() => streams().length > 0);
    expect(performance.now() - opened).toBeLessThan(1_000);
    const first = streams().length;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const perSecond = streams().length - first;
    // Generous bounds (a shared CI machine); channel.test.ts checks the pacing itself within 300–400.
    expect(perSecond).toBeGreaterThan(200);
    expect(perSecond).toBeLessThan(500);
    const symbols = new Set(streams().map((m) => String(m.stream).split('@')[0]));
    expect(symbols.size).toBeGreaterThan(140);
    expect(streams()[0]).toEqual({ stream: expect.stringMatching(/^[A-Z0-9]+@depth$/), data: expect.any(Object) });
  });
});
