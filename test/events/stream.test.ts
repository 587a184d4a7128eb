import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { FuturesClient, type WebSocketConstructor } from '../../src/client.ts';
import { AuthenticationError } from '../../src/errors/api-error.ts';
import type { FuturesError } from '../../src/errors/futures-error.ts';
import { ListenerError } from '../../src/errors/listener-error.ts';
import { AccountStream, type AccountStreamOptions } from '../../src/events/stream.ts';
import { StreamError } from '../../src/events/stream-error.ts';
import { nextEvent, startWsServer, TestClock, until, type WsRig } from './helpers.ts';

// No cast: WebSocketConstructor is structural, and the ws class fits it as it is.
const WS: WebSocketConstructor = WebSocket;
const TOKEN = 'plain-session-token-7f3a';

const rigs: WsRig[] = [];
const streams: AccountStream[] = [];
afterEach(async () => {
  await Promise.all(streams.splice(0).map((s) => s.close()));
  await Promise.all(rigs.splice(0).map((r) => r.close()));
});

async function rig(options: Parameters<typeof startWsServer>[0] = {}): Promise<WsRig> {
  const r = await startWsServer(options);
  rigs.push(r);
  return r;
}

function open(options: Partial<AccountStreamOptions> & { url: string }): AccountStream {
  const stream = new AccountStream({ token: TOKEN, WebSocket: WS, ...options });
  streams.push(stream);
  return stream;
}

function collect(stream: AccountStream) {
  const log: Array<[string, unknown]> = [];
  for (const name of [
    'order_new',
    'order_canceled',
    'order_update',
    'position_update',
    'full_snapshot',
    'unknown_event',
    'market',
    'open',
    'reconnecting',
    'reconnected',
    'close',
    'error',
  ] as const) {
    stream.on(name, (arg?: unknown) => log.push([name, arg]));
  }
  return {
    log,
    of: (name: string) => log.filter(([n]) => n === name).map(([, a]) => a),
    errors: () => log.filter(([n]) => n === 'error').map(([, a]) => a as FuturesError),
  };
}

describe('AccountStream handshake', () => {
  it('sends the token as the `token` query parameter by default', async () => {
    const server = await rig();
    const stream = open({ url: server.url });
    await nextEvent(stream, 'open');
    const connection = await server.connection(1);
    expect(connection.url.pathname).toBe('/v2/ws/account');
    expect(connection.url.searchParams.get('token')).toBe(TOKEN);
    expect(stream.state).toBe('open');
  });

  it('lets buildUrl and protocols change the handshake', async () => {
    const server = await rig();
    const stream = open({
      url: server.url,
      buildUrl: (url, token) => `${url}?jwt=${token}&v=2`,
      protocols: (token) => ['account.v1', `bearer.${token}`],
    });
    await nextEvent(stream, 'open');
    const connection = await server.connection(1);
    expect(connection.url.searchParams.get('jwt')).toBe(TOKEN);
    expect(connection.url.searchParams.has('token')).toBe(false);
    expect(connection.protocols?.split(',').map((p) => p.trim())).toEqual(['account.v1', `bearer.${TOKEN}`]);
  });

  it('uses the client WebSocket option unless the stream overrides it', async () => {
    const server = await rig();
    let clientCtorUsed = 0;
    class Counting extends WebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        clientCtorUsed++;
      }
    }
    const client = new FuturesClient({ baseUrl: 'http://127.0.0.1:1', WebSocket: Counting });
    const viaClient = client.stream({ url: server.url, token: TOKEN });
    streams.push(viaClient);
    await nextEvent(viaClient, 'open');
    expect(clientCtorUsed).toBe(1);
    const overridden = client.stream({ url: server.url, token: TOKEN, WebSocket: WS });
    streams.push(overridden);
    await nextEvent(overridden, 'open');
    expect(clientCtorUsed).toBe(1);
  });

  it('works with the runtime global WebSocket', async () => {
    const server = await rig({ onConnection: (c) => c.socket.send('{"event":"order_new","data":{"id":"o1"}}') });
    const stream = open({ url: server.url, WebSocket: undefined });
    const [data] = await nextEvent<[{ id: string }]>(stream, 'order_new');
    expect(data.id).toBe('o1');
  });
});

