/** The option and view types of the simulated exchange (`createExchange`, `ex.createAccount`, `ex.account`). */

import type { MarginType, OrderStatus, PositionMode, PositionSide } from './engine/state.ts';
import type { SimOrder, SimPosition, SimTrade, SimTransfer } from './http/routes/shapes.ts';

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
  /**
   * A clock to share with the client (`ManualClock`, or any `{ now() }`): server time is then its `now()` plus
   * every `ex.advance(ms)`, so advancing the shared clock moves both sides. Takes the place of `now`.
   */
  clock?: { now(): number } | undefined;
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
 * One maker fill as the simulator recorded it: the truth a maker-fill detector (`client.watch()`'s `maker_fill`)
 * is checked against. `quantity` is signed (BUY +, SELL −); `syncedAt` is the server time from which GET
 * /v2/positions shows it (the next sync tick, or an earlier taker fill or close of the same position), undefined
 * until then. Read them from `ex.account(accountId).makerFills`.
 */
export interface SimMakerFill {
  orderId: string;
  subAccountId: string;
  symbol: string;
  positionSide: PositionSide;
  side: 'BUY' | 'SELL';
  /** Signed decimal string: BUY +, SELL −. */
  quantity: string;
  price: string;
  /** Server time of the fill on the venue (ms epoch). */
  time: number;
  syncedAt: number | undefined;
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
  venuePositions: { id: string; symbol: string; positionSide: PositionSide; quantity: string; avgEntryPrice: string }[];
  /** Every position as GET /v2/positions would serialise it (database view), open and closed. */
  positions: SimPosition[];
  /** Every order as GET /v2/orders serialises it (database view), oldest first. */
  orders: SimOrder[];
  /** Venue status of every order by id (ahead of `orders` until the sync tick for maker fills). */
  venueOrderStatus: Record<string, OrderStatus>;
  /** Taker trades (myTrades rows), oldest first. */
  trades: SimTrade[];
  /** Maker fills (which have no myTrades row), oldest first: what a maker-fill detector should report. */
  makerFills: SimMakerFill[];
  /** Deposits and withdrawals, oldest first. */
  transfers: SimTransfer[];
}
