import { decSub, isDecimalString } from '../_internal/decimal.ts';
import {
  type AccountChannelSocket,
  type AccountEvent,
  type ExchangeEndpoint,
  type ExchangeHandler,
  type ListeningExchange,
  type ListenOptions,
  MSW_HANDLERS_FACTORY,
  type RequestMeta,
  type SimRequest,
  type SimResponse,
  SimulatedNetworkError,
} from './_types.ts';
import { attachAccountChannel } from './account-channel.ts';
import { ApiKeys, type CreateApiKeyOptions } from './engine/auth.ts';
import { VirtualClock } from './engine/clock.ts';
import { Engine } from './engine/engine.ts';
import { type FaultSpec, Faults } from './engine/faults.ts';
import { iso, newErrorId, randomHex } from './engine/ids.ts';
import { JwtIssuer } from './engine/jwt.ts';
import { RateLimits } from './engine/rate-limits.ts';
import type { MarginType, OrderStatus, PositionMode } from './engine/state.ts';
import { MarketSimulator } from './market.ts';
import { transferWire } from './routes/account.ts';
import { route } from './routes/router.ts';

/**
 * Options of {@link createExchange}.
 *
 * @example
 * ```ts
 * const t0 = Date.now();
 * const ex = createExchange({ seed: 7, now: () => t0, volatility: 0, syncIntervalMs: 1000 });
 * ```
 */
export interface ExchangeOptions {
  /** Seed of the market simulation (mark-price walks, depth, trades): same seed, same market. */
  seed: number;
  /**
   * Base of the server clock, ms epoch. Server time is `now() + Σ advance(ms)`. Pass a constant function to
   * freeze time except for `advance()`.
   * @default Date.now
   */
  now?: (() => number) | undefined;
  /** Trust the last hop of `X-Forwarded-For` as the client IP (for IP whitelists behind a proxy). */
  trustProxy?: boolean | undefined;
  /**
   * The socket address `ex.fetch` reports.
   * @default '127.0.0.1'
   */
  clientIp?: string | undefined;
  /**
   * Default max order notional (USDT) of every account.
   * @default '10000000'
   */
  maxOrderNotional?: string | undefined;
  /**
   * Period of the position-sync worker (server time).
   * @default 5000
   */
  syncIntervalMs?: number | undefined;
  /**
   * The exchange's URL, for `FuturesClient`'s `baseUrl` and the MSW handlers.
   * @default 'https://futures.sim.test'
   */
  baseUrl?: string | undefined;
  /**
   * Relative standard deviation of each 1 s mark-price step; `0` freezes marks (they move only by
   * `setMarkPrice`).
   * @default 0.0001
   */
  volatility?: number | undefined;
  /**
   * Server time between the venue accepting a new order and the backend recording that ack. Meanwhile GET
   * /v2/orders(/:id), `full_snapshot` and `ex.account().orders` show the order as `PENDING_NEW`; the POST
   * response, the batch result and `order_new` already say `NEW` (spec), and the order works on the venue. When
   * the ack is recorded the row flips to `NEW` with an `order_update` push. `0` records it at once.
   * @default 0
   */
  venueAckDelayMs?: number | undefined;
}

/**
 * Options of `ex.createAccount`.
 *
 * @example
 * ```ts
 * ex.createAccount({ balances: { USDT: '10000' }, spotBalances: { BTC: '0.5' }, positionMode: 'HEDGE' });
 * ```
 */
export interface CreateAccountOptions {
  /** Futures wallet of the primary sub-account, e.g. `{ USDT: '10000' }`. */
  balances?: Record<string, string> | undefined;
  /** Spot wallet (GET /v2/accounts/:id/balances). */
  spotBalances?: Record<string, string> | undefined;
  /**
   * `'raw'` makes GET /v2/accounts/:id/balances return the upstream object instead of the array.
   * @default 'array'
   */
  spotShape?: 'array' | 'raw' | undefined;
  /** @default 'ONE_WAY' */
  positionMode?: PositionMode | undefined;
  /** `false` creates an account without any sub-account (signed calls then answer 400 `No sub account found`). */
  subAccount?: boolean | undefined;
}