describe('AccountStream messages', () => {
  it('delivers account events by name, typed, and keeps unknown event names', async () => {
    const server = await rig({
      onConnection: ({ socket }) => {
        socket.send(JSON.stringify({ event: 'full_snapshot', data: { positions: [], orders: [] } }));
        socket.send(JSON.stringify({ event: 'order_new', data: { id: 'o1', symbol: 'BTCUSDT', status: 'NEW' } }));
        socket.send(JSON.stringify({ event: 'order_canceled', data: { id: 'o1', status: 'CANCELED' } }));
        socket.send(JSON.stringify({ event: 'order_update', data: { id: 'o2', status: 'FILLED' } }));
        socket.send(
          JSON.stringify({ event: 'position_update', data: { symbol: 'BTCUSDT', quantity: '-0.015', x: 1 } }),
        );
        socket.send(JSON.stringify({ event: 'margin_call', data: { level: 3 } }));
        socket.send(JSON.stringify({ event: 'order_new', data: { id: 'last' } }));
      },
    });
    const stream = open({ url: server.url });
    const events = collect(stream);
    await until(() => events.of('order_new').length === 2);
    expect(events.of('full_snapshot')).toEqual([{ positions: [], orders: [] }]);
    expect(events.of('order_new')[0]).toEqual({ id: 'o1', symbol: 'BTCUSDT', status: 'NEW' });
    expect(events.of('order_canceled')).toEqual([{ id: 'o1', status: 'CANCELED' }]);
    expect(events.of('order_update')).toEqual([{ id: 'o2', status: 'FILLED' }]);
    expect(events.of('position_update')).toEqual([{ symbol: 'BTCUSDT', quantity: '-0.015', x: 1 }]);
    expect(events.of('unknown_event')).toEqual([{ event: 'margin_call', data: { level: 3 } }]);
    expect(events.errors()).toEqual([]);
  });

  it('reports a malformed account message as an error event and keeps going', async () => {
    const server = await rig({
      onConnection: ({ socket }) => {
        socket.send('{"event":"order_new","data":');
        socket.send(JSON.stringify({ event: 'position_update', data: { symbol: 'BTCUSDT' } }));
        socket.send(JSON.stringify({ event: 'order_new', data: { id: 'after' } }));
      },
    });
    const stream = open({ url: server.url });
    const events = collect(stream);
    await until(() => events.of('order_new').length === 1);
    const errors = events.errors();
    expect(errors).toHaveLength(2);
    expect(errors.every((e) => e instanceof StreamError && e.kind === 'message')).toBe(true);
    expect(events.of('position_update')).toEqual([]);
    expect(stream.state).toBe('open');
  });

  it('emits market data only for the symbols asked for and never parses the rest of the firehose', async () => {
    const server = await rig({
      onConnection: ({ socket }) => {
        for (let i = 0; i < 50; i++) {
          // Unwanted symbols get broken JSON: parsing any of them would produce an error event.
          socket.send(`{"stream":"ETHUSDT@depth","data":{"bids":[["1","2"]`);
          socket.send(`{"stream":"SOLUSDT@trades","data":[}`);
        }
        socket.send(JSON.stringify({ stream: 'BTCUSDT@ticker', data: { lastPrice: '65000.5' } }));
        socket.send(JSON.stringify({ stream: 'btcusdt@kline', data: [1, '2'] }));
        socket.send(JSON.stringify({ stream: 'XRPUSDT@depth', data: {} }));
        socket.send(JSON.stringify({ event: 'order_new', data: { id: 'end' } }));
      },
    });
    const stream = open({ url: server.url, symbols: ['BTCUSDT'] });
    const events = collect(stream);
    await until(() => events.of('order_new').length === 1);
    expect(events.errors()).toEqual([]);
    expect(events.of('market')).toEqual([
      { symbol: 'BTCUSDT', channel: 'ticker', data: { lastPrice: '65000.5' } },
      { symbol: 'btcusdt', channel: 'kline', data: [1, '2'] },
    ]);
    expect(stream.stats.dropped).toBe(101);
  });

  it('drops market data for unwanted symbols even when the JSON is not compact', async () => {
    const server = await rig({
      onConnection: ({ socket }) => {
        socket.send('{ "stream": "ETHUSDT@depth", "data": {} }');
        socket.send('{ "stream": "BTCUSDT@depth", "data": {"bids": []} }');
      },
    });
    const stream = open({ url: server.url, symbols: ['BTCUSDT'] });
    const events = collect(stream);
    await until(() => events.of('market').length === 1);
    expect(events.of('market')).toEqual([{ symbol: 'BTCUSDT', channel: 'depth', data: { bids: [] } }]);
    await until(() => stream.stats.received === 2);
    expect(stream.stats.dropped).toBe(1);
  });

  it('answers nothing to `pong` and sends `ping` on the configured period', async () => {
    const clock = new TestClock();
    const server = await rig({
      onConnection: (c) => c.socket.on('message', (data) => String(data) === 'ping' && c.socket.send('pong')),
    });
    const stream = open({ url: server.url, clock, pingIntervalMs: 10_000 });
    const events = collect(stream);
    await nextEvent(stream, 'open');
    clock.advance(10_000);
    await until(() => stream.stats.received === 1);
    clock.advance(10_000);
    await until(() => stream.stats.received === 2);
    const connection = await server.connection(1);
    expect(connection.received).toEqual(['ping', 'ping']);
    expect(events.errors()).toEqual([]);
    expect(events.of('unknown_event')).toEqual([]);
  });

  it('keeps running when a listener throws', async () => {
    const server = await rig({
      onConnection: ({ socket }) => {
        socket.send(JSON.stringify({ event: 'order_new', data: { id: '1' } }));
        socket.send(JSON.stringify({ event: 'order_new', data: { id: '2' } }));
      },
    });
    const logged: string[] = [];
    const stream = open({
      url: server.url,
      logger: { debug() {}, info() {}, warn() {}, error: (m) => logged.push(m) },
    });
    const seen: string[] = [];
    stream.on('order_new', (o) => {
      seen.push(String(o.id));
      throw new Error('listener bug');
    });
    await until(() => seen.length === 2);
    expect(stream.state).toBe('open');
    expect(logged).toHaveLength(2);
  });
});

