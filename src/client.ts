import { BaseClient } from './base-client.ts';
import { AccountStream, type AccountStreamOptions } from './events/stream.ts';
import { AccountWatcher, type AccountWatcherOptions } from './events/watcher.ts';
import type { WebSocketConstructor } from './events/web-socket.ts';
import { createMarketFeed, type MarketFeed, type MarketFeedOptions } from './market-feed/market-feed.ts';
import type { FuturesClientOptions } from './options.ts';
import { AccountResource } from './resources/account.ts';
import { FuturesResource } from './resources/futures.ts';
import { MarketResource } from './resources/market.ts';
import { OrdersResource } from './resources/orders.ts';

export type { FuturesClientOptions, WebSocketConstructor };

/**
 * The futures API client: one resource per spec section (`orders`, `futures`, `account`, `market`). One client per
 * API key per process, or one `fleet` member per client: two clients on one key without a fleet can sign the same
 * timestamp (the server's 60 s replay cache refuses it) and together overrun the rate limits.
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
  readonly orders: OrdersResource = new OrdersResource(this);
  /** Futures configuration: leverage, margin type, close-and-switch, position mode. */
  readonly futures: FuturesResource = new FuturesResource(this);
  /** Account: balance, positions, exposure, transfers, activities, PnL history, spot balances. */
  readonly account: AccountResource = new AccountResource(this);
  /** Public market data and platform status. */
  readonly market: MarketResource = new MarketResource(this);

  // Declared: BaseClient's constructor is @internal, this one is public.
  constructor(options: FuturesClientOptions) {
    super(options);
  }

  /**
   * Opens the WebSocket account channel (JWT only; API keys cannot use it). See {@link AccountStream}.
   * @throws {ConfigurationError} bad url or token, or no WebSocket constructor available.
   * @example
   * ```ts
   * const stream = client.stream({ url: 'wss://api.example.com/v2/ws/account', token: jwt, symbols: ['BTCUSDT'] });
   * stream.on('position_update', (p) => console.log(p.symbol, p.quantity));
   * await stream.close();
   * ```
   */
  stream(options: AccountStreamOptions): AccountStream {
    const { config } = this.ctx.transport;
    return new AccountStream(
      {
        ...options,
        clock: options.clock ?? config.clock,
        WebSocket: options.WebSocket ?? this.options.WebSocket,
        logger: options.logger === undefined ? config.logger : options.logger,
      },
      this.ctx.redactor,
    );
  }

  /**
   * Polls positions, taker trades and working orders, and reports changes and maker fills: from a 0 ms timer, then
   * `intervalMs` after each poll, unless `autoStart: false`; at the lowest priority. See {@link AccountWatcher}.
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

  /**
   * Live market data for a page's widgets, shared per (channel, symbol, interval): from `stream`'s firehose when
   * given, else polled every `intervalMs` at background priority. See `createMarketFeed`.
   * @throws {ConfigurationError} `intervalMs` not positive, `klinesLimit` below 1.
   * @example
   * ```ts
   * const feed = client.marketFeed({ stream: client.stream({ url, token }) });
   * feed.depth('BTCUSDT', (book) => console.log(book.bids[0], book.asks[0]));
   * ```
   */
  marketFeed(options: MarketFeedOptions = {}): MarketFeed {
    return createMarketFeed(this, options);
  }
}