/**
 * One request as the exchange received it, for wire assertions. Test-only: it holds the raw key and signature.
 *
 * @example
 * ```ts
 * const posts = ex.requests.filter((r) => r.method === 'POST' && r.path === '/v2/orders');
 * expect(posts[0]!.body).toMatchObject({ clientOrderId: expect.any(String) });
 * ```
 */
export interface RequestLogEntry {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  status: number;
  /** Server time of arrival (ms epoch). */
  time: number;
}

/**
 * A read-only snapshot of an account for assertions (`ex.account(id)`).
 *
 * @example
 * ```ts
 * expect(ex.account(accountId).venuePositions).toEqual([expect.objectContaining({ quantity: '0.01' })]);
 * ```
 */
export interface AccountView {
  accountId: string;
  primarySubAccountId: string | undefined;
  positionMode: PositionMode;
  subAccounts: {
    subAccountId: string;
    marginType: MarginType;
    leverage: Record<string, number>;
    balances: Record<string, string>;
    availableBalance: string;
  }[];
  /** Wallet of the primary sub-account. */
  balances: Record<string, string>;
  /** Open positions as the venue holds them (the database may lag until the next sync tick). */
  venuePositions: { id: string; symbol: string; positionSide: string; quantity: string; avgEntryPrice: string }[];
  /** Every position as GET /v2/positions would serialise it (database view). */
  positions: Record<string, unknown>[];
  /** Every order, database view, newest last. */
  orders: Record<string, unknown>[];
  /** Venue status of every order by id. */
  venueOrderStatus: Record<string, OrderStatus>;
  /** Taker trades (myTrades rows). */
  trades: Record<string, unknown>[];
  transfers: Record<string, unknown>[];
}

/**
 * The simulated exchange. Build it with {@link createExchange}.
 *
 * @example
 * ```ts
 * const ex = createExchange({ seed: 1 });
 * const { accountId } = ex.createAccount({ balances: { USDT: '10000' } });
 * const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
 * const client = new FuturesClient({ baseUrl: ex.baseUrl, apiKey, apiSecret, fetch: ex.fetch });
 * ```
 */
export class Exchange implements ExchangeEndpoint {
  /** The exchange's URL (https, so `FuturesClient` accepts it without `allowInsecureHttp`). */
  readonly baseUrl: string;
  /** Fault injection: transport faults, failing cancels, failing margin switches. */
  readonly faults = new Faults();
  /** Every request received, oldest first. */
  readonly requests: RequestLogEntry[] = [];
  /** The market simulation (mark walks, depth, trades, klines…). */
  readonly market: MarketSimulator;

  private readonly clock: VirtualClock;
  private readonly engine: Engine;
  private readonly keys = new ApiKeys();
  private readonly limits = new RateLimits();
  private readonly jwt = new JwtIssuer(globalThis.crypto.getRandomValues(new Uint8Array(32)));
  private readonly trustProxy: boolean;
  private readonly clientIp: string;

