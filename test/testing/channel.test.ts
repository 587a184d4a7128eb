import { describe, expect, it } from 'vitest';
import type { AccountChannelHost, AccountEvent } from '../../src/testing/_types.ts';
import {
  type AccountChannelOptions,
  attachAccountChannel,
  type ChannelSocket,
} from '../../src/testing/account-channel.ts';
import { MarketSimulator } from '../../src/testing/market/simulator.ts';

const CHANNEL_URL = 'ws://127.0.0.1/v2/ws/account';

/** A fake exchange side of the channel: one valid JWT, events pushed by hand, real market payloads. */
function fakeHost() {
  const market = new MarketSimulator({ seed: 1, now: () => Date.now() });
  const listeners = new Map<string, Set<(event: AccountEvent) => void>>();
  let snapshots = 0;
  const host: AccountChannelHost = {
    verifyJwt: (token) => {
      if (token === 'throws') throw new Error('malformed');
      return token === 'valid.jwt.token' ? { accountId: 'acc-1' } : undefined;
    },
    subscribeAccount: (accountId, listener) => {
      const set = listeners.get(accountId) ?? new Set();
      set.add(listener);
      listeners.set(accountId, set);
      return () => set.delete(listener);
    },
    snapshot: (accountId) => ({ accountId, positions: [], n: ++snapshots }),
    activeSymbols: () => market.symbols,
    marketPayload: (symbol, channel) => market.marketPayload(symbol, channel),
  };
  return {
    host,
    market,
    emit: (accountId: string, event: AccountEvent) => {
      for (const listener of listeners.get(accountId) ?? []) listener(event);
    },
    subscriberCount: (accountId: string) => listeners.get(accountId)?.size ?? 0,
  };
}

/** An in-memory socket recording what the channel sends. */
function fakeSocket() {
  const sent: string[] = [];
  let closeListener: (() => void) | undefined;
  let messageListener: ((text: string) => void) | undefined;
  const closed: Array<{ code: number; reason: string }> = [];
  const socket: ChannelSocket = {
    send: (text) => sent.push(text),
    close: (code, reason) => {
      closed.push({ code, reason });
      closeListener?.();
    },
    onClose: (listener) => {
      closeListener = listener;
    },
    onMessage: (listener) => {
      messageListener = listener;
    },
  };
  return {
    socket,
    sent,
    closed,
    json: () => sent.filter((text) => text.startsWith('{')).map((text) => JSON.parse(text) as Record<string, unknown>),
    receive: (text: string) => messageListener?.(text),
    peerCloses: () => closeListener?.(),
  };
}

/** Timers that never fire on their own; the test fires them and checks they are cleared. */
function manualTimers() {
  const live = new Map<number, { callback: () => void; ms: number; repeat: boolean }>();
  let next = 1;
  const options: AccountChannelOptions = {
    setTimeout: (callback, ms) => {
      live.set(next, { callback, ms, repeat: false });
      return next++;
    },
    clearTimeout: (handle) => live.delete(handle as number),
    setInterval: (callback, ms) => {
      live.set(next, { callback, ms, repeat: true });
      return next++;
    },
    clearInterval: (handle) => live.delete(handle as number),
  };
  return {
    options,
    live,
    fire(repeat: boolean) {
      for (const [id, timer] of [...live]) {
        if (timer.repeat !== repeat) continue;
        if (!repeat) live.delete(id);
        timer.callback();
      }
    },
  };
}

describe('attachAccountChannel: handshake', () => {
  it.each([
    ['no token', CHANNEL_URL],
    ['an empty token', `${CHANNEL_URL}?token=`],
    ['an invalid token', `${CHANNEL_URL}?token=forged`],
    ['a token the verifier chokes on', `${CHANNEL_URL}?token=throws`],
    ['an API key next to a valid JWT', `${CHANNEL_URL}?token=valid.jwt.token&apiKey=ak_123`],
  ])('refuses %s with close code 4001 Unauthorized and sends nothing', (_, url) => {
    const { host, subscriberCount } = fakeHost();
    const { socket, sent, closed } = fakeSocket();
    const timers = manualTimers();
    attachAccountChannel(socket, new URL(url), host, timers.options);
    expect(closed).toEqual([{ code: 4001, reason: 'Unauthorized' }]);
    expect(sent).toEqual([]);
    expect(timers.live.size).toBe(0);
    expect(subscriberCount('acc-1')).toBe(0);
  });
});

