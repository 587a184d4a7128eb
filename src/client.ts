import { type Clock, systemClock } from './_internal/clock.ts';
import type { ClientContext } from './_internal/context.ts';
import { isBrowserLike, isLoopbackHost } from './_internal/env.ts';
import { Redactor } from './_internal/redact.ts';
import {
  isValidTimeoutMs,
  type Logger,
  MAX_TIMEOUT_MS,
  type RetryOptions,
  type Signer,
  Transport,
} from './_internal/transport.ts';
import { ConfigurationError } from './errors/configuration-error.ts';
import { CallJournal } from './events/journal.ts';
import { systemScheduler } from './events/scheduler.ts';
import { AccountStream, type AccountStreamOptions } from './events/stream.ts';
import { AccountWatcher, type AccountWatcherOptions } from './events/watcher.ts';
import type { WebSocketConstructor } from './events/web-socket.ts';
import type { Fleet } from './fleet/types.ts';
import { AccountResource } from './resources/account.ts';
import { FuturesResource } from './resources/futures.ts';
import { MarketResource } from './resources/market.ts';
import { OrdersResource } from './resources/orders.ts';
import { hmacSha256Hex } from './signer.ts';

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

/** Fleet objects already serving a client: a second client on the same lane would sign the same timestamps. */
const fleetsInUse = new WeakSet<Fleet>();

function resolveFleet(options: FuturesClientOptions): Fleet | undefined {
  const { fleet } = options;
  if (fleet === undefined) return undefined;
  const budget = (fleet as Partial<Fleet> | null)?.budget;
  if (
    typeof fleet !== 'object' ||
    fleet === null ||
    typeof fleet.lane !== 'function' ||
    typeof fleet.close !== 'function' ||
    typeof budget !== 'object' ||
    budget === null ||
    typeof budget.tryTake !== 'function' ||
    typeof budget.settle !== 'function' ||
    typeof budget.pause !== 'function'
  ) {
    throw new ConfigurationError('fleet must be a Fleet: use staticFleet() or createRedisFleet()');
  }
  if (options.rateLimit === false) {
    throw new ConfigurationError('fleet needs rateLimit (a member must count its requests in the fleet budget)');
  }
  if (fleetsInUse.has(fleet)) {
    throw new ConfigurationError(
      'This fleet already serves another FuturesClient: give each client its own fleet member (own lane)',
    );
  }
  return fleet;
}

/**
 * A plain copy of the options (and of `retry`), read once: a getter that throws or a revoked Proxy ends as a
 * `ConfigurationError`, like every other bad option, and later reads cannot change what was validated.
 */
function readOptions(options: FuturesClientOptions): FuturesClientOptions {
  try {
    const copy = { ...options };
    if (typeof copy.retry === 'object' && copy.retry !== null) copy.retry = { ...copy.retry };
    return copy;
  } catch {
    throw new ConfigurationError('FuturesClient options could not be read (a getter or Proxy threw)');
  }
}

