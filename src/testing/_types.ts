/**
 * The seams between the simulated exchange's modules: `exchange.ts` + `engine/` (the trading engine), `http/` (the
 * HTTP edge: API keys, signatures, JWTs, rate limits, faults, the request pipeline and the router in
 * `http/routes/`), `market/` + `http/routes/market.ts` (market data), `account-channel.ts` (the WebSocket account
 * channel), and the two optional transports on their own entry points, `msw/` (`futures-sdk/testing/msw`) and
 * `server/` (`futures-sdk/testing/server`). Only what the entry files re-export from here is public API; the rest
 * is internal. Nothing here may import a Node built-in or `msw`: the core entry runs on the bare platform.
 */

import type { SimMarketChannel } from './market/types.ts';

/** What a route handler returns; the router turns it into a `Response` (JSON body, `Date` header, errorId). */
export interface SimResponse {
  status: number;
  /** JSON-serialisable body. */
  body: unknown;
  headers?: Record<string, string>;
}

/** A parsed request as route handlers see it. */
export interface SimRequest {
  method: string;
  /** Decoded pathname, e.g. `/v2/orders/abc`. */
  path: string;
  /** Raw (still-encoded) pathname, to split ids that contain `/`. */
  rawPath: string;
  query: URLSearchParams;
  headers: Headers;
  /** Parsed JSON body, or undefined. */
  body: unknown;
  /** Client IP as the server sees it (socket address, or X-Forwarded-For when a trusted proxy is configured). */
  remoteAddress: string;
}

/**
 * Meta the transports pass with every request.
 *
 * @example
 * ```ts
 * import { createExchange, type RequestMeta } from 'futures-sdk/testing';
 * const ex = createExchange({ seed: 1 });
 * // as if the request came from another IP (for IP-whitelist tests)
 * const meta: RequestMeta = { remoteAddress: '203.0.113.7' };
 * const response = await ex.handler(new Request(`${ex.baseUrl}/health`), meta);
 * ```
 */
export interface RequestMeta {
  /** Socket address of the peer (`127.0.0.1` for the in-process fetch unless configured). */
  remoteAddress?: string;
}

/**
 * The fetch-like entry point of the exchange: every transport (ex.fetch, MSW, listen) calls this.
 *
 * @example
 * ```ts
 * import { createExchange, type ExchangeHandler } from 'futures-sdk/testing';
 * const ex = createExchange({ seed: 1 });
 * const logged: ExchangeHandler = async (request, meta) => {
 *   console.log(request.method, new URL(request.url).pathname);
 *   return ex.handler(request, meta);
 * };
 * const response = await logged(new Request(`${ex.baseUrl}/health`));
 * ```
 */
export type ExchangeHandler = (request: Request, meta?: RequestMeta) => Promise<Response>;

/**
 * A fault decided for one request. `reset` makes the transport drop the connection (ex.fetch rejects with a
 * `TypeError` whose cause has code `ECONNRESET`; listen() destroys the socket); `refused` is the same with
 * `ECONNREFUSED` (the request never reached the server).
 *
 * @example
 * ```ts
 * import { createExchange, SimulatedNetworkError } from 'futures-sdk/testing';
 * const ex = createExchange({ seed: 1 });
 * ex.faults.add({ path: '/health', refused: true });
 * await ex.handler(new Request(`${ex.baseUrl}/health`)).catch((err) => {
 *   if (err instanceof SimulatedNetworkError) console.log(err.code); // 'ECONNREFUSED'
 * });
 * ```
 */
export class SimulatedNetworkError extends Error {
  /** `ECONNRESET`: processed, then the connection dropped; `ECONNREFUSED`: never reached the exchange. */
  readonly code: 'ECONNRESET' | 'ECONNREFUSED';
  constructor(code: 'ECONNRESET' | 'ECONNREFUSED') {
    super(code === 'ECONNRESET' ? 'socket hang up' : 'connect ECONNREFUSED');
    this.code = code;
    this.name = 'SimulatedNetworkError';
  }
}

