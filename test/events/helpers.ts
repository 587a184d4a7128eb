/**
 * Test rigs for the events module: a real `ws` server on 127.0.0.1 and a hand-driven clock.
 */
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket as ServerSocket, WebSocketServer } from 'ws';
import { ManualClock } from '../../src/testing/manual-clock.ts';

/** One accepted connection, with the request line the server saw. */
export interface Connection {
  socket: ServerSocket;
  url: URL;
  protocols: string | undefined;
  received: string[];
}

export interface WsRig {
  url: string;
  connections: Connection[];
  /** Resolves with the n-th connection (1-based) once it exists. */
  connection(n: number): Promise<Connection>;
  close(): Promise<void>;
}

/**
 * A loopback WebSocket server. `onConnection` decides what each connection does; `verify` can refuse the
 * upgrade with an HTTP status.
 */
export async function startWsServer(
  options: {
    onConnection?: (connection: Connection, index: number) => void;
    verify?: (request: IncomingMessage) => number | undefined;
  } = {},
): Promise<WsRig> {
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    verifyClient: options.verify
      ? (info, done) => {
          const status = options.verify?.(info.req);
          if (status === undefined) done(true);
          else done(false, status, status === 401 ? 'Unauthorized' : 'Refused');
        }
      : undefined,
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const connections: Connection[] = [];
  const waiters: Array<{ n: number; resolve: (c: Connection) => void }> = [];
  server.on('connection', (socket, request) => {
    const connection: Connection = {
      socket,
      url: new URL(request.url ?? '/', `ws://127.0.0.1:${port}`),
      protocols: request.headers['sec-websocket-protocol'],
      received: [],
    };
    socket.on('message', (data) => connection.received.push(String(data)));
    connections.push(connection);
    options.onConnection?.(connection, connections.length);
    for (const waiter of waiters.filter((w) => w.n <= connections.length)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(connections[waiter.n - 1]!);
    }
  });
  return {
    url: `ws://127.0.0.1:${port}/v2/ws/account`,
    connections,
    connection: (n) =>
      connections[n - 1]
        ? Promise.resolve(connections[n - 1]!)
        : new Promise((resolve) => waiters.push({ n, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}

/** The public fake clock as the stream and watcher tests use it: time moves only when the test says so. */
export class TestClock extends ManualClock {
  constructor() {
    super({ start: 1_000_000 });
  }
}

/** Resolves with the arguments of the next `event` of an eventemitter3 emitter (or rejects after `ms`). */
export function nextEvent<A extends unknown[]>(target: object, event: string, ms = 5_000): Promise<A> {
  const emitter = target as {
    once(event: string, fn: (...args: A) => void): unknown;
    off(event: string, fn: (...args: A) => void): unknown;
  };
  return new Promise<A>((resolve, reject) => {
    const timer = setTimeout(() => {
      emitter.off(event, handler);
      reject(new Error(`timed out waiting for '${event}'`));
    }, ms);
    const handler = (...args: A) => {
      clearTimeout(timer);
      resolve(args);
    };
    emitter.once(event, handler);
  });
}

/** Waits until `predicate` holds (polling every 5 ms), or fails after `ms`. */
export async function until(predicate: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
