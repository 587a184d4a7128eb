/**
 * MSW (v3) handlers in front of the simulated exchange, for `setupServer` (Node.js) and `setupWorker`
 * (browsers). This is the only module that imports `msw`, an optional peer dependency loaded only by users who
 * call `ex.handlers()`.
 */

import { HttpResponse, http, type RequestHandler, type WebSocketHandler, ws } from 'msw';
import {
  ACCOUNT_CHANNEL_PATH,
  type AccountChannelHost,
  type ExchangeHandler,
  SimulatedNetworkError,
} from './_types.ts';
import { attachAccountChannel, type ChannelSocket } from './account-channel.ts';

/**
 * Arguments of {@link createMswHandlers}.
 *
 * @example
 * ```ts
 * createMswHandlers({ baseUrl: ex.baseUrl, handler: ex.handler, channel: ex });
 * ```
 */
export interface CreateMswHandlersArgs {
  /** The exchange's base URL, e.g. `https://futures.sim` (no trailing `/v2`). */
  baseUrl: string;
  /** The exchange's fetch-like entry point. */
  handler: ExchangeHandler;
  /** What the account channel needs from the exchange. */
  channel: AccountChannelHost;
}

/** The client connection MSW hands to a `connection` listener (the part the channel uses). */
interface MswClient {
  url: URL;
  /** The intercepted `WebSocket` (present on in-process connections). */
  socket?: { readyState: number; addEventListener(type: 'open', listener: () => void, options: { once: true }): void };
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'close', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

function adaptMswClient(client: MswClient): ChannelSocket {
  // MSW queues one `open` listener per frame sent before the client socket is open; the channel's first burst
  // (snapshot + firehose) would trip Node's MaxListeners warning, so it is held here and flushed on open.
  let pending: string[] | undefined;
  if (client.socket?.readyState === 0) {
    pending = [];
    client.socket.addEventListener(
      'open',
      () => {
        const queued = pending ?? [];
        pending = undefined;
        for (const text of queued) client.send(text);
      },
      { once: true },
    );
  }
  return {
    send: (text) => {
      if (pending) pending.push(text);
      else client.send(text);
    },
    close: (code, reason) => {
      pending = undefined;
      client.close(code, reason);
    },
    onClose: (listener) => client.addEventListener('close', listener),
    onMessage: (listener) =>
      client.addEventListener('message', (event) => {
        if (typeof event.data === 'string') listener(event.data);
      }),
  };
}

function isNetworkFault(error: unknown): boolean {
  return error instanceof SimulatedNetworkError || (error instanceof Error && error.name === 'SimulatedNetworkError');
}

/**
 * MSW handlers for the simulated exchange: every HTTP request under `baseUrl` goes to the exchange (a
 * simulated connection reset or refusal becomes a network error, `HttpResponse.error()`), and WebSocket
 * connections to the account channel (`ws(s)://<host>/v2/ws/account`) are served by the simulated channel.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * const server = setupServer(...createMswHandlers({ baseUrl, handler, channel }));
 * server.listen();
 * ```
 */
export function createMswHandlers(args: CreateMswHandlersArgs): Array<RequestHandler | WebSocketHandler> {
  const base = args.baseUrl.replace(/\/+$/, '');
  const wsUrl = `${base.replace(/^http/i, 'ws')}${ACCOUNT_CHANNEL_PATH}`;
  const { handler, channel } = args;

  const httpHandler = http.all(`${base}/*`, async ({ request }) => {
    try {
      return await handler(request, { remoteAddress: '127.0.0.1' });
    } catch (error) {
      if (isNetworkFault(error)) return HttpResponse.error();
      throw error;
    }
  });

  const wsHandler = ws.link(wsUrl).addEventListener('connection', ({ client }) => {
    attachAccountChannel(adaptMswClient(client as unknown as MswClient), client.url, channel);
  });

  return [httpHandler, wsHandler];
}