/**
 * An account-channel message: `{ event, data }` for account events.
 *
 * @example
 * ```ts
 * import { type AccountEvent, createExchange } from 'futures-sdk/testing';
 * const ex = createExchange({ seed: 1 });
 * const { accountId } = ex.createAccount({ balances: { USDT: '10000' } });
 * const seen: AccountEvent[] = [];
 * const unsubscribe = ex.subscribeAccount(accountId, (event) => seen.push(event));
 * ```
 */
export interface AccountEvent {
  event: 'order_new' | 'order_canceled' | 'order_update' | 'position_update' | 'full_snapshot' | (string & {});
  data: unknown;
}

/** What the WebSocket account channel needs from the exchange. */
export interface AccountChannelHost {
  /** Verifies a JWT (HS256, not expired, current revision). Returns the account id, or undefined to refuse. */
  verifyJwt(token: string): { accountId: string } | undefined;
  /** Subscribes to the account's events; returns an unsubscribe function. */
  subscribeAccount(accountId: string, listener: (event: AccountEvent) => void): () => void;
  /** The data of a `full_snapshot` for the account (positions, open orders, balances). */
  snapshot(accountId: string): unknown;
  /** Every active symbol, for the firehose. */
  activeSymbols(): readonly string[];
  /** One firehose payload for `symbol` and `channel` (depth, trades, ticker or kline). */
  marketPayload(symbol: string, channel: SimMarketChannel): unknown;
}

/**
 * Path of the account channel on the simulator (the spec does not name one).
 *
 * @example
 * ```ts
 * import { ACCOUNT_CHANNEL_PATH, createExchange } from 'futures-sdk/testing';
 * const ex = createExchange({ seed: 1 });
 * const server = await ex.listen();
 * const url = new URL(ACCOUNT_CHANNEL_PATH, server.url.replace(/^http/, 'ws')).href; // same as server.wsUrl
 * ```
 */
export const ACCOUNT_CHANNEL_PATH = '/v2/ws/account';

/**
 * The minimal socket the account channel runs on. The loopback server adapts a `ws` socket to it and the MSW
 * handlers adapt MSW's client connection; adapt your own (Deno.serve, Bun.serve, a Worker's `WebSocketPair`) and
 * hand it to `ex.openAccountChannel`.
 *
 * @example
 * ```ts
 * import { type AccountChannelSocket, createExchange } from 'futures-sdk/testing';
 * const ex = createExchange({ seed: 1 });
 * // e.g. in Deno: const { socket, response } = Deno.upgradeWebSocket(request);
 * declare const socket: WebSocket;
 * const adapted: AccountChannelSocket = {
 *   send: (text) => socket.send(text),
 *   close: (code, reason) => socket.close(code, reason),
 *   onClose: (listener) => socket.addEventListener('close', listener),
 *   onMessage: (listener) => socket.addEventListener('message', (e) => typeof e.data === 'string' && listener(e.data)),
 *   bufferedAmount: () => socket.bufferedAmount,
 * };
 * socket.addEventListener('open', () => ex.openAccountChannel(adapted, new URL('/v2/ws/account?token=…', ex.baseUrl)));
 * ```
 */
export interface AccountChannelSocket {
  /** Sends one text frame. May throw if the socket is already closing; the channel tolerates that. */
  send(text: string): void;
  /** Closes the connection with a WebSocket close code and reason. */
  close(code: number, reason: string): void;
  /** Registers the listener called once when the connection closes (from either side). */
  onClose(listener: () => void): void;
  /** Registers the listener of incoming text frames (for the `ping` heartbeat). */
  onMessage?(listener: (text: string) => void): void;
  /** Bytes queued but not yet written; when large, firehose frames are skipped instead of piling up. */
  bufferedAmount?(): number;
}

