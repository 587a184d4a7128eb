// maxMessageBytes (contract v0.3, "Bounded responses"): one stream message over the cap is not parsed; the
// stream drops that connection (error + close 1009), reconnects as after a drop, and keeps delivering.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { FuturesClient, type WebSocketConstructor } from '../../src/client.ts';
import { ConfigurationError } from '../../src/errors/configuration-error.ts';
import { AccountStream, type AccountStreamOptions } from '../../src/events/stream.ts';
import { StreamError } from '../../src/events/stream-error.ts';
import { exceedsBytes } from '../../src/events/stream-types.ts';
import { type Connection, startWsServer, TestClock, until, type WsRig } from './helpers.ts';

const WS: WebSocketConstructor = WebSocket;
const rigs: WsRig[] = [];
const streams: AccountStream[] = [];
afterEach(async () => {
  await Promise.all(streams.splice(0).map((s) => s.close()));
  await Promise.all(rigs.splice(0).map((r) => r.close()));
});

async function rig(onConnection: (connection: Connection, index: number) => void): Promise<WsRig> {
  const r = await startWsServer({ onConnection });
  rigs.push(r);
  return r;
}

function open(options: Partial<AccountStreamOptions> & { url: string }): AccountStream {
  const stream = new AccountStream({ token: 'jwt', WebSocket: WS, ...options });
  streams.push(stream);
  return stream;
}

/** The stream's events in order, as `name` or `name:detail`. */
function record(stream: AccountStream) {
  const log: string[] = [];
  const errors: unknown[] = [];
  const closes: unknown[] = [];
  const delays: number[] = [];
  stream.on('reconnecting', ({ delayMs }) => delays.push(delayMs));
  stream.on('order_new', (o) => log.push(`order_new:${String(o.id)}`));
  stream.on('open', () => log.push('open'));
  stream.on('reconnected', () => log.push('reconnected'));
  stream.on('close', (info) => {
    closes.push(info);
    log.push('close');
  });
  stream.on('error', (error) => {
    errors.push(error);
    log.push('error');
  });
  return { log, errors, closes, delays };
}

/** Lets the `n`-th reconnect (1-based) happen: advances the fake clock by exactly its delay, no further. */
async function letReconnect(clock: TestClock, delays: number[], n: number): Promise<void> {
  await until(() => delays.length >= n, 15_000);
  clock.advance(delays[n - 1]!);
}

const order = (id: string, pad = '') => JSON.stringify({ event: 'order_new', data: { id, pad } });

