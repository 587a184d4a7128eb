/**
 * The seams between the simulated exchange's modules: `exchange.ts` + `engine/` + `routes/` (the trading engine
 * and HTTP router), `market.ts` + `routes/market.ts` (market data), and `account-channel.ts`, `listen.ts`,
 * `msw.ts` (the WebSocket account channel and the two transports). Only what `testing/index.ts` re-exports
 * from here is public API (the handler, event and network-error types); the rest is internal.
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
  marketPayload(symbol: string, channel: 'depth' | 'trades' | 'ticker' | 'kline'): unknown;
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