  constructor(options: ExchangeOptions) {
    if (typeof options !== 'object' || options === null || !Number.isFinite(options.seed)) {
      throw new TypeError('createExchange needs { seed: number }');
    }
    const syncIntervalMs = options.syncIntervalMs ?? 5_000;
    if (!Number.isFinite(syncIntervalMs) || syncIntervalMs <= 0) throw new RangeError('syncIntervalMs must be > 0');
    const venueAckDelayMs = options.venueAckDelayMs ?? 0;
    if (!Number.isFinite(venueAckDelayMs) || venueAckDelayMs < 0) throw new RangeError('venueAckDelayMs must be >= 0');
    const maxOrderNotional = options.maxOrderNotional ?? '10000000';
    if (!isDecimalString(maxOrderNotional)) throw new TypeError('maxOrderNotional must be a decimal string');
    this.baseUrl = (options.baseUrl ?? 'https://futures.sim.test').replace(/\/+$/, '');
    this.trustProxy = options.trustProxy ?? false;
    this.clientIp = options.clientIp ?? '127.0.0.1';
    this.clock = new VirtualClock(options.now ?? Date.now);
    this.market = new MarketSimulator({
      seed: options.seed,
      now: () => this.clock.now(),
      ...(options.volatility !== undefined ? { volatility: options.volatility } : {}),
    });
    this.engine = new Engine(
      this.market,
      this.clock,
      { syncIntervalMs, maxOrderNotional, venueAckDelayMs },
      this.faults,
    );
  }

  // ── Transports ─────────────────────────────────────────────────────────────────────────────────────────

  /**
   * The fetch-like entry point every transport calls. A connection fault rejects with `SimulatedNetworkError`.
   */
  readonly handler: ExchangeHandler = (request, meta) => this.handle(request, meta);

