/**
 * Internal seams of the simulated exchange, shared by its modules. Not part of the public API.
 *
 * Ownership: `exchange.ts` + `engine/` + `routes/` (except `routes/market.ts`) build the trading engine and the
 * HTTP router; `market.ts` + `routes/market.ts` build market data; `account-channel.ts`, `listen.ts` and
 * `msw.ts` build the WebSocket account channel and the two transports (loopback server, MSW handlers).
 */

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

/** Meta the transports pass with every request. */
export interface RequestMeta {
  /** Socket address of the peer (`127.0.0.1` for the in-process fetch unless configured). */
  remoteAddress?: string;
}

/** The fetch-like entry point of the exchange: every transport (ex.fetch, MSW, listen) calls this. */
export type ExchangeHandler = (request: Request, meta?: RequestMeta) => Promise<Response>;

/**
 * A fault decided for one request. `reset` makes the transport drop the connection (ex.fetch rejects with a
 * `TypeError` whose cause has code `ECONNRESET`; listen() destroys the socket); `refused` is the same with
 * `ECONNREFUSED` (the request never reached the server).
 */
export class SimulatedNetworkError extends Error {
  readonly code: 'ECONNRESET' | 'ECONNREFUSED';
  constructor(code: 'ECONNRESET' | 'ECONNREFUSED') {
    super(code === 'ECONNRESET' ? 'socket hang up' : 'connect ECONNREFUSED');
    this.code = code;
    this.name = 'SimulatedNetworkError';
  }
}

/** An account-channel message: `{ event, data }` for account events. */
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
  marketPayload(symbol: string, channel: 'depth' | 'trades' | 'ticker' | 'kline'): unknown;
}

/** Path of the account channel on the simulator (the spec does not name one). */
export const ACCOUNT_CHANNEL_PATH = '/v2/ws/account';