describe('AccountStream listener errors', () => {
  it('a throwing listener surfaces as a ListenerError event without a logger, even for a hostile value', async () => {
    const server = await rig({
      onConnection: ({ socket }) => {
        socket.send(JSON.stringify({ event: 'order_new', data: { id: '1' } }));
        socket.send(JSON.stringify({ event: 'position_update', data: { symbol: 'BTCUSDT', quantity: '1' } }));
      },
    });
    const stream = open({ url: server.url });
    const events = collect(stream);
    stream.on('order_new', () => {
      throw Object.assign(Object.create(null), {
        toString() {
          throw new Error('hostile');
        },
      });
    });
    stream.on('position_update', () => {
      throw new Error(`bad handler saw ${TOKEN}`);
    });
    await until(() => events.errors().length === 2);
    const [first, second] = events.errors();
    expect(first).toBeInstanceOf(ListenerError);
    expect(first).toMatchObject({ event: 'order_new', source: 'stream' });
    expect(first?.message).toContain('[unprintable value]');
    expect(second).toMatchObject({ name: 'ListenerError', event: 'position_update' });
    expect(second?.message).toContain('bad handler saw');
    expect(inspect(second)).not.toContain(TOKEN);
    expect(stream.state).toBe('open');
    expect(events.of('position_update')).toHaveLength(1);
  });
});

