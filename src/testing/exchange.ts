/**
 * The simulated exchange's public face: the object `createExchange()` returns. It wires the market, the engine,
 * API keys and the request pipeline together and offers the test controls; transports (`ex.fetch`, the MSW
 * handlers, the loopback server) all go through `ex.handler`.
 */

import { decSub, isDecimalString } from '../_internal/decimal.ts';
import {
  type AccountChannelSocket,
  type AccountEvent,
  type ExchangeEndpoint,
  type ExchangeHandler,
  type ListeningExchange,
  type ListenOptions,
  MSW_HANDLERS_FACTORY,
  SimulatedNetworkError,
} from './_types.ts';
import { attachAccountChannel } from './account-channel.ts';
import { accountView, channelSnapshot } from './account-view.ts';
import { createAccount, createSubAccount, revokeJwts, setMaxOrderNotional } from './engine/accounts.ts';
import { VirtualClock } from './engine/clock.ts';
import { createEngine, type Engine } from './engine/engine.ts';
import { randomHex } from './engine/ids.ts';
import { processMarks } from './engine/marks.ts';
import { findOrder, makerFill } from './engine/orders.ts';
import { transfer } from './engine/transfers.ts';
import { sync, tick } from './engine/worker.ts';
import type { AccountView, CreateAccountOptions, ExchangeOptions, RequestLogEntry } from './exchange-types.ts';
import { ApiKeys, type CreateApiKeyOptions } from './http/auth.ts';
import { Faults } from './http/faults.ts';
import { JwtIssuer } from './http/jwt.ts';
import { RateLimits } from './http/rate-limits.ts';
import { RequestPipeline } from './http/request-pipeline.ts';
import { accountEventWire, type SimTransfer, transferWire } from './http/routes/shapes.ts';
import { MarketSimulator } from './market/simulator.ts';
import type { SimMarketChannel } from './market/types.ts';