describe('maxMessageBytes', () => {
  it('must be a positive integer: anything else is a ConfigurationError, from new AccountStream and client.stream', () => {
    const client = new FuturesClient({ baseUrl: 'https://api.example.com', WebSocket: WS });
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '1024', null]) {
      const options = { url: 'ws://127.0.0.1:1/x', token: 'jwt', autoConnect: false, maxMessageBytes: bad as number };
      expect(() => new AccountStream({ ...options, WebSocket: WS }), String(bad)).toThrow(ConfigurationError);
      expect(() => client.stream(options), String(bad)).toThrow(/maxMessageBytes must be a positive integer/);
    }
    const fine = new AccountStream({ url: 'ws://127.0.0.1:1/x', token: 'jwt', WebSocket: WS, autoConnect: false });
    expect(fine.state).toBe('idle');
    expect(
      () => new AccountStream({ url: 'ws://x/y', token: 'jwt', WebSocket: WS, autoConnect: false, maxMessageBytes: 1 }),
    ).not.toThrow();
  });

  it('an oversize text message is not parsed: error, close 1009, reconnect, and the next messages arrive', async () => {
    const clock = new TestClock();
    const server = await rig(({ socket }, index) => {
      if (index === 1) {
        socket.send(order('before'));
        socket.send(order('huge', 'x'.repeat(2_000)));
        socket.send(order('after-on-the-dropped-connection'));
      } else socket.send(order(`fresh-${index}`));
    });
    const stream = open({ url: server.url, clock, maxMessageBytes: 1_024 });
    const { log, errors, closes, delays } = record(stream);
    await until(() => closes.length === 1);
    expect(errors).toHaveLength(1);
    const error = errors[0] as StreamError;
    expect(error).toBeInstanceOf(StreamError);
    expect(error.kind).toBe('connection');
    expect(error.closeCode).toBe(1009);
    expect(error.message).toContain('exceeded maxMessageBytes (1024 bytes)');
    expect(error.message).not.toContain('xxxx');
    expect(closes).toEqual([{ code: 1009, reason: 'message too big', willReconnect: true }]);
    // The server saw the stream close the connection with 1009.
    const first = await server.connection(1);
    await until(() => first.socket.readyState === first.socket.CLOSED);
    await letReconnect(clock, delays, 1);
    await until(() => log.includes('order_new:fresh-2'));
    expect(log).toEqual(['open', 'order_new:before', 'error', 'close', 'open', 'reconnected', 'order_new:fresh-2']);
    expect(stream.state).toBe('open');
    expect(stream.stats.received).toBe(2);
  });

  it('measures text in UTF-8 bytes: 600 × "é" (600 units, 1200 bytes) is over 1024; exactly 1024 bytes is not', async () => {
    const clock = new TestClock();
    const exact = order('exact', '');
    const exactPad = 'é'.repeat((1_024 - Buffer.byteLength(exact)) / 2);
    expect(Buffer.byteLength(order('exact', exactPad))).toBe(1_024);
    const server = await rig(({ socket }, index) => {
      if (index === 1) {
        socket.send(order('exact', exactPad));
        socket.send(order('wide', 'é'.repeat(600)));
      } else socket.send(order(`fresh-${index}`));
    });
    const stream = open({ url: server.url, clock, maxMessageBytes: 1_024 });
    const { log } = record(stream);
    await until(() => log.includes('close'));
    expect(log).toEqual(['open', 'order_new:exact', 'error', 'close']);
  });

  it('an oversize binary message is dropped the same way', async () => {
    const clock = new TestClock();
    const server = await rig(({ socket }, index) => {
      if (index === 1) socket.send(Buffer.from(order('bin', 'y'.repeat(5_000))), { binary: true });
      else socket.send(Buffer.from(order(`bin-${index}`)), { binary: true });
    });
    const stream = open({ url: server.url, clock, maxMessageBytes: 4_096 });
    const { log, closes, delays } = record(stream);
    await until(() => closes.length === 1);
    await letReconnect(clock, delays, 1);
    await until(() => log.includes('order_new:bin-2'));
    expect(log).toEqual(['open', 'error', 'close', 'open', 'reconnected', 'order_new:bin-2']);
  });

  it('defaults to 4 MiB: 4 MiB is delivered, 4 MiB + 1 byte drops the connection', async () => {
    const clock = new TestClock();
    const limit = 4 * 1024 * 1024;
    const at = (size: number, id: string) => order(id, 'z'.repeat(size - Buffer.byteLength(order(id, ''))));
    const server = await rig(({ socket }) => {
      socket.send(at(limit, 'at-limit'));
      socket.send(at(limit + 1, 'over-limit'));
    });
    const stream = open({ url: server.url, clock });
    const { log, closes } = record(stream);
    await until(() => closes.length === 1, 15_000);
    expect(log).toEqual(['open', 'order_new:at-limit', 'error', 'close']);
  });

  it("with the ws package's maxPayload, ws refuses the frame while it arrives and the stream reconnects", async () => {
    class CappedWebSocket extends WebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols, { maxPayload: 1_024 });
      }
    }
    const clock = new TestClock();
    const server = await rig(({ socket }, index) => {
      socket.send(index === 1 ? order('huge', 'x'.repeat(2_000)) : order(`fresh-${index}`));
    });
    const stream = open({ url: server.url, clock, WebSocket: CappedWebSocket });
    const { log, errors, closes, delays } = record(stream);
    await until(() => closes.length === 1);
    // ws sends 1009 to the server and reports the failed connection locally (1006, "Max payload size exceeded").
    expect(closes[0]).toMatchObject({ code: 1006, willReconnect: true });
    expect(errors[0]).toBeInstanceOf(StreamError);
    expect((errors[0] as StreamError).message).toMatch(/max payload size exceeded/i);
    await letReconnect(clock, delays, 1);
    await until(() => log.includes('order_new:fresh-2'));
    expect(log).toEqual(['open', 'error', 'close', 'open', 'reconnected', 'order_new:fresh-2']);
  });

  it('keeps no oversize message in memory: 8 dropped connections of 8 MiB each leave the heap about where it was', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const clock = new TestClock();
    const big = order('big', 'w'.repeat(8 * 1024 * 1024));
    const server = await rig(({ socket }) => socket.send(big));
    const stream = open({ url: server.url, clock, maxMessageBytes: 64 * 1024 });
    const { closes, delays } = record(stream);
    await until(() => closes.length === 1, 15_000);
    gc();
    // Large decoded strings are external in Node (not in heapUsed): count both.
    const used = () => process.memoryUsage().heapUsed + process.memoryUsage().external;
    const before = used();
    for (let n = 2; n <= 9; n++) {
      await letReconnect(clock, delays, n - 1);
      await until(() => closes.length === n, 15_000);
    }
    await Promise.all(rigs.map((r) => r.connections.map((c) => c.socket.terminate())));
    await new Promise((resolve) => setTimeout(resolve, 100)); // let the terminated sockets release their buffers
    gc();
    gc();
    const grownMiB = (used() - before) / 1024 / 1024;
    expect(grownMiB).toBeLessThan(16); // 8 retained messages would be 64 MiB
  });
});

describe('exceedsBytes (the measure behind maxMessageBytes)', () => {
  it('agrees with the UTF-8 byte length for any text, lone surrogates included, at every bound', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 200 }),
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.string({ unit: fc.constantFrom('\ud800', '\udc00', 'é', '😀', 'a', '\u20ac'), maxLength: 200 }),
        ),
        fc.integer({ min: 1, max: 900 }),
        (text, max) => {
          expect(exceedsBytes(text, max)).toBe(Buffer.byteLength(text, 'utf8') > max);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('binary: ArrayBuffer, views and Blob by size; anything else is not measured', () => {
    expect(exceedsBytes(new ArrayBuffer(11), 10)).toBe(true);
    expect(exceedsBytes(new Uint8Array(10), 10)).toBe(false);
    expect(exceedsBytes(new Uint8Array(new ArrayBuffer(64), 0, 11), 10)).toBe(true);
    expect(exceedsBytes(new Blob(['x'.repeat(11)]), 10)).toBe(true);
    expect(exceedsBytes(new Blob(['x'.repeat(10)]), 10)).toBe(false);
    expect(exceedsBytes({ length: 1e9 }, 10)).toBe(false);
  });
});