describe('attachAccountChannel: an accepted connection', () => {
  function connect(options: AccountChannelOptions = {}) {
    const fake = fakeHost();
    const socket = fakeSocket();
    const timers = manualTimers();
    attachAccountChannel(socket.socket, new URL(`${CHANNEL_URL}?token=valid.jwt.token`), fake.host, {
      ...timers.options,
      ...options,
    });
    return { ...fake, ...socket, timers };
  }

  it('sends a full_snapshot and the first firehose batch at once', () => {
    const { json, closed } = connect();
    const messages = json();
    expect(closed).toEqual([]);
    expect(messages[0]).toEqual({ event: 'full_snapshot', data: { accountId: 'acc-1', positions: [], n: 1 } });
    const streams = messages.filter((m) => 'stream' in m);
    expect(streams.length).toBeGreaterThanOrEqual(15);
    expect(streams[0]).toMatchObject({ stream: 'BTCUSDT@depth', data: { bids: expect.any(Array) } });
  });

  it('forwards account events as { event, data }', () => {
    const { json, emit } = connect();
    emit('acc-1', { event: 'order_new', data: { id: 'o1', status: 'NEW' } });
    emit('acc-2', { event: 'order_new', data: { id: 'other account' } });
    emit('acc-1', { event: 'position_update', data: { symbol: 'BTCUSDT', quantity: '0.5' } });
    const events = json().filter((m) => 'event' in m && m.event !== 'full_snapshot');
    expect(events).toEqual([
      { event: 'order_new', data: { id: 'o1', status: 'NEW' } },
      { event: 'position_update', data: { symbol: 'BTCUSDT', quantity: '0.5' } },
    ]);
  });

  it('repeats full_snapshot every snapshotIntervalMs', () => {
    const { json, timers } = connect({ snapshotIntervalMs: 5_000 });
    const intervals = [...timers.live.values()].filter((t) => t.repeat);
    expect(intervals.map((t) => t.ms)).toEqual([5_000]);
    timers.fire(true);
    timers.fire(true);
    const snapshots = json().filter((m) => m.event === 'full_snapshot');
    expect(snapshots.map((m) => (m.data as { n: number }).n)).toEqual([1, 2, 3]);
  });

  it('survives a host that throws while building a frame', () => {
    const { host } = fakeHost();
    const socket = fakeSocket();
    const timers = manualTimers();
    const broken = {
      ...host,
      snapshot: () => {
        throw new Error('snapshot bug');
      },
      marketPayload: (symbol: string, channel: 'depth' | 'trades' | 'ticker' | 'kline') => {
        if (symbol === 'ETHUSDT') throw new Error('payload bug');
        return host.marketPayload(symbol, channel);
      },
    };
    attachAccountChannel(socket.socket, new URL(`${CHANNEL_URL}?token=valid.jwt.token`), broken, timers.options);
    expect(() => timers.fire(true)).not.toThrow();
    const streams = socket.json().map((m) => m.stream);
    expect(streams.slice(0, 2)).toEqual(['BTCUSDT@depth', 'SOLUSDT@depth']);
    expect(socket.json().some((m) => m.event === 'full_snapshot')).toBe(false);
  });

  it('answers the text heartbeat ping with pong', () => {
    const { receive, sent } = connect();
    receive('ping');
    expect(sent.at(-1)).toBe('pong');
    const count = sent.length;
    receive('{"op":"subscribe"}');
    expect(sent).toHaveLength(count);
  });

  it('clears every timer and its subscription when the peer closes, and sends nothing afterwards', () => {
    const { timers, peerCloses, sent, emit, subscriberCount } = connect();
    expect(timers.live.size).toBe(2);
    expect(subscriberCount('acc-1')).toBe(1);
    peerCloses();
    expect(timers.live.size).toBe(0);
    expect(subscriberCount('acc-1')).toBe(0);
    const count = sent.length;
    emit('acc-1', { event: 'order_new', data: {} });
    expect(sent).toHaveLength(count);
  });

  it('paces the firehose with real timers at 300–400 msgs/s, covering every symbol and channel', async () => {
    const fake = fakeHost();
    const socket = fakeSocket();
    const received: Array<{ at: number; stream: string }> = [];
    const started = performance.now();
    socket.socket.send = (text) => {
      if (text.startsWith('{"stream"')) {
        received.push({ at: performance.now() - started, stream: (JSON.parse(text) as { stream: string }).stream });
      }
    };
    attachAccountChannel(socket.socket, new URL(`${CHANNEL_URL}?token=valid.jwt.token`), fake.host);
    // One full round of 144 symbols × 4 channels takes about 1.65 s at 350 msgs/s.
    await new Promise((resolve) => setTimeout(resolve, 1_800));
    const inFirstSecond = received.filter((m) => m.at < 1_000);
    expect(inFirstSecond.length).toBeGreaterThanOrEqual(300);
    expect(inFirstSecond.length).toBeLessThanOrEqual(400);
    const symbols = new Set(inFirstSecond.map((m) => m.stream.split('@')[0]));
    expect(symbols.size).toBe(fake.market.symbols.length);
    const streams = new Set(received.map((m) => m.stream));
    expect(streams.size).toBe(fake.market.symbols.length * 4);
    for (const stream of streams) expect(stream).toMatch(/^[A-Z0-9]+USDT@(depth|trades|ticker|kline)$/);
    socket.peerCloses();
    const count = received.length;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(received).toHaveLength(count);
  });
});
