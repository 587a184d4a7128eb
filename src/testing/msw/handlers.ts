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
 * The account channel of every exchange, served by ONE `ws.link` and ONE handler per process (per `msw`
 * instance). MSW gives each link a listener on one shared `BroadcastChannel`, so a link per exchange made the 11th
 * exchange (with its own `baseUrl`) print Node's MaxListenersExceededWarning; and every handler that matches a
 * connection registers it on that channel, so handlers cannot simply match every URL. Instead the one handler
 * matches exactly the URLs of the exchanges whose handlers were made (the pattern consults the registry below),
 * and hands each connection to the exchange of its URL. `setupServer` dedupes a handler listed more than once, so
 * `setupServer(...handlers(ex1), ...handlers(ex2))` runs it once per connection. Kept on `globalThis` so that the
 * ESM and the CommonJS build of the kit share it.
 */
interface SharedAccountChannel {
  readonly handler: WebSocketHandler;
  /** Account-channel URL (`wss://host/v2/ws/account`, no query) → the exchange whose `handlers()` came last. */
  readonly exchanges: Map<string, WeakRef<ExchangeEndpoint>>;
}

const SHARED = Symbol.for('futures-sdk/testing/msw#account-channel');

/** `wss://host[:port]/path` of a URL, without query or fragment: the registry key. */
function channelKey(url: string | URL): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
}

function exchangeAt(exchanges: Map<string, WeakRef<ExchangeEndpoint>>, url: string | URL) {
  const key = channelKey(url);
  if (key === undefined) return undefined;
  const exchange = exchanges.get(key)?.deref();
  if (!exchange) exchanges.delete(key);
  return exchange;
}

function sharedAccountChannel(msw: MswModule): SharedAccountChannel {
  const slot = globalThis as { [SHARED]?: WeakMap<object, SharedAccountChannel> };
  slot[SHARED] ??= new WeakMap();
  const byMsw = slot[SHARED];
  const existing = byMsw.get(msw.ws);
  if (existing) return existing;
  const exchanges = new Map<string, WeakRef<ExchangeEndpoint>>();
  const lookup = (url: string | URL) => exchangeAt(exchanges, url);
  /** Matches the account-channel URL of a registered exchange, and nothing else (RegExp `exec` protocol). */
  class RegisteredChannelUrl extends RegExp {
    override exec(text: string): RegExpExecArray | null {
      return lookup(text) ? super.exec(text) : null;
    }
  }
  const link = msw.ws.link(new RegisteredChannelUrl('^wss?://', 'i'));
  const handler = link.addEventListener('connection', ({ client }) => {
    const exchange = lookup(client.url);
    // Unreachable unless the exchange was collected between matching and connecting.
    if (!exchange) return client.close(4404, 'No simulated exchange at this URL');
    exchange.openAccountChannel(adaptMswClient(client as unknown as MswClient), client.url);
  });
  const shared: SharedAccountChannel = { handler, exchanges };
  byMsw.set(msw.ws, shared);
  return shared;
}

/**
 * MSW handlers for an exchange: every HTTP request under `baseUrl` goes to the exchange (a simulated connection
 * reset or refusal becomes a network error, `HttpResponse.error()`), and WebSocket connections to the account
 * channel (`ws(s)://<host>/v2/ws/account`) are served by the simulated channel. Two exchanges with the same
 * `baseUrl`: WebSocket connections go to the one whose handlers were made last.
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

  const shared = sharedAccountChannel(msw);
  const key = channelKey(wsUrl);
  if (key !== undefined) shared.exchanges.set(key, new WeakRef(exchange));
  return [httpHandler, shared.handler];
}