export type {
  AccountView,
  CreateAccountOptions,
  ExchangeOptions,
  RequestLogEntry,
  SimMakerFill,
} from './exchange-types.ts';

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
  private readonly pipeline: RequestPipeline;
  #jwt: JwtIssuer | undefined;
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
    this.clientIp = options.clientIp ?? '127.0.0.1';
    const shared = options.clock;
    this.clock = new VirtualClock(shared ? () => shared.now() : (options.now ?? Date.now));
    this.market = new MarketSimulator({
      seed: options.seed,
      now: () => this.clock.now(),
      ...(options.volatility !== undefined ? { volatility: options.volatility } : {}),
    });
    this.engine = createEngine(
      this.market,
      this.clock,
      { syncIntervalMs, maxOrderNotional, venueAckDelayMs },
      this.faults,
    );
    this.pipeline = new RequestPipeline({
      engine: this.engine,
      market: this.market,
      clock: this.clock,
      keys: this.keys,
      limits: new RateLimits(),
      faults: this.faults,
      requests: this.requests,
      trustProxy: options.trustProxy ?? false,
      clientIp: this.clientIp,
    });
  }

  // ── Transports ─────────────────────────────────────────────────────────────────────────────────────────

  /**
   * The fetch-like entry point every transport calls. A connection fault rejects with `SimulatedNetworkError`.
   */
  readonly handler: ExchangeHandler = (request, meta) => this.pipeline.handle(request, meta);

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

  // ── Accounts and keys ──────────────────────────────────────────────────────────────────────────────────

  /**
   * Creates an account with a primary sub-account funded with `balances`. With `subAccount: false` there is
   * none and `subAccountId` is `''`.
   */
  createAccount(options: CreateAccountOptions = {}): { accountId: string; subAccountId: string } {
    const { accountId, subAccountId } = createAccount(this.engine, options);
    return { accountId, subAccountId: subAccountId ?? '' };
  }

  /** Adds a sub-account (CROSSED; its futures wallet holds `balances`, default empty). */
  createSubAccount(accountId: string, options: { balances?: Record<string, string> } = {}): { subAccountId: string } {
    return createSubAccount(this.engine, accountId, options.balances);
  }

  /** Creates an API key; the secret is returned once, as the UI would. */
  createApiKey(accountId: string, options: CreateApiKeyOptions = {}): { apiKey: string; apiSecret: string } {
    this.engine.account(accountId);
    return this.keys.create(accountId, options);
  }

  /** Overrides the max order notional (USDT) of one account, as an admin would; `undefined` restores the default. */
  setMaxOrderNotional(accountId: string, value: string | undefined): void {
    setMaxOrderNotional(this.engine, accountId, value);
  }

  /** Credits the primary futures wallet: a transfer that is PENDING, then SUCCESS after 2 s of server time. */
  deposit(accountId: string, asset: string, amount: string, options: { fail?: boolean } = {}): SimTransfer {
    return transferWire(transfer(this.engine, accountId, 'deposit', asset, amount, options.fail ?? false));
  }

  /** Debits the primary futures wallet at once; the transfer is PENDING, then SUCCESS (or FAILED and refunded). */
  withdraw(accountId: string, asset: string, amount: string, options: { fail?: boolean } = {}): SimTransfer {
    return transferWire(transfer(this.engine, accountId, 'withdraw', asset, amount, options.fail ?? false));
  }

  // ── Market and time ────────────────────────────────────────────────────────────────────────────────────

  /** Sets a mark price; resting orders that it crosses fill at once on the venue (maker). */
  setMarkPrice(symbol: string, price: string): void {
    tick(this.engine);
    this.market.setMarkPrice(symbol, price);
    processMarks(this.engine);
  }

  /** The current mark price of `symbol` (decimal string), after advancing the simulation to `now()`. */
  markPrice(symbol: string): string {
    tick(this.engine);
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
    tick(this.engine);
  }

  /** Runs the position-sync worker now, out of schedule. */
  sync(): void {
    tick(this.engine);
    sync(this.engine);
  }

  /**
   * A maker fill of a resting LIMIT order (or a triggered STOP/TAKE_PROFIT) at its price: `qty` (default the
   * remaining quantity). The venue position changes at once; GET /v2/positions, GET /v2/orders and the
   * `position_update` push follow at the next sync tick. No myTrades row and no order_update, as the spec says.
   */
  fillOrder(orderId: string, qty?: string): void {
    tick(this.engine);
    const order = findOrder(this.engine, orderId);
    if (!order) throw new TypeError(`Unknown orderId ${JSON.stringify(orderId)}`);
    if (qty !== undefined && !isDecimalString(qty)) throw new TypeError('qty must be a decimal string');
    makerFill(this.engine, order, qty ?? decSub(order.quantity, order.venue.executedQty));
  }

  // ── JWT and the account channel ────────────────────────────────────────────────────────────────────────

  /** A UI-session JWT (HS256) for the account channel. */
  issueJwt(accountId: string, options: { expiresInMs?: number } = {}): string {
    const account = this.engine.account(accountId);
    const now = this.clock.now();
    return this.jwt().issue({
      sub: accountId,
      rev: account.jwtRevision,
      iat: Math.floor(now / 1000),
      exp: Math.floor((now + (options.expiresInMs ?? 3_600_000)) / 1000),
      jti: randomHex(8),
    });
  }

  /** Revokes every JWT issued so far for the account (bumps its revision). */
  revokeJwts(accountId: string): void {
    revokeJwts(this.engine, accountId);
  }

  /** The account a channel JWT belongs to (HS256, current revision, not expired), or undefined. */
  verifyJwt(token: string): { accountId: string } | undefined {
    const claims = this.jwt().verify(token);
    if (!claims) return undefined;
    const account = this.engine.findAccount(claims.sub);
    if (!account || claims.rev !== account.jwtRevision) return undefined;
    if (claims.exp * 1000 <= this.clock.now()) return undefined;
    return { accountId: account.id };
  }

  /** Subscribes to an account's events (`order_new`, `order_canceled`, `order_update`, `position_update`). */
  subscribeAccount(accountId: string, listener: (event: AccountEvent) => void): () => void {
    return this.engine.subscribe(accountId, (event) => listener(accountEventWire(this.market, event)));
  }

  /** The data of a `full_snapshot` push for the account: open positions and orders, balances, server time. */
  snapshot(accountId: string): unknown {
    tick(this.engine);
    return channelSnapshot(this.engine, accountId);
  }

  /** Every active symbol, in the order the account channel's firehose cycles through them. */
  activeSymbols(): readonly string[] {
    return this.market.symbols;
  }

  /** The `data` of one firehose message for `symbol` on `channel`. */
  marketPayload(symbol: string, channel: SimMarketChannel): unknown {
    return this.market.marketPayload(symbol, channel);
  }

  // ── Assertions ─────────────────────────────────────────────────────────────────────────────────────────

  /** A deep-copied view of an account for assertions. */
  account(accountId: string): AccountView {
    tick(this.engine);
    return accountView(this.engine, accountId);
  }

  /**
   * The JWT signing key, made on first use: Workers refuse random numbers in global scope, where a test may
   * well call `createExchange()`.
   */
  private jwt(): JwtIssuer {
    this.#jwt ??= new JwtIssuer(globalThis.crypto.getRandomValues(new Uint8Array(32)));
    return this.#jwt;
  }
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
