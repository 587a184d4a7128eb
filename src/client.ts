import type { Clock } from './_internal/clock.ts';
import type { Logger, RetryOptions, Signer } from './_internal/transport.ts';
import { BaseClient } from './base-client.ts';
import { AccountStream, type AccountStreamOptions } from './events/stream.ts';
import { AccountWatcher, type AccountWatcherOptions } from './events/watcher.ts';
import type { WebSocketConstructor } from './events/web-socket.ts';
import type { Fleet } from './fleet/types.ts';
import { AccountResource } from './resources/account.ts';
import { FuturesResource } from './resources/futures.ts';
import { MarketResource } from './resources/market.ts';
import { OrdersResource } from './resources/orders.ts';

// Structural (see events/web-socket.ts): globalThis.WebSocket and the `ws` package's class both fit without a cast.
export type { WebSocketConstructor };

/**
 * Options of {@link FuturesClient}. Only `baseUrl` is required; public market data needs nothing else.
 *
 * @example
 * ```ts
 * import { FuturesClient, type FuturesClientOptions } from 'futures-sdk';
 * const options: FuturesClientOptions = {
 *   baseUrl: 'https://api.example.com',
 *   apiKey: process.env.FUTURES_API_KEY,
 *   apiSecret: process.env.FUTURES_API_SECRET,
 *   timeoutMs: 5_000,
 *   retry: { limit: 2 },
 * };
 * const client = new FuturesClient(options);
 * ```
 */
export interface FuturesClientOptions {
  /** API origin, e.g. `https://api.example.com` (no `/v2` suffix). Required. */
  baseUrl: string;
  /** Public API key; required for signed endpoints. */
  apiKey?: string | undefined;
  /** API secret used to sign. Prefer {@link FuturesClientOptions.signer} in browsers. */
  apiSecret?: string | undefined;
  /** Signs elsewhere: receives the payload, returns the hex HMAC-SHA256. The secret never enters the process. */
  signer?: Signer | undefined;
  /** Default `subAccountId` for every call that accepts one. */
  subAccountId?: string | undefined;
  /**
   * Deadline of each attempt in milliseconds (fleet lane, signing, headers and the whole body together): an
   * integer from 1 to 2147483647, else the constructor throws `ConfigurationError`.
   * @default 10000
   */
  timeoutMs?: number | undefined;
  /**
   * Retry policy, or `false` to never retry.
   * @default { limit: 4, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60000 }
   */
  retry?: RetryOptions | false | undefined;
  /**
   * Client-side pacing per rate-limit bucket (orders 300/min, batch 100/min, close 300/min, default 1000/min).
   * `false` disables pacing (a 429's Retry-After still pauses the bucket).
   * @default true
   */
  rateLimit?: boolean | undefined;
  /**
   * The `fetch` to use (e.g. the simulator's `ex.fetch`).
   * @default globalThis.fetch
   */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * Allow a non-loopback `http:` base URL. Signed requests would travel in clear text: for test rigs only.
   * @default false
   */
  allowInsecureHttp?: boolean | undefined;
  /**
   * Allow `apiSecret` in a browser, where any script on the page could read it. Use `signer` instead.
   * @default false
   */
  dangerouslyAllowBrowser?: boolean | undefined;
  /**
   * WebSocket constructor for streams.
   * @default globalThis.WebSocket
   */
  WebSocket?: WebSocketConstructor | undefined;
  /** Receives debug/info/warn/error lines; never a secret, signature, JWT or full API key. */
  logger?: Logger | undefined;
  /**
   * Time source for timestamps, backoff and pacing. Inject a fake one in tests.
   * @default the system clock
   */
  clock?: Clock | undefined;
  /**
   * Makes this client one member of a fleet of clients on the same API key (in this process or others): it
   * signs only timestamps of its own lane and counts its requests in the fleet's shared budget, so members never
   * collide on a signature and together earn no server 429. Build one with `staticFleet({ index, size })` or
   * `createRedisFleet()` (`futures-sdk/redis`); one fleet object per client. Needs `rateLimit` on. Without it
   * the client paces itself alone.
   */
  fleet?: Fleet | undefined;
}

/**
 * The futures API client: one resource per spec section (`orders`, `futures`, `account`, `market`).
 *
 * One client per API key per process, or one `fleet` member per client: timestamps are strictly increasing per
 * client, so no two requests of a client share a signature; two clients (or processes) on one key without a
 * fleet can collide in the server's 60 s replay cache and together overrun its rate limits.
 *
 * @example
 * ```ts
 * import { FuturesClient } from 'futures-sdk';
 * const client = new FuturesClient({
 *   baseUrl: 'https://api.example.com',
 *   apiKey: process.env.FUTURES_API_KEY,
 *   apiSecret: process.env.FUTURES_API_SECRET,
 * });
 * const { positions } = await client.account.positions();
 * ```
 */
export class FuturesClient extends BaseClient {
  /** Trading: create, batch, list, get, cancel, cancel-all, replace, close, open orders, trades, history. */
  readonly orders: OrdersResource;
  /** Futures configuration: leverage, margin type, close-and-switch, position mode. */
  readonly futures: FuturesResource;
  /** Account: balance, positions, exposure, transfers, activities, PnL history, spot balances. */
  readonly account: AccountResource;
  /** Public market data and platform status. */
  readonly market: MarketResource;

  constructor(options: FuturesClientOptions) {
    super(options);
    this.orders = new OrdersResource(this);
    this.futures = new FuturesResource(this);
    this.account = new AccountResource(this);
    this.market = new MarketResource(this);
  }

  /**
   * Opens the WebSocket account channel (JWT only; API keys cannot use it). See {@link AccountStream}.
   *
   * @throws {ConfigurationError} bad url or token, or no WebSocket constructor available.
   * @example
   * ```ts
   * const stream = client.stream({ url: 'wss://api.example.com/v2/ws/account', token: jwt, symbols: ['BTCUSDT'] });
   * stream.on('position_update', (p) => console.log(p.symbol, p.quantity));
   * await stream.close();
   * ```
   */
  stream(options: AccountStreamOptions): AccountStream {
    const WebSocketImpl = options.WebSocket ?? this.options.WebSocket;
    return new AccountStream(
      {
        ...options,
        clock: options.clock ?? this.ctx.transport.config.clock,
        ...(WebSocketImpl === undefined ? {} : { WebSocket: WebSocketImpl }),
        ...(options.logger === undefined && this.ctx.transport.config.logger !== undefined
          ? { logger: this.ctx.transport.config.logger }
          : {}),
      },
      this.ctx.transport.redactor,
    );
  }

  /**
   * Polls positions, taker trades and this client's working orders, and reports changes and maker fills.
   * Starts polling by itself (the first poll on a 0 ms timer, then `intervalMs` after each poll) unless
   * `autoStart: false`. Shares this client's rate-limit buckets at the lowest priority. See {@link AccountWatcher}.
   *
   * @throws {ConfigurationError} `intervalMs` is not a positive number.
   * @example
   * ```ts
   * const watcher = client.watch({ symbols: ['BTCUSDT'] });
   * watcher.on('maker_fill', (f) => console.log(f.symbol, f.quantity));
   * watcher.stop();
   * ```
   */
  watch(options: AccountWatcherOptions = {}): AccountWatcher {
    return new AccountWatcher(this.ctx, options);
  }
}
