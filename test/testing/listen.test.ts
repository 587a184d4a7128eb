import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type AccountChannelHost,
  type AccountEvent,
  type ExchangeEndpoint,
  type ExchangeHandler,
  type ListenOptions,
  type SimRequest,
  SimulatedNetworkError,
} from '../../src/testing/_types.ts';
import { attachAccountChannel } from '../../src/testing/account-channel.ts';
import { handleMarketRoute } from '../../src/testing/http/routes/market.ts';
import { MarketSimulator } from '../../src/testing/market/simulator.ts';
import { listen } from '../../src/testing/server/index.ts';

/** A tiny exchange: the real market routes plus a few probes for the transport. */
function fakeExchange() {
  const market = new MarketSimulator({ seed: 2, now: () => Date.now() });
  const seen: Array<{ method: string; path: string; body: string; header: string | null; remoteAddress?: string }> = [];
  const handler: ExchangeHandler = async (request, meta) => {
    const url = new URL(request.url);
    if (url.pathname === '/reset') throw new SimulatedNetworkError('ECONNRESET');
    if (url.pathname === '/refuse') throw new SimulatedNetworkError('ECONNREFUSED');
    if (url.pathname === '/boom') throw new Error('bug in the exchange');
    if (url.pathname === '/echo') {
      const entry = {
        method: request.method,
        path: `${url.pathname}${url.search}`,
        body: await request.text(),
        header: request.headers.get('x-test'),
        ...(meta?.remoteAddress === undefined ? {} : { remoteAddress: meta.remoteAddress }),
      };
      seen.push(entry);
      return Response.json({ ok: true, ...entry }, { status: 201, headers: { 'x-sim': 'yes' } });
    }
    const req: SimRequest = {
      method: request.method,
      path: decodeURIComponent(url.pathname),
      rawPath: url.pathname,
      query: url.searchParams,
      headers: request.headers,
      body: undefined,
      remoteAddress: meta?.remoteAddress ?? '',
    };
    const result = handleMarketRoute(market, req);
    if (!result) return Response.json({ ok: false, error: 'Not found' }, { status: 404 });
    const body = result.body === undefined ? null : JSON.stringify(result.body);
    return new Response(body, {
      status: result.status,
      headers: { ...(body === null ? {} : { 'content-type': 'application/json' }), ...result.headers },
    });
  };
  const listeners = new Set<(event: AccountEvent) => void>();
  const channel: AccountChannelHost = {
    verifyJwt: (token) => (token === 'good.jwt' ? { accountId: 'acc-1' } : undefined),
    subscribeAccount: (_accountId, listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    snapshot: () => ({ positions: [] }),
    activeSymbols: () => market.symbols,
    marketPayload: (symbol, kind) => market.marketPayload(symbol, kind),
  };
  const endpoint: ExchangeEndpoint = {
    baseUrl: 'http://127.0.0.1',
    handler,
    openAccountChannel: (socket, url) => attachAccountChannel(socket, url, channel),
  };
  return {
    endpoint,
    seen,
    market,
    push: (event: AccountEvent) => {
      for (const listener of listeners) listener(event);
    },
    listeners,
  };
}

/** Collects messages of a global (WHATWG) WebSocket. */
function openSocket(url: string) {
  const socket = new WebSocket(url);
  const messages: string[] = [];
  const waiters: Array<() => void> = [];
  socket.addEventListener('message', (event) => {
    messages.push(String(event.data));
    for (const waiter of waiters.splice(0)) waiter();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.addEventListener('close', (event) => resolve({ code: event.code, reason: event.reason }));
  });
  const until = async (predicate: (messages: string[]) => boolean, timeoutMs = 3_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(messages)) {
      if (Date.now() > deadline) throw new Error(`timed out; got ${messages.length} messages`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  };
  return { socket, messages, closed, until };
}

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function start(options: ListenOptions = {}) {
  const exchange = fakeExchange();
  const server = await listen(exchange.endpoint, options);
  running.push(server);
  return { ...exchange, server };
}

describe('listen() over real HTTP', () => {
  it('binds 127.0.0.1 on a random port and serves the exchange', async () => {
    const { server, market } = await start();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.wsUrl).toBe(`${server.url.replace('http', 'ws')}/v2/ws/account`);
    const response = await fetch(`${server.url}/v2/symbols`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, symbols: [...market.symbols] });
  });

  it('passes method, path, query, headers, body and the socket address through, and streams status and headers back', async () => {
    const { server, seen } = await start();
    const response = await fetch(`${server.url}/echo?b=2&a=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-test': 'hello' },
      body: JSON.stringify({ symbol: 'BTCUSDT' }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-sim')).toBe('yes');
    expect(seen).toEqual([
      {
        method: 'POST',
        path: '/echo?b=2&a=1',
        body: '{"symbol":"BTCUSDT"}',
        header: 'hello',
        remoteAddress: '127.0.0.1',
      },
    ]);
  });

  it('answers a conditional token-registry request with 304 and no body', async () => {
    const { server } = await start();
    const first = await fetch(`${server.url}/v2/platform/tokens`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    await first.arrayBuffer();
    const second = await fetch(`${server.url}/v2/platform/tokens`, { headers: { 'If-None-Match': etag ?? '' } });
    expect(second.status).toBe(304);
    expect(await second.text()).toBe('');
  });

  it('drops the connection on a simulated reset or refusal, and answers 500 on an exchange bug', async () => {
    const { server } = await start();
    await expect(fetch(`${server.url}/reset`)).rejects.toThrow(TypeError);
    await expect(fetch(`${server.url}/refuse`)).rejects.toThrow(TypeError);
    const response = await fetch(`${server.url}/boom`);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ ok: false });
    // The server keeps serving after a dropped connection.
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('refuses to bind a non-loopback address', async () => {
    const { endpoint } = fakeExchange();
    await expect(listen(endpoint, { host: '0.0.0.0' })).rejects.toThrow(/loopback/);
  });

  it('close() resolves with open keep-alive and WebSocket connections, and the port stops answering', async () => {
    const exchange = fakeExchange();
    const server = await listen(exchange.endpoint);
    await (await fetch(`${server.url}/health`)).text();
    const ws = openSocket(`${server.wsUrl}?token=good.jwt`);
    await ws.until((m) => m.length > 0);
    await server.close();
    await ws.closed;
    expect(exchange.listeners.size).toBe(0);
    await expect(fetch(`${server.url}/health`)).rejects.toThrow(TypeError);
  });
});

describe('listen({ cors })', () => {
  const preflight = (url: string, origin: string) =>
    fetch(url, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,x-api-key',
      },
    });

  it('answers a preflight itself (204, methods, the requested headers) without calling the exchange', async () => {
    const { server, seen } = await start({ cors: true });
    const response = await preflight(`${server.url}/echo`, 'http://127.0.0.1:5173');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type,x-api-key');
    expect(response.headers.get('access-control-max-age')).toBe('600');
    expect(seen).toEqual([]);
  });

  it('lets the page read Date and Retry-After on real responses, errors included', async () => {
    const { server } = await start({ cors: true });
    const response = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { Origin: 'http://localhost:3000' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(response.headers.get('access-control-expose-headers')).toBe('Date, Retry-After, ETag');
    expect(response.headers.get('vary')).toContain('Origin');
    const missing = await fetch(`${server.url}/v2/nothing`, { headers: { Origin: 'http://localhost:3000' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
  });

  it('with an origin list, other origins get no CORS headers', async () => {
    const { server } = await start({ cors: { origin: ['http://localhost:5173'] } });
    const listed = await preflight(`${server.url}/echo`, 'http://localhost:5173');
    expect(listed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const other = await preflight(`${server.url}/echo`, 'http://evil.test');
    expect(other.status).toBe(204);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const call = await fetch(`${server.url}/health`, { headers: { Origin: 'http://evil.test' } });
    expect(call.status).toBe(200);
    expect(call.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("without cors, an OPTIONS request is the exchange's to answer and no CORS header is added", async () => {
    const { server } = await start();
    const response = await preflight(`${server.url}/v2/orders`, 'http://localhost:5173');
    expect(response.status).toBe(404);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('listen() over a real WebSocket', () => {
  it('accepts a JWT, pushes snapshot, account events and the firehose, and answers ping', async () => {
    const { server, push } = await start();
    const ws = openSocket(`${server.wsUrl}?token=good.jwt`);
    await ws.until((m) => m.some((text) => text.includes('"stream"')));
    expect(JSON.parse(ws.messages[0] ?? '{}')).toEqual({ event: 'full_snapshot', data: { positions: [] } });
    push({ event: 'order_new', data: { id: 'o-1' } });
    await ws.until((m) => m.some((text) => text.includes('order_new')));
    const event = ws.messages.map((text) => JSON.parse(text)).find((m) => m.event === 'order_new');
    expect(event).toEqual({ event: 'order_new', data: { id: 'o-1' } });
    ws.socket.send('ping');
    await ws.until((m) => m.includes('pong'));
    ws.socket.close(1000, 'bye');
    expect((await ws.closed).code).toBe(1000);
  });

  it('closes a connection without a valid JWT with 4001 Unauthorized', async () => {
    const { server } = await start();
    const missing = openSocket(server.wsUrl);
    expect(await missing.closed).toEqual({ code: 4001, reason: 'Unauthorized' });
    const forged = openSocket(`${server.wsUrl}?token=forged`);
    expect(await forged.closed).toEqual({ code: 4001, reason: 'Unauthorized' });
    expect(forged.messages).toEqual([]);
  });

  it('does not upgrade other paths', async () => {
    const { server } = await start();
    const other = openSocket(`${server.url.replace('http', 'ws')}/v2/ws/other?token=good.jwt`);
    const { code } = await other.closed;
    expect(code).toBe(1006);
  });
});

describe('listen(): process lifetime', () => {
  it('leaves nothing running after close(): a process with an open channel exits on its own', async () => {
    const src = fileURLToPath(new URL('../../src/testing/', import.meta.url));
    const dir = mkdtempSync(join(tmpdir(), 'sim-exit-'));
    const script = join(dir, 'exit.ts');
    writeFileSync(
      script,
      `import { listen } from ${JSON.stringify(join(src, 'server/index.ts'))};
import { attachAccountChannel } from ${JSON.stringify(join(src, 'account-channel.ts'))};
const host = {
  verifyJwt: (token) => (token === 'ok' ? { accountId: 'a' } : undefined),
  subscribeAccount: () => () => {},
  snapshot: () => ({}),
  activeSymbols: () => ['BTCUSDT', 'ETHUSDT'],
  marketPayload: (symbol, channel) => ({ symbol, channel }),
};
const server = await listen({
  baseUrl: 'http://127.0.0.1',
  handler: async () => new Response('{}'),
  openAccountChannel: (socket, url) => attachAccountChannel(socket, url, host),
});
const socket = new WebSocket(server.wsUrl + '?token=ok');
await new Promise((resolve) => socket.addEventListener('message', resolve, { once: true }));
await fetch(server.url + '/health').then((r) => r.text());
await server.close();
console.log('closed');
`,
    );
    try {
      const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'], cwd: process.cwd() });
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += String(chunk);
      });
      child.stderr.on('data', (chunk) => {
        output += String(chunk);
      });
      const code = await new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => {
          child.kill();
          resolve(null);
        }, 8_000);
        child.once('exit', (exitCode) => {
          clearTimeout(timer);
          resolve(exitCode);
        });
      });
      expect(output).toContain('closed');
      expect(code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