describe('AccountStream reconnection', () => {
  it('reconnects with jittered exponential backoff, capped, and calls the token provider every time', async () => {
    const clock = new TestClock();
    // Accept, then drop at once without a message: every attempt is a failure.
    const server = await rig({ onConnection: ({ socket }) => socket.close(1011, 'overloaded') });
    let calls = 0;
    const stream = open({
      url: server.url,
      clock,
      token: async () => `token-${++calls}`,
      reconnect: { baseDelayMs: 500, maxDelayMs: 4_000 },
    });
    const events = collect(stream);
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 6; attempt++) {
      await until(() => events.of('reconnecting').length === attempt);
      const info = events.of('reconnecting')[attempt - 1] as { attempt: number; delayMs: number };
      expect(info.attempt).toBe(attempt);
      delays.push(info.delayMs);
      clock.advance(info.delayMs);
    }
    // random() = 0.5 → 75 % of each step: 500, 1000, 2000, 4000 (cap), 4000, 4000.
    expect(delays).toEqual([375, 750, 1500, 3000, 3000, 3000]);
    // The server sees the 7th connection a moment before the client's `open`: wait for both.
    await until(() => server.connections.length === 7 && events.of('open').length === 7);
    expect(server.connections.map((c) => c.url.searchParams.get('token'))).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((n) => `token-${n}`),
    );
    const closes = events.of('close') as Array<{ code: number; reason: string; willReconnect: boolean }>;
    expect(closes[0]).toEqual({ code: 1011, reason: 'overloaded', willReconnect: true });
    expect(events.of('open')).toHaveLength(7);
  });

  it('jitter spreads the delay between half and all of the step', async () => {
    const clock = new TestClock();
    const server = await rig({ onConnection: ({ socket }) => socket.close(1011, 'x') });
    clock.randomValue = 0;
    const stream = open({ url: server.url, clock });
    const events = collect(stream);
    await until(() => events.of('reconnecting').length === 1);
    expect((events.of('reconnecting')[0] as { delayMs: number }).delayMs).toBe(250);
    clock.randomValue = 0.999;
    clock.advance(250);
    await until(() => events.of('reconnecting').length === 2);
    expect((events.of('reconnecting')[1] as { delayMs: number }).delayMs).toBe(1000);
  });

  it('emits reconnected after a drop, and resets the backoff once a connection delivered messages', async () => {
    const clock = new TestClock();
    const server = await rig({
      onConnection: ({ socket }, index) => {
        socket.send(JSON.stringify({ event: 'order_new', data: { id: String(index) } }));
        if (index <= 2) setTimeout(() => socket.close(1012, 'restart'), 20);
      },
    });
    const stream = open({ url: server.url, clock });
    const events = collect(stream);
    await until(() => events.of('reconnecting').length === 1);
    clock.advance((events.of('reconnecting')[0] as { delayMs: number }).delayMs);
    await until(() => events.of('reconnecting').length === 2);
    clock.advance((events.of('reconnecting')[1] as { delayMs: number }).delayMs);
    await until(() => events.of('order_new').length === 3);
    expect(events.of('reconnecting')).toEqual([
      { attempt: 1, delayMs: 375 },
      { attempt: 1, delayMs: 375 },
    ]);
    expect(events.of('reconnected')).toHaveLength(2);
    expect(events.log.map(([n]) => n).filter((n) => n !== 'order_new')).toEqual([
      'open',
      'close',
      'reconnecting',
      'open',
      'reconnected',
      'close',
      'reconnecting',
      'open',
      'reconnected',
    ]);
  });

  it('reports a refused connection without the token or the URL query, and keeps retrying', async () => {
    const clock = new TestClock();
    const server = await rig();
    const url = server.url;
    await server.close();
    rigs.splice(rigs.indexOf(server), 1);
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    const stream = open({ url, clock, token: jwt });
    const events = collect(stream);
    await until(() => events.of('reconnecting').length === 1);
    const [error] = events.errors();
    expect(error).toBeInstanceOf(StreamError);
    expect((error as StreamError).kind).toBe('connection');
    for (const text of [error!.message, String(error), JSON.stringify(error), inspect(error)]) {
      expect(text).not.toContain(jwt);
      expect(text).not.toContain('token=');
    }
    expect(JSON.stringify(events.log)).not.toContain(jwt);
  });

  it('stops after maxAttempts', async () => {
    const clock = new TestClock();
    const server = await rig({ onConnection: ({ socket }) => socket.close(1011, 'x') });
    const stream = open({ url: server.url, clock, reconnect: { maxAttempts: 1 } });
    const events = collect(stream);
    await until(() => events.of('reconnecting').length === 1);
    clock.advance(10_000);
    await until(() => events.of('close').length === 2);
    expect(events.of('close')[1]).toMatchObject({ willReconnect: false });
    expect(stream.state).toBe('closed');
    expect(clock.pending).toBe(0);
  });

  it('retries with backoff when the token provider fails', async () => {
    const clock = new TestClock();
    const server = await rig();
    let calls = 0;
    const stream = open({
      url: server.url,
      clock,
      token: async () => {
        calls++;
        if (calls === 1) throw new Error('refresh endpoint down');
        return TOKEN;
      },
    });
    const events = collect(stream);
    await until(() => events.of('reconnecting').length === 1);
    expect((events.errors()[0] as StreamError).kind).toBe('token');
    clock.advance(375);
    await nextEvent(stream, 'open');
    expect(calls).toBe(2);
  });
  it('with reconnect: false, a failing token provider stops the stream visibly', async () => {
    const server = await rig();
    const stream = open({
      url: server.url,
      reconnect: false,
      token: () => {
        throw new Error('no session');
      },
    });
    const events = collect(stream);
    await until(() => stream.state === 'closed');
    expect((events.errors()[0] as StreamError).kind).toBe('token');
    expect(events.of('close')).toEqual([{ code: 1006, reason: 'connection attempt failed', willReconnect: false }]);
    expect(server.connections).toHaveLength(0);
  });
});