  /**
   * A `fetch` that talks to the exchange in-process (no network). Simulated resets and refusals reject with a
   * `TypeError` whose `cause.code` is `ECONNRESET` / `ECONNREFUSED`, like Node's fetch.
   */
  readonly fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    try {
      return await this.handler(request, { remoteAddress: this.clientIp });
    } catch (error) {
      if (error instanceof SimulatedNetworkError) {
        throw new TypeError('fetch failed', { cause: Object.assign(new Error(error.message), { code: error.code }) });
      }
      throw error;
    }
  };

  /**
   * MSW handlers (HTTP + the account WebSocket) for `setupServer` / `setupWorker`, once `futures-sdk/testing/msw`
   * has been loaded (`import 'futures-sdk/testing/msw'`); the same as `handlers(ex)` from that entry, which is the
   * typed form. Typed loosely (`never[]`, which spreads into `setupServer(...)`) so that this entry never refers
   * to msw's types.
   *
   * @throws {Error} when `futures-sdk/testing/msw` has not been loaded.
   */
  handlers(): never[] {
    const factory = (globalThis as { [MSW_HANDLERS_FACTORY]?: (exchange: ExchangeEndpoint) => never[] })[
      MSW_HANDLERS_FACTORY
    ];
    if (!factory) {
      throw new Error(
        "futures-sdk/testing: ex.handlers() needs the MSW adapter: import { handlers } from 'futures-sdk/testing/msw' " +
          "and call handlers(ex), or add import 'futures-sdk/testing/msw' once (npm install --save-dev msw).",
      );
    }
    return factory(this);
  }

  /**
   * A real HTTP + WebSocket server on 127.0.0.1 (Node.js, Bun, Deno; needs the `ws` peer dependency):
   * `{ url, wsUrl, close() }`. `cors: true` lets a page on another origin call it. Loads
   * `futures-sdk/testing/server` on first use; in a browser or worker bundle it rejects.
   */
  async listen(options: ListenOptions = {}): Promise<ListeningExchange> {
    const { listen } = await import('futures-sdk/testing/server');
    return listen(this, options);
  }

  /**
   * Runs the account channel on a WebSocket that a transport of yours accepted (Deno.serve, Bun.serve, a
   * Worker's `WebSocketPair`…): checks the JWT in `url`'s `token`, then pushes the snapshot, account events and
   * the market firehose until the socket closes. The MSW handlers and the loopback server use it.
   */
  openAccountChannel(socket: AccountChannelSocket, url: URL): void {
    attachAccountChannel(socket, url, this);
  }

  private async handle(request: Request, meta?: RequestMeta): Promise<Response> {
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const fault = this.faults.take(method, url.pathname);
    if (fault?.refused) throw new SimulatedNetworkError('ECONNREFUSED');
    if (fault?.delayMs) await delay(fault.delayMs, request.signal);
    this.engine.tick();
    const now = this.clock.now();
    const text = method === 'GET' || method === 'HEAD' ? '' : await request.text();
    let body: unknown;
    let response: SimResponse;
    let parsed = true;
    try {
      body = text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = false;
    }
    const remoteAddress = this.remoteAddress(request, meta);
    if (fault?.status !== undefined) {
      response = {
        status: fault.status,
        body: fault.body ?? { ok: false, error: `Simulated fault: HTTP ${fault.status}` },
        headers: fault.headers ?? {},
      };
    } else if (!parsed) {
      response = { status: 400, body: { ok: false, error: 'Request body is not valid JSON' } };
    } else {
      let path = url.pathname;
      try {
        path = decodeURIComponent(url.pathname);
      } catch {
        // Keep the raw path; routes match the raw one anyway.
      }
      const simRequest: SimRequest = {
        method,
        path,
        rawPath: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body,
        remoteAddress,
      };
      response = route(
        { engine: this.engine, keys: this.keys, limits: this.limits, market: this.market, now: () => this.clock.now() },
        simRequest,
      );
      // Work a request triggered (e.g. a fill moving a walk) is caught up before answering.
      this.engine.processMarks();
      if (fault?.headers) response = { ...response, headers: { ...response.headers, ...fault.headers } };
    }
    this.requests.push({
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(request.headers),
      body: parsed ? body : text,
      status: response.status,
      time: now,
    });
    if (fault?.reset) throw new SimulatedNetworkError('ECONNRESET');
    return this.toResponse(response, fault);
  }

  private toResponse(response: SimResponse, fault: FaultSpec | undefined): Response {
    let payload = response.body;
    if (
      response.status >= 400 &&
      typeof payload === 'object' &&
      payload !== null &&
      (payload as { ok?: unknown }).ok === false &&
      (payload as { errorId?: unknown }).errorId === undefined
    ) {
      payload = { ...(payload as object), errorId: newErrorId() };
    }
    let text = fault?.rawBody ?? JSON.stringify(payload);
    if (fault?.truncate) text = text.slice(0, Math.floor(text.length / 2));
    const headers = new Headers({
      'Content-Type': 'application/json; charset=utf-8',
      Date: new Date(this.clock.now()).toUTCString(),
    });
    for (const [name, value] of Object.entries(response.headers ?? {})) headers.set(name, value);
    return new Response(response.status === 204 ? null : text, { status: response.status, headers });
  }

  private remoteAddress(request: Request, meta: RequestMeta | undefined): string {
    if (this.trustProxy) {
      const forwarded = request.headers.get('x-forwarded-for');
      const hops =
        forwarded
          ?.split(',')
          .map((hop) => hop.trim())
          .filter(Boolean) ?? [];
      const last = hops[hops.length - 1];
      if (last) return last;
    }
    return meta?.remoteAddress ?? this.clientIp;
  }

  // ── Accounts and keys ──────────────────────────────────────────────────────────────────────────────────

  /**
   * Creates an account with a primary sub-account funded with `balances`. With `subAccount: false` there is
   * none and `subAccountId` is `''`.
   */
  createAccount(options: CreateAccountOptions = {}): { accountId: string; subAccountId: string } {
    const { accountId, subAccountId } = this.engine.createAccount(options);
    return { accountId, subAccountId: subAccountId ?? '' };
  }

  /** Adds a sub-account (CROSSED; its futures wallet holds `balances`, default empty). */
  createSubAccount(accountId: string, options: { balances?: Record<string, string> } = {}): { subAccountId: string } {
    return this.engine.createSubAccount(accountId, options.balances);
  }

  /** Creates an API key; the secret is returned once, as the UI would. */
  createApiKey(accountId: string, options: CreateApiKeyOptions = {}): { apiKey: string; apiSecret: string } {
    this.engine.account(accountId);
    return this.keys.create(accountId, options);
  }

  /** Overrides the max order notional (USDT) of one account, as an admin would; `undefined` restores the default. */
  setMaxOrderNotional(accountId: string, value: string | undefined): void {
    this.engine.setMaxOrderNotional(accountId, value);
  }

  /** Credits the primary futures wallet: a transfer that is PENDING, then SUCCESS after 2 s of server time. */
  deposit(accountId: string, asset: string, amount: string, options: { fail?: boolean } = {}): Record<string, unknown> {
    return transferWire(this.engine.transfer(accountId, 'deposit', asset, amount, options.fail ?? false));
  }

  /** Debits the primary futures wallet at once; the transfer is PENDING, then SUCCESS (or FAILED and refunded). */
  withdraw(
    accountId: string,
    asset: string,
    amount: string,
    options: { fail?: boolean } = {},
  ): Record<string, unknown> {
    return transferWire(this.engine.transfer(accountId, 'withdraw', asset, amount, options.fail ?? false));
  }

  // ── Market and time ────────────────────────────────────────────────────────────────────────────────────

  /** Sets a mark price; resting orders that it crosses fill at once on the venue (maker). */
  setMarkPrice(symbol: string, price: string): void {
    this.engine.tick();
    this.market.setMarkPrice(symbol, price);
    this.engine.processMarks();
  }

  /** The current mark price of `symbol` (decimal string), after advancing the simulation to `now()`. */
  markPrice(symbol: string): string {
    this.engine.tick();
    return this.market.markPrice(symbol);
  }

  /** Simulated server time (ms epoch). */
  now(): number {
    return this.clock.now();
  }

  /**
   * Moves server time forward and runs everything that became due (walks, triggers, funding, venue acks, sync
   * ticks, transfers).
   */
  advance(ms: number): void {
    this.clock.advance(ms);
    this.engine.tick();
  }

  /** Runs the position-sync worker now, out of schedule. */
  sync(): void {
    this.engine.tick();
    this.engine.sync();
  }

  /**
   * A maker fill of a resting LIMIT order (or a triggered STOP/TAKE_PROFIT) at its price: `qty` (default the
   * remaining quantity). The venue position changes at once; GET /v2/positions, GET /v2/orders and the
   * `position_update` push follow at the next sync tick. No myTrades row and no order_update, as the spec says.
   */
  fillOrder(orderId: string, qty?: string): void {
    this.engine.tick();
    const order = this.engine.findOrder(orderId);
    if (!order) throw new TypeError(`Unknown orderId ${JSON.stringify(orderId)}`);
    if (qty !== undefined && !isDecimalString(qty)) throw new TypeError('qty must be a decimal string');
    this.engine.makerFill(order, qty ?? decSub(order.quantity, order.venue.executedQty));
  }

  // ── JWT and the account channel ────────────────────────────────────────────────────────────────────────

  /** A UI-session JWT (HS256) for the account channel. */
  issueJwt(accountId: string, options: { expiresInMs?: number } = {}): string {
    const account = this.engine.account(accountId);
    const now = this.clock.now();
    return this.jwt.issue({
      sub: accountId,
      rev: account.jwtRevision,
      iat: Math.floor(now / 1000),
      exp: Math.floor((now + (options.expiresInMs ?? 3_600_000)) / 1000),
      jti: randomHex(8),
    });
  }

  /** Revokes every JWT issued so far for the account (bumps its revision). */
  revokeJwts(accountId: string): void {
    this.engine.revokeJwts(accountId);
  }

  /** The account a channel JWT belongs to (HS256, current revision, not expired), or undefined. */
  verifyJwt(token: string): { accountId: string } | undefined {
    const claims = this.jwt.verify(token);
    if (!claims) return undefined;
    const account = this.engine.findAccount(claims.sub);
    if (!account || claims.rev !== account.jwtRevision) return undefined;
    if (claims.exp * 1000 <= this.clock.now()) return undefined;
    return { accountId: account.id };
  }

  /** Subscribes to an account's events (`order_new`, `order_canceled`, `order_update`, `position_update`). */
  subscribeAccount(accountId: string, listener: (event: AccountEvent) => void): () => void {
    return this.engine.subscribe(accountId, listener);
  }

  /** The data of a `full_snapshot` push for the account: open positions and orders, balances, server time. */
  snapshot(accountId: string): unknown {
    this.engine.tick();
    const account = this.engine.account(accountId);
    const sub = account.primarySubAccountId ? account.subAccounts.get(account.primarySubAccountId) : undefined;
    return {
      positions: this.engine.positions(account, 'OPEN').map((p) => this.engine.serializePosition(p)),
      openOrders: account.orders
        .filter((o) => o.db.status === 'NEW' || o.db.status === 'PARTIALLY_FILLED' || o.db.status === 'PENDING_NEW')
        .map((o) => this.engine.serializeOrder(o)),
      balances: sub ? this.engine.balanceAssets(sub) : [],
      time: iso(this.clock.now()),
    };
  }

  /** Every active symbol, in the order the account channel's firehose cycles through them. */
  activeSymbols(): readonly string[] {
    return this.market.symbols;
  }

  /** The `data` of one firehose message for `symbol` on `channel`. */
  marketPayload(symbol: string, channel: 'depth' | 'trades' | 'ticker' | 'kline'): unknown {
    return this.market.marketPayload(symbol, channel);
  }

  // ── Assertions ─────────────────────────────────────────────────────────────────────────────────────────

  /** A deep-copied view of an account for assertions. */
  account(accountId: string): AccountView {
    this.engine.tick();
    const account = this.engine.account(accountId);
    const primary = account.primarySubAccountId ? account.subAccounts.get(account.primarySubAccountId) : undefined;
    return {
      accountId: account.id,
      primarySubAccountId: account.primarySubAccountId,
      positionMode: account.positionMode,
      subAccounts: [...account.subAccounts.values()].map((sub) => ({
        subAccountId: sub.id,
        marginType: sub.marginType,
        leverage: Object.fromEntries(sub.leverage),
        balances: Object.fromEntries(sub.wallet),
        availableBalance: this.engine.available(sub),
      })),
      balances: primary ? Object.fromEntries(primary.wallet) : {},
      venuePositions: account.positions
        .filter((p) => p.venue.status === 'OPEN')
        .map((p) => ({
          id: p.id,
          symbol: p.symbol,
          positionSide: p.positionSide,
          quantity: p.venue.quantity,
          avgEntryPrice: p.venue.avgEntryPrice,
        })),
      positions: account.positions.filter((p) => p.db).map((p) => this.engine.serializePosition(p)),
      orders: account.orders.map((o) => this.engine.serializeOrder(o)),
      venueOrderStatus: Object.fromEntries(account.orders.map((o) => [o.id, o.venue.status])),
      trades: account.trades.map(({ subAccountId: _sub, ...t }) => ({ ...t })),
      transfers: account.transfers.map(transferWire),
    };
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Creates a simulated exchange that follows the spec: signatures, drift and replay checks, permissions, IP
 * whitelists, rate limits, orders and fills, positions, the guards, close-and-switch, transfers, and the
 * account channel. Deterministic for a given `seed` and clock.
 *
 * @example
 * ```ts
 * import { createExchange } from 'futures-sdk/testing';
 * import { FuturesClient } from 'futures-sdk';
 *
 * const ex = createExchange({ seed: 1 });
 * const { accountId } = ex.createAccount({ balances: { USDT: '10000' } });
 * const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
 * const client = new FuturesClient({ baseUrl: ex.baseUrl, apiKey, apiSecret, fetch: ex.fetch });
 * ex.setMarkPrice('BTCUSDT', '65000');
 * const { order } = await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
 * ```
 */
export function createExchange(options: ExchangeOptions): Exchange {
  return new Exchange(options);
}