function resolveBaseUrl(options: FuturesClientOptions): string {
  if (typeof options.baseUrl !== 'string' || options.baseUrl === '') {
    throw new ConfigurationError('baseUrl is required, e.g. "https://api.example.com"');
  }
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    // Never echo a password of a `user:password@` part.
    const shown = options.baseUrl.replace(/\/\/[^/?#]*@/, '//***@');
    throw new ConfigurationError(`baseUrl is not a valid URL: ${JSON.stringify(shown)}`);
  }
  if (url.username || url.password) {
    // The SDK would silently drop them (only origin and path are used): say so instead of sending no credentials.
    throw new ConfigurationError('baseUrl must not contain credentials (user:password@); pass apiKey and apiSecret');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigurationError(`baseUrl must use https: (got ${url.protocol})`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !options.allowInsecureHttp) {
    throw new ConfigurationError(
      `baseUrl must use https: (signed requests carry your API key). http: is accepted only for loopback hosts, ` +
        `or with allowInsecureHttp: true. Got ${url.origin}`,
    );
  }
  if (url.search || url.hash) throw new ConfigurationError('baseUrl must not have a query string or a fragment');
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/v2$/.test(path)) {
    throw new ConfigurationError(
      `baseUrl must not end with /v2: the SDK adds it. Use ${url.origin}${path.slice(0, -3)}`,
    );
  }
  return `${url.origin}${path}`;
}

function resolveSigner(options: FuturesClientOptions, redactor: Redactor): Signer | undefined {
  const { apiKey, apiSecret, signer } = options;
  if (apiSecret !== undefined && signer !== undefined) {
    throw new ConfigurationError('Pass either apiSecret or signer, not both');
  }
  if ((apiSecret !== undefined || signer !== undefined) && !apiKey) {
    throw new ConfigurationError('apiKey is required with apiSecret or signer');
  }
  if (apiSecret !== undefined) {
    if (typeof apiSecret !== 'string' || apiSecret === '')
      throw new ConfigurationError('apiSecret must be a non-empty string');
    if (isBrowserLike() && !options.dangerouslyAllowBrowser) {
      throw new ConfigurationError(
        'apiSecret in a browser exposes it to every script on the page. Use the signer option to sign elsewhere, ' +
          'or set dangerouslyAllowBrowser: true if you accept the risk.',
      );
    }
    redactor.addSecret(apiSecret);
    return (payload) => hmacSha256Hex(apiSecret, payload);
  }
  if (signer !== undefined && typeof signer !== 'function') throw new ConfigurationError('signer must be a function');
  return signer;
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
export class FuturesClient {
  /** Trading: create, batch, list, get, cancel, cancel-all, replace, close, open orders, trades, history. */
  readonly orders: OrdersResource;
  /** Futures configuration: leverage, margin type, close-and-switch, position mode. */
  readonly futures: FuturesResource;
  /** Account: balance, positions, exposure, transfers, activities, PnL history, spot balances. */
  readonly account: AccountResource;
  /** Public market data and platform status. */
  readonly market: MarketResource;

  /** @internal */
  protected readonly ctx: ClientContext;
  /** @internal */
  protected readonly options: Readonly<FuturesClientOptions>;

  constructor(given: FuturesClientOptions) {
    if (typeof given !== 'object' || given === null) {
      throw new ConfigurationError('FuturesClient needs an options object with at least baseUrl');
    }
    const options = readOptions(given);
    const baseUrl = resolveBaseUrl(options);
    // This client's credentials, scrubbed from its errors, log lines and events; released with the client.
    const redactor = new Redactor();
    const sign = resolveSigner(options, redactor);
    if (options.apiKey !== undefined) {
      if (typeof options.apiKey !== 'string' || options.apiKey === '')
        throw new ConfigurationError('apiKey must be a non-empty string');
      // It travels as a header: CR/LF would inject headers, and fetch refuses other controls, spaces at the ends
      // and non-Latin-1 text only at request time, with the key in its message and as a retryable network error.
      if (!/^[\x21-\x7e]+$/.test(options.apiKey)) {
        throw new ConfigurationError(
          `apiKey must be printable ASCII without spaces or line breaks (got ${options.apiKey.length} characters)`,
        );
      }
      redactor.addApiKey(options.apiKey);
    }
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') throw new ConfigurationError('No fetch available: pass the fetch option');
    const timeoutMs = options.timeoutMs ?? 10_000;
    if (!isValidTimeoutMs(timeoutMs)) {
      throw new ConfigurationError(
        `timeoutMs must be an integer number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (got ${String(timeoutMs)})`,
      );
    }
    const retry =
      options.retry === false
        ? false
        : {
            limit: options.retry?.limit ?? 4,
            baseDelayMs: options.retry?.baseDelayMs ?? 500,
            maxDelayMs: options.retry?.maxDelayMs ?? 8_000,
            maxRetryAfterMs: options.retry?.maxRetryAfterMs ?? 60_000,
          };
    if (retry && (!Number.isInteger(retry.limit) || retry.limit < 0)) {
      throw new ConfigurationError('retry.limit must be a non-negative integer');
    }
    const fleet = resolveFleet(options);
    this.options = options;
    this.ctx = {
      transport: new Transport({
        baseUrl,
        apiKey: options.apiKey,
        sign,
        timeoutMs,
        retry,
        // Called through a wrapper: browsers throw "Illegal invocation" when fetch runs with a `this` other than
        // the global object, which is what happens when a library calls it as a property of an options bag.
        fetch: (input, init) => fetchImpl(input, init),
        clock: options.clock ?? systemClock,
        rateLimit: options.rateLimit ?? true,
        logger: options.logger,
        fleet,
        redactor,
      }),
      subAccountId: options.subAccountId,
      journal: new CallJournal(options.clock ?? systemClock),
    };
    if (fleet) fleetsInUse.add(fleet);
    this.orders = new OrdersResource(this.ctx);
    this.futures = new FuturesResource(this.ctx);
    this.account = new AccountResource(this.ctx);
    this.market = new MarketResource(this.ctx);
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
    const clock = this.ctx.transport.config.clock;
    // The journal stamps calls with the client's clock; the watcher must read the same one.
    const scheduler = options.scheduler ?? { ...systemScheduler, now: () => clock.now() };
    return new AccountWatcher(this.ctx, { ...options, scheduler });
  }
}