describe('AccountStream watchdog', () => {
  it('closes and reconnects a connection that goes silent for heartbeatTimeoutMs', async () => {
    const clock = new TestClock();
    const server = await rig({
      onConnection: ({ socket }, index) => {
        if (index === 1) socket.send(JSON.stringify({ event: 'order_new', data: { id: 'only' } }));
      },
    });
    const stream = open({ url: server.url, clock, heartbeatTimeoutMs: 30_000 });
    const events = collect(stream);
    await until(() => events.of('order_new').length === 1);
    clock.advance(29_999);
    expect(events.errors()).toEqual([]);
    clock.advance(1);
    expect(events.errors()).toHaveLength(1);
    expect((events.errors()[0] as StreamError).kind).toBe('heartbeat');
    expect(events.of('close')).toEqual([{ code: 4000, reason: 'heartbeat timeout', willReconnect: true }]);
    expect(events.of('reconnecting')).toEqual([{ attempt: 1, delayMs: 375 }]);
    clock.advance(375);
    await until(() => events.of('reconnected').length === 1);
    await until(() => server.connections[0]!.socket.readyState === WebSocket.CLOSED);
  });

  it('also bounds the handshake: a server that accepts TCP but never upgrades is dropped and retried', async () => {
    const clock = new TestClock();
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const stream = open({ url: `ws://127.0.0.1:${port}/v2/ws/account`, clock, heartbeatTimeoutMs: 5_000 });
      const events = collect(stream);
      await until(() => sockets.length === 1);
      expect(stream.state).toBe('connecting');
      clock.advance(5_000);
      const [error] = events.errors();
      expect(error).toBeInstanceOf(StreamError);
      expect((error as StreamError).kind).toBe('heartbeat');
      expect(error!.message).toContain('no handshake within 5000 ms');
      expect(events.of('close')).toEqual([{ code: 4000, reason: 'heartbeat timeout', willReconnect: true }]);
      clock.advance((events.of('reconnecting')[0] as { delayMs: number }).delayMs);
      await until(() => sockets.length === 2);
      expect(events.of('open')).toEqual([]);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('any message (including pong) keeps the connection alive', async () => {
    const clock = new TestClock();
    const server = await rig({
      onConnection: (c) => c.socket.on('message', (data) => String(data) === 'ping' && c.socket.send('pong')),
    });
    const stream = open({ url: server.url, clock, heartbeatTimeoutMs: 30_000, pingIntervalMs: 20_000 });
    const events = collect(stream);
    await nextEvent(stream, 'open');
    for (let i = 1; i <= 4; i++) {
      clock.advance(20_000);
      await until(() => stream.stats.received === i);
    }
    expect(events.errors()).toEqual([]);
    expect(server.connections).toHaveLength(1);
  });
});

describe('AccountStream never throws from a socket callback', () => {
  it('listeners that throw on every lifecycle event do not stop the reconnect machinery', async () => {
    const clock = new TestClock();
    const server = await rig({
      onConnection: ({ socket }, index) => {
        if (index === 1) socket.send('not json');
        socket.send(JSON.stringify({ event: 'order_new', data: { id: String(index) } }));
        if (index === 1) setTimeout(() => socket.close(1012, 'restart'), 20);
      },
    });
    const logged: string[] = [];
    const stream = open({
      url: server.url,
      clock,
      logger: { debug() {}, info() {}, warn() {}, error: (m) => logged.push(m) },
    });
    const events = collect(stream);
    for (const name of ['open', 'close', 'reconnecting', 'reconnected', 'error', 'order_new'] as const) {
      stream.on(name, () => {
        throw new Error(`listener of ${name} is buggy`);
      });
    }
    await until(() => events.of('reconnecting').length === 1);
    clock.advance((events.of('reconnecting')[0] as { delayMs: number }).delayMs);
    await until(() => events.of('reconnected').length === 1 && events.of('order_new').length === 2);
    expect(stream.state).toBe('open');
    const errors = events.errors();
    expect(errors.filter((e) => e instanceof StreamError).map((e) => e.kind)).toEqual(['message']);
    // Every other error is a listener bug, reported once per throw; the throwing `error` listener is not.
    expect(errors.every((e) => e instanceof StreamError || e instanceof ListenerError)).toBe(true);
    const listenerEvents = new Set(errors.map((e) => (e instanceof ListenerError ? e.event : '')));
    for (const name of ['open', 'close', 'reconnecting', 'reconnected', 'order_new'])
      expect(listenerEvents).toContain(name);
    expect(listenerEvents).not.toContain('error');
    for (const name of ['open', 'close', 'reconnecting', 'reconnected', 'error', 'order_new']) {
      expect(logged).toContain(`an '${name}' listener of the stream threw`);
    }
  });

  it('a stream without an error listener does not throw on bad messages or failed connections', async () => {
    const clock = new TestClock();
    const server = await rig({
      onConnection: ({ socket }) => {
        socket.send('{"event":');
        socket.send(JSON.stringify({ event: 'position_update', data: {} }));
        socket.close(1011, 'x');
      },
    });
    const stream = open({ url: server.url, clock });
    const reconnecting = nextEvent(stream, 'reconnecting');
    await reconnecting;
    await server.close();
    rigs.splice(rigs.indexOf(server), 1);
    const retried = nextEvent(stream, 'reconnecting');
    clock.advance(10_000);
    await retried;
    expect(stream.listenerCount('error')).toBe(0);
    expect(stream.state).toBe('reconnecting');
    expect(stream.stats.received).toBe(2);
  });
});

describe('AccountStream closed from inside its own listeners', () => {
  it("close() in a 'reconnecting' listener leaves no reconnect timer", async () => {
    const clock = new TestClock();
    const server = await rig({ onConnection: ({ socket }) => socket.close(1011, 'x') });
    const stream = open({ url: server.url, clock });
    const events = collect(stream);
    stream.on('reconnecting', () => void stream.close());
    await until(() => stream.state === 'closed');
    expect(clock.pending).toBe(0);
    clock.advance(600_000);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.connections).toHaveLength(1);
    expect(events.of('close').at(-1)).toEqual({ code: 1000, reason: 'client closed', willReconnect: false });
  });

  it("close() in an 'error' listener ends with exactly one close, which says the stream stopped", async () => {
    const clock = new TestClock();
    const server = await rig({
      onConnection: ({ socket }) => socket.send(JSON.stringify({ event: 'order_new', data: { id: 'x' } })),
    });
    const stream = open({ url: server.url, clock, heartbeatTimeoutMs: 1_000 });
    const events = collect(stream);
    stream.on('error', () => void stream.close());
    await nextEvent(stream, 'order_new');
    clock.advance(1_000);
    await until(() => stream.state === 'closed');
    expect((events.errors()[0] as StreamError).kind).toBe('heartbeat');
    expect(events.of('close')).toEqual([{ code: 1000, reason: 'client closed', willReconnect: false }]);
    expect(events.of('reconnecting')).toEqual([]);
    expect(clock.pending).toBe(0);
  });

  it("close() in an 'open' listener: no reconnected event and no ping timer", async () => {
    const clock = new TestClock();
    const server = await rig({ onConnection: ({ socket }, index) => index === 1 && socket.close(1012, 'restart') });
    const stream = open({ url: server.url, clock, pingIntervalMs: 1_000 });
    const events = collect(stream);
    let opens = 0;
    let closing: Promise<void> | undefined;
    stream.on('open', () => {
      if (++opens === 2) closing = stream.close();
    });
    await until(() => events.of('reconnecting').length === 1);
    clock.advance((events.of('reconnecting')[0] as { delayMs: number }).delayMs);
    await until(() => closing !== undefined);
    expect(stream.state).toBe('closed');
    await closing;
    expect({ opens, pending: clock.pending, log: events.log.map(([n]) => n) }).toEqual({
      opens: 2,
      pending: 0,
      log: ['open', 'close', 'reconnecting', 'open', 'close'],
    });
  });
});

describe('AccountStream refused login', () => {
  it('close code 4001 is terminal: unauthorized state, AuthenticationError, no reconnect', async () => {
    const clock = new TestClock();
    const server = await rig({ onConnection: ({ socket }) => socket.close(4001, 'Unauthorized') });
    const stream = open({ url: server.url, clock });
    const events = collect(stream);
    await until(() => stream.state === 'unauthorized');
    expect(events.errors()).toHaveLength(1);
    expect(events.errors()[0]).toBeInstanceOf(AuthenticationError);
    expect(events.of('close')).toEqual([{ code: 4001, reason: 'Unauthorized', willReconnect: false }]);
    expect(events.of('reconnecting')).toEqual([]);
    expect(clock.pending).toBe(0);
    clock.advance(120_000);
    expect(server.connections).toHaveLength(1);
  });

  it('an HTTP 401 at the upgrade is terminal too (when the WebSocket reports the status)', async () => {
    const clock = new TestClock();
    const server = await rig({ verify: () => 401 });
    const stream = open({ url: server.url, clock });
    const events = collect(stream);
    await until(() => stream.state === 'unauthorized');
    const error = events.errors()[0] as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.status).toBe(401);
    expect(error.message).not.toContain(TOKEN);
    expect(events.of('close')).toMatchObject([{ willReconnect: false }]);
    expect(clock.pending).toBe(0);
  });
});