/**
 * What a transport needs from an exchange: its URL, its fetch-like handler and a way to run the account channel
 * on a socket. `Exchange` is one; the MSW handlers (`futures-sdk/testing/msw`) and the loopback server
 * (`futures-sdk/testing/server`) take any object of this shape.
 *
 * @example
 * ```ts
 * import { createExchange, type ExchangeEndpoint } from 'futures-sdk/testing';
 * const endpoint: ExchangeEndpoint = createExchange({ seed: 1 });
 * const response = await endpoint.handler(new Request(`${endpoint.baseUrl}/health`));
 * ```
 */
export interface ExchangeEndpoint {
  /** The exchange's URL (no trailing `/v2`). */
  readonly baseUrl: string;
  /** The fetch-like entry point every transport calls. */
  readonly handler: ExchangeHandler;
  /** Runs the account channel on an accepted WebSocket whose request URL was `url` (the JWT is its `token`). */
  openAccountChannel(socket: AccountChannelSocket, url: URL): void;
}

/**
 * Cross-origin settings of the loopback server: `true` lets a page on any origin call it; `{ origin }` only the
 * listed origins. Preflights (`OPTIONS`) are answered without reaching the exchange, and every response exposes
 * the headers the client reads (`Date`, `Retry-After`).
 *
 * @example
 * ```ts
 * const server = await ex.listen({ cors: { origin: ['http://localhost:5173'] } });
 * ```
 */
export interface CorsOptions {
  /** Allowed page origins, e.g. `'http://localhost:5173'`; any origin when omitted. */
  origin?: string | readonly string[] | undefined;
}

/**
 * Options of `ex.listen()` and of `listen()` from `futures-sdk/testing/server`.
 *
 * @example
 * ```ts
 * const server = await ex.listen({ port: 8787, cors: true });
 * ```
 */
export interface ListenOptions {
  /** TCP port; default 0 (a free random port). */
  port?: number | undefined;
  /** Loopback address to bind (default `127.0.0.1`); anything that is not loopback is refused. */
  host?: string | undefined;
  /**
   * Answer browser CORS preflights and expose `Date` / `Retry-After`, so that a page served from another origin
   * (a dev server, a dashboard) can call the simulator.
   * @default false
   */
  cors?: boolean | CorsOptions | undefined;
}

/**
 * A running loopback server.
 *
 * @example
 * ```ts
 * import type { ListeningExchange } from 'futures-sdk/testing';
 * const { url, wsUrl, close }: ListeningExchange = await ex.listen();
 * ```
 */
export interface ListeningExchange {
  /** `http://127.0.0.1:PORT`: use as the client's `baseUrl`. */
  url: string;
  /** `ws://127.0.0.1:PORT/v2/ws/account`: the account channel (add `?token=<JWT>`). */
  wsUrl: string;
  /** Closes every HTTP and WebSocket connection, then the server. */
  close(): Promise<void>;
}

/**
 * Whether `error` says that the package `name` itself could not be found (Node's ESM and CommonJS loaders, Bun and
 * Deno word it differently). Any other failure while loading it (a bug, a missing global) is not this.
 */
export function isMissingPackage(error: unknown, name: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  const namesIt = new RegExp(`['"\`]${name}['"\`/]`).test(text);
  return (
    namesIt && (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || /not (be )?found|find/i.test(text))
  );
}

/** The one sentence a missing optional peer dependency produces. */
export function missingPeerMessage(peer: 'msw' | 'ws', needs: string): string {
  return `futures-sdk/testing: ${needs} needs the optional peer dependency "${peer}", which is not installed. Install it: npm install --save-dev ${peer}`;
}

/**
 * Where `futures-sdk/testing/msw` leaves its handler factory when it loads, for `ex.handlers()`. A global
 * registered symbol rather than a module variable: the two entries are separate bundles, and an ESM and a
 * CommonJS copy of the kit may be loaded side by side.
 */
export const MSW_HANDLERS_FACTORY: unique symbol = Symbol.for('futures-sdk/testing/msw:handlers');
