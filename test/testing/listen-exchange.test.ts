import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalQuery, hmacSha256Hex } from '../../src/signer.ts';
import { createExchange } from '../../src/testing/index.ts';

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
  return { ex, token, placeOrder };
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