describe('AccountStream close()', () => {
  it('stops everything: no timers, no reconnect, the server sees a normal close', async () => {
    const clock = new TestClock();
    const server = await rig({ onConnection: ({ socket }) => socket.send('{"event":"order_new","data":{}}') });
    const stream = open({ url: server.url, clock, pingIntervalMs: 5_000 });
    const events = collect(stream);
    await nextEvent(stream, 'order_new');
    const closed = new Promise<number>((resolve) =>
      server.connections[0]!.socket.once('close', (code) => resolve(code)),
    );
    await stream.close();
    expect(await closed).toBe(1000);
    expect(stream.state).toBe('closed');
    expect(clock.pending).toBe(0);
    expect(events.of('close')).toEqual([{ code: 1000, reason: 'client closed', willReconnect: false }]);
    clock.advance(600_000);
    expect(server.connections).toHaveLength(1);
  });

  it('close() during a reconnect wait cancels the reconnect', async () => {
    const clock = new TestClock();
    const server = await rig({ onConnection: ({ socket }) => socket.close(1011, 'x') });
    const stream = open({ url: server.url, clock });
    const events = collect(stream);
    await until(() => events.of('reconnecting').length === 1);
    await stream.close();
    expect(clock.pending).toBe(0);
    clock.advance(60_000);
    expect(server.connections).toHaveLength(1);
  });

  it('with real timers, leaves no active handle behind', async () => {
    const server = await rig({ onConnection: ({ socket }) => socket.send('{"event":"order_new","data":{}}') });
    const timersBefore = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const stream = open({ url: server.url, pingIntervalMs: 1_000, heartbeatTimeoutMs: 10_000 });
    await nextEvent(stream, 'order_new');
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBeGreaterThan(timersBefore);
    await stream.close();
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(timersBefore);
  });

  it('close() before the first connection means no connection is ever made', async () => {
    const server = await rig();
    const stream = open({ url: server.url });
    await stream.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.connections).toHaveLength(0);
    expect(stream.state).toBe('closed');
  });
});
