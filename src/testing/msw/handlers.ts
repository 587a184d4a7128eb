/**
 * MSW (v3) handlers in front of a simulated exchange. `msw` is handed in as a module object rather than imported
 * here, so that the entry file alone decides how it is loaded (a dynamic import in the ESM build, `require` in
 * the CommonJS build), and can say in one sentence that it is missing.
 */

import type { RequestHandler, WebSocketHandler } from 'msw';
import { ACCOUNT_CHANNEL_PATH, type AccountChannelSocket, type ExchangeEndpoint } from '../_types.ts';

/** The part of the `msw` module the handlers use. */
export type MswModule = Pick<typeof import('msw'), 'http' | 'ws' | 'HttpResponse'>;

/**
 * The handler list `setupServer(...)` / `setupWorker(...)` take, as `handlers(ex)` returns it.
 *
 * @example
 * ```ts
 * import { handlers, type MswHandlers } from 'futures-sdk/testing/msw';
 * const list: MswHandlers = handlers(ex);
 * ```
 */
export type MswHandlers = Array<RequestHandler | WebSocketHandler>;

type WebSocketLink = ReturnType<MswModule['ws']['link']>;

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

function adaptMswClient(client: MswClient): AccountChannelSocket {
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
  // By name too: the ESM and the CommonJS build of the kit may both be loaded.
  return error instanceof Error && error.name === 'SimulatedNetworkError';
}

/**
 * One `ws.link` per URL for the whole process. Every link MSW creates adds a listener to one shared
 * `BroadcastChannel`, so a link per exchange made the 11th exchange of a test file print Node's
 * MaxListenersExceededWarning; handlers made from a shared link each carry their own connection listener.
 */
const links = new WeakMap<MswModule['ws'], Map<string, WebSocketLink>>();

function linkFor(msw: MswModule, url: string): WebSocketLink {
  let byUrl = links.get(msw.ws);
  if (!byUrl) {
    byUrl = new Map();
    links.set(msw.ws, byUrl);
  }
  let link = byUrl.get(url);
  if (!link) {
    link = msw.ws.link(url);
    byUrl.set(url, link);
  }
  return link;
}

/**
 * MSW handlers for an exchange: every HTTP request under `baseUrl` goes to the exchange (a simulated connection
 * reset or refusal becomes a network error, `HttpResponse.error()`), and WebSocket connections to the account
 * channel (`ws(s)://<host>/v2/ws/account`) are served by the simulated channel.
 */
export function createMswHandlers(msw: MswModule, exchange: ExchangeEndpoint): MswHandlers {
  const base = exchange.baseUrl.replace(/\/+$/, '');
  const wsUrl = `${base.replace(/^http/i, 'ws')}${ACCOUNT_CHANNEL_PATH}`;

  const httpHandler = msw.http.all(`${base}/*`, async ({ request }) => {
    try {
      return await exchange.handler(request, { remoteAddress: '127.0.0.1' });
    } catch (error) {
      if (isNetworkFault(error)) return msw.HttpResponse.error();
      throw error;
    }
  });

  const wsHandler = linkFor(msw, wsUrl).addEventListener('connection', ({ client }) => {
    exchange.openAccountChannel(adaptMswClient(client as unknown as MswClient), client.url);
  });

  return [httpHandler, wsHandler];
}
