import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountChannelHost,
  type AccountEvent,
  type ExchangeHandler,
  type SimRequest,
  SimulatedNetworkError,
} from '../../src/testing/_types.ts';
import { attachAccountChannel } from '../../src/testing/account-channel.ts';
import { handleMarketRoute } from '../../src/testing/http/routes/market.ts';
import { MarketSimulator } from '../../src/testing/market/simulator.ts';
import { handlers } from '../../src/testing/msw/index.ts';

const BASE_URL = 'https://futures.sim';
const market = new MarketSimulator({ seed: 3, now: () => Date.now() });
const seen: Array<{ method: string; url: string; body: string }> = [];

const handler: ExchangeHandler = async (request) => {
  const url = new URL(request.url);
  if (url.pathname === '/v2/orders') {
    seen.push({ method: request.method, url: request.url, body: await request.text() });
    return Response.json({ ok: true, order: { id: 'o-1' } });
  }
  if (url.pathname === '/v2/reset') throw new SimulatedNetworkError('ECONNRESET');
  const req: SimRequest = {
    method: request.method,
    path: decodeURIComponent(url.pathname),
    rawPath: url.pathname,
    query: url.searchParams,
    headers: request.headers,
    body: undefined,
    remoteAddress: '127.0.0.1',
  };
  const result = handleMarketRoute(market, req);
  if (!result) return Response.json({ ok: false, error: 'Not found' }, { status: 404 });
  return Response.json(result.body, { status: result.status, ...(result.headers ? { headers: result.headers } : {}) });
};

const listeners = new Set<(event: AccountEvent) => void>();
const channel: AccountChannelHost = {
  verifyJwt: (token) => (token === 'good.jwt' ? { accountId: 'acc-1' } : undefined),
  subscribeAccount: (_accountId, listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  snapshot: () => ({ balances: [] }),
  activeSymbols: () => market.symbols,
  marketPayload: (symbol, kind) => market.marketPayload(symbol, kind),
};

const server = setupServer(
  ...handlers({
    baseUrl: `${BASE_URL}/`,
    handler,
    openAccountChannel: (socket, url) => attachAccountChannel(socket, url, channel),
  }),
);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

function openSocket(url: string) {
  const socket = new WebSocket(url);
  const messages: string[] = [];
  socket.addEventListener('message', (event) => messages.push(String(event.data)));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.addEventListener('close', (event) => resolve({ code: event.code, reason: event.reason }));
  });
  const until = async (predicate: (messages: string[]) => boolean) => {
    const deadline = Date.now() + 3_000;
    while (!predicate(messages)) {
      if (Date.now() > deadline) throw new Error(`timed out; got ${messages.length} messages`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { socket, messages, closed, until };
}

describe('handlers(exchange): HTTP', () => {
  it('routes fetch calls under baseUrl to the exchange, including /health', async () => {
    const response = await fetch(`${BASE_URL}/v2/ticker/24hr?symbol=BTCUSDT`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { tickers: Array<{ symbol: string }> };
    expect(body.tickers.map((t) => t.symbol)).toEqual(['BTCUSDT']);
    expect(await (await fetch(`${BASE_URL}/health`)).json()).toEqual({ ok: true, service: 'futures-sim' });
    const bad = await fetch(`${BASE_URL}/v2/leaderboard?type=volume&period=daily`);
    expect(bad.status).toBe(400);
  });

  it('hands the exchange the request as sent (method, query, body)', async () => {
    seen.length = 0;
    await fetch(`${BASE_URL}/v2/orders?timestamp=1&signature=abc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"symbol":"BTCUSDT"}',
    });
    expect(seen).toEqual([
      { method: 'POST', url: `${BASE_URL}/v2/orders?timestamp=1&signature=abc`, body: '{"symbol":"BTCUSDT"}' },
    ]);
  });

  it('turns a simulated connection reset into a network error', async () => {
    await expect(fetch(`${BASE_URL}/v2/reset`)).rejects.toThrow(TypeError);
  });
});

describe('handlers(exchange): account WebSocket', () => {
  it('serves the channel on wss://<host>/v2/ws/account to the global WebSocket', async () => {
    const ws = openSocket(`${BASE_URL.replace('https', 'wss')}/v2/ws/account?token=good.jwt`);
    await ws.until((m) => m.some((text) => text.includes('"stream"')));
    expect(JSON.parse(ws.messages[0] ?? '{}')).toEqual({ event: 'full_snapshot', data: { balances: [] } });
    for (const listener of listeners) listener({ event: 'order_canceled', data: { id: 'o-1' } });
    await ws.until((m) => m.some((text) => text.includes('order_canceled')));
    ws.socket.send('ping');
    await ws.until((m) => m.includes('pong'));
    ws.socket.close(1000);
    await ws.closed;
    // Closing the connection released the account subscription (and with it the channel's timers).
    expect(listeners.size).toBe(0);
  });

  it('closes a connection without a valid JWT with 4001 Unauthorized', async () => {
    const ws = openSocket(`${BASE_URL.replace('https', 'wss')}/v2/ws/account?token=nope`);
    expect(await ws.closed).toEqual({ code: 4001, reason: 'Unauthorized' });
    expect(ws.messages).toEqual([]);
  });
});
