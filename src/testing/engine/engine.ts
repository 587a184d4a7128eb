import {
  decAbs,
  decAdd,
  decCmp,
  decDiv,
  decMin,
  decMul,
  decNeg,
  decSign,
  decSub,
  isDecimalString,
} from '../../_internal/decimal.ts';
import type { AccountEvent } from '../_types.ts';
import type { MarketSimulator } from '../market.ts';
import type { VirtualClock } from './clock.ts';
import { badRequest, SimHttpError } from './errors.ts';
import { IdSequence, iso } from './ids.ts';
import {
  type AccountState,
  CONDITIONAL_TYPES,
  type MarginType,
  type OrderProgress,
  type OrderState,
  type OrderType,
  type PositionFields,
  type PositionMode,
  type PositionSide,
  type PositionState,
  type Side,
  type SubAccountState,
  type TradeRecord,
  type TransferState,
  WORKING,
} from './state.ts';

/**
 * Commission rate on taker fills (MARKET orders, marketable LIMITs, triggered stops, closes).
 *
 * @example
 * ```ts
 * import { TAKER_FEE_RATE } from 'futures-sdk/testing'; // '0.0005': 0.3 USDT on a 600 USDT fill
 * ```
 */
export const TAKER_FEE_RATE = '0.0005';
/**
 * Commission rate on maker fills (resting LIMITs).
 *
 * @example
 * ```ts
 * import { MAKER_FEE_RATE } from 'futures-sdk/testing'; // '0.0002'
 * ```
 */
export const MAKER_FEE_RATE = '0.0002';
/**
 * Maintenance margin as a fraction of notional.
 *
 * @example
 * ```ts
 * import { MAINTENANCE_MARGIN_RATE } from 'futures-sdk/testing'; // '0.005'
 * ```
 */
export const MAINTENANCE_MARGIN_RATE = '0.005';
/**
 * Leverage of a symbol nobody has set.
 *
 * @example
 * ```ts
 * import { DEFAULT_LEVERAGE } from 'futures-sdk/testing'; // 20
 * ```
 */
export const DEFAULT_LEVERAGE = 20;
/**
 * How long a deposit or withdrawal stays PENDING before it settles (ms of server time).
 *
 * @example
 * ```ts
 * ex.deposit(accountId, 'USDT', '100');
 * ex.advance(TRANSFER_SETTLE_MS); // now SUCCESS and credited
 * ```
 */
export const TRANSFER_SETTLE_MS = 2_000;
/**
 * Funding is exchanged every 8 h of server time, at 00:00, 08:00 and 16:00 UTC.
 *
 * @example
 * ```ts
 * ex.market.setFundingRate('BTCUSDT', '0.0001');
 * ex.advance(FUNDING_INTERVAL_MS); // one funding time passed: a long paid 0.01 % of its notional at the mark
 * ```
 */
export const FUNDING_INTERVAL_MS = 8 * 3_600_000;
/**
 * The error of the closing-order reservation rule, verbatim from the spec.
 *
 * @example
 * ```ts
 * await expect(client.orders.create(secondStop)).rejects.toMatchObject({ error: CLOSE_QUANTITY_ERROR });
 * ```
 */
export const CLOSE_QUANTITY_ERROR = 'Close quantity exceeds available position quantity';

const ORDER_TYPES: readonly OrderType[] = [
  'LIMIT',
  'MARKET',
  'STOP',
  'STOP_MARKET',
  'TAKE_PROFIT',
  'TAKE_PROFIT_MARKET',
];
const MARKET_LIKE: ReadonlySet<OrderType> = new Set(['MARKET', 'STOP_MARKET', 'TAKE_PROFIT_MARKET']);

/** Failures a test can inject into engine steps (see `ex.faults`). */
export interface EngineFaults {
  /** The venue error to fail a cancel of this order with, if one is armed. */
  takeCancelFailure(orderId: string): string | undefined;
  /** True when the close-and-switch leg `stage` must fail this time. */
  takeMarginSwitchFailure(stage: 'close' | 'switch'): boolean;
  /** True when the venue must reject this margin-type switch (`OPEN_POSITION_MARGIN_REJECT`). */
  takeMarginTypeReject(): boolean;
}

export interface EngineConfig {
  syncIntervalMs: number;
  maxOrderNotional: string;
  /** Server time a new order's database row stays PENDING_NEW before the venue's ack is recorded (0: at once). */
  venueAckDelayMs: number;
}

/** A validated order body. */
export interface OrderInput {
  symbol: string;
  side: Side;
  type: OrderType;
  quantity: string;
  price: string | undefined;
  stopPrice: string | undefined;
  positionSide: PositionSide | undefined;
  reduceOnly: boolean;
  subAccountId: string | undefined;
  clientOrderId: string | undefined;
}

/** An order that passed every check except the margin one, ready to be committed. */
export interface PreparedOrder {
  account: AccountState;
  sub: SubAccountState;
  input: OrderInput;
  positionSide: PositionSide;
  closing: boolean;
  /** Initial margin this order needs (0 for orders that only reduce). */
  margin: string;
}

/** Result of placing an order. `order` is the wire order as created (status NEW), or the current one on a replay. */
export interface PlaceResult {
  state: OrderState;
  order: Record<string, unknown>;
  idempotent: boolean;
}

interface MarkRange {
  min: string;
  max: string;
  last: string;
}

const r8 = (value: string): string => decDiv(value, '1', 8);
const isZero = (value: string): boolean => decSign(value) === 0;
const dirOf = (side: Side): 1 | -1 => (side === 'BUY' ? 1 : -1);

function positiveDecimal(value: unknown, field: string): string {
  if (typeof value !== 'string' || !/^\d+(\.\d+)?$/.test(value) || !/[1-9]/.test(value)) {
    throw badRequest(`${field} must be a positive decimal string such as "0.01"`);
  }
  return value;
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value === '') throw badRequest(`${field} must be a non-empty string`);
  return value;
}

/** Parses and validates an order body (POST /v2/orders or a batch item); throws 400 with a readable error. */
export function parseOrderInput(raw: unknown): OrderInput {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw badRequest('Order body must be an object');
  const body = raw as Record<string, unknown>;
  const symbol = optionalString(body['symbol'], 'symbol');
  if (!symbol) throw badRequest('symbol is required');
  const side = body['side'];
  if (side !== 'BUY' && side !== 'SELL') throw badRequest("side must be 'BUY' or 'SELL'");
  const type = body['type'];
  if (typeof type !== 'string' || !ORDER_TYPES.includes(type as OrderType)) {
    throw badRequest(`type must be one of ${ORDER_TYPES.join(', ')}`);
  }
  const orderType = type as OrderType;
  const quantity = positiveDecimal(body['quantity'], 'quantity');
  const needsPrice = orderType === 'LIMIT' || orderType === 'STOP' || orderType === 'TAKE_PROFIT';
  const needsStop = CONDITIONAL_TYPES.has(orderType);
  let price: string | undefined;
  if (needsPrice) price = positiveDecimal(body['price'], 'price');
  else if (body['price'] !== undefined && body['price'] !== null)
    throw badRequest(`price is not allowed for ${orderType} orders`);
  let stopPrice: string | undefined;
  if (needsStop) stopPrice = positiveDecimal(body['stopPrice'], 'stopPrice');
  else if (body['stopPrice'] !== undefined && body['stopPrice'] !== null) {
    throw badRequest(`stopPrice is not allowed for ${orderType} orders`);
  }
  const positionSide = body['positionSide'];
  if (positionSide !== undefined && positionSide !== 'BOTH' && positionSide !== 'LONG' && positionSide !== 'SHORT') {
    throw badRequest("positionSide must be 'BOTH', 'LONG' or 'SHORT'");
  }
  const reduceOnly = body['reduceOnly'];
  if (reduceOnly !== undefined && typeof reduceOnly !== 'boolean') throw badRequest('reduceOnly must be a boolean');
  const clientOrderId = optionalString(body['clientOrderId'], 'clientOrderId');
  if (clientOrderId !== undefined && clientOrderId.length > 64)
    throw badRequest('clientOrderId must be at most 64 characters');
  return {
    symbol,
    side,
    type: orderType,
    quantity,
    price,
    stopPrice,
    positionSide,
    reduceOnly: reduceOnly === true,
    subAccountId: optionalString(body['subAccountId'], 'subAccountId'),
    clientOrderId,
  };
}

/**
 * The trading engine: accounts, sub-accounts, orders, fills, positions, balances, transfers and account events.
 *
 * Two views of every order and position are kept on purpose. `venue` is the trading venue's truth (fills land
 * there at once); `db` is what the backend database serves over REST. REST-driven changes (taker fills, cancels,
 * closes) write both; maker fills write only `venue`, and the periodic sync tick copies `venue` into `db` and
 * pushes `position_update` — which is how the spec's maker-fill latency becomes observable.
 */
export class Engine {
  private readonly accounts = new Map<string, AccountState>();
  private readonly subs = new Map<string, SubAccountState>();
  private readonly orders = new Map<string, OrderState>();
  private readonly ordersByVenueId = new Map<number, OrderState>();
  private readonly clientOrderIds = new Map<string, OrderState>();
  /** Orders working on the venue. */
  private readonly working = new Set<OrderState>();
  /** Positions open on the venue. */
  private readonly openPositions = new Set<PositionState>();
  private readonly listeners = new Map<string, Set<(event: AccountEvent) => void>>();
  private readonly ids = new IdSequence();
  private readonly pendingMarks = new Map<string, MarkRange>();
  /** Orders whose database row is PENDING_NEW, with the server time their venue ack gets recorded. */
  private readonly pendingAcks = new Map<OrderState, number>();
  private busy = false;
  private nextSyncAt: number;
  private nextFundingAt: number;

  private readonly market: MarketSimulator;
  private readonly clock: VirtualClock;
  private readonly config: EngineConfig;
  private readonly faults: EngineFaults;

  constructor(market: MarketSimulator, clock: VirtualClock, config: EngineConfig, faults: EngineFaults) {
    this.market = market;
    this.clock = clock;
    this.config = config;
    this.faults = faults;
    this.nextSyncAt = clock.now() + config.syncIntervalMs;
    this.nextFundingAt = (Math.floor(clock.now() / FUNDING_INTERVAL_MS) + 1) * FUNDING_INTERVAL_MS;
    market.onMarkPrice((symbol, mark) => this.onMark(symbol, mark));
  }

  // ── Accounts ───────────────────────────────────────────────────────────────────────────────────────────

  createAccount(options: {
    balances?: Record<string, string> | undefined;
    spotBalances?: Record<string, string> | undefined;
    spotShape?: 'array' | 'raw' | undefined;
    positionMode?: PositionMode | undefined;
    subAccount?: boolean | undefined;
  }): { accountId: string; subAccountId: string | undefined } {
    const account: AccountState = {
      id: this.ids.next('acc'),
      primarySubAccountId: undefined,
      subAccounts: new Map(),
      positionMode: options.positionMode ?? 'ONE_WAY',
      maxOrderNotional: undefined,
      jwtRevision: 0,
      tradeSeq: 0,
      spotBalances: { ...(options.spotBalances ?? {}) },
      spotShape: options.spotShape ?? 'array',
      orders: [],
      positions: [],
      trades: [],
      transfers: [],
      history: [],
    };
    this.accounts.set(account.id, account);
    let subAccountId: string | undefined;
    if (options.subAccount !== false) {
      subAccountId = this.createSubAccount(account.id).subAccountId;
      const sub = this.subs.get(subAccountId)!;
      for (const [asset, amount] of Object.entries(options.balances ?? {})) {
        if (!isDecimalString(amount)) throw new TypeError(`balances.${asset} must be a decimal string`);
        sub.wallet.set(asset, amount);
      }
    }
    return { accountId: account.id, subAccountId };
  }

  createSubAccount(accountId: string, balances: Record<string, string> = {}): { subAccountId: string } {
    const account = this.account(accountId);
    const wallet = new Map([['USDT', '0']]);
    for (const [asset, amount] of Object.entries(balances)) {
      if (!isDecimalString(amount)) throw new TypeError(`balances.${asset} must be a decimal string`);
      wallet.set(asset, amount);
    }
    const sub: SubAccountState = {
      id: this.ids.next('sub'),
      accountId,
      marginType: 'CROSSED',
      leverage: new Map(),
      wallet,
    };
    account.subAccounts.set(sub.id, sub);
    this.subs.set(sub.id, sub);
    account.primarySubAccountId ??= sub.id;
    return { subAccountId: sub.id };
  }

  /** The account, or a TypeError for a test's typo (programmer API, not HTTP). */
  account(accountId: string): AccountState {
    const account = this.accounts.get(accountId);
    if (!account) throw new TypeError(`Unknown accountId ${JSON.stringify(accountId)}`);
    return account;
  }

  findAccount(accountId: string): AccountState | undefined {
    return this.accounts.get(accountId);
  }

  /** The sub-account a request names (or the primary one); 403 for another user's, 400 when there is none. */
  resolveSub(account: AccountState, subAccountId: unknown): SubAccountState {
    if (subAccountId === undefined || subAccountId === null || subAccountId === '') {
      const sub = account.primarySubAccountId ? account.subAccounts.get(account.primarySubAccountId) : undefined;
      if (!sub) throw badRequest('No sub account found');
      return sub;
    }
    if (typeof subAccountId !== 'string') throw badRequest('subAccountId must be a string');
    const sub = account.subAccounts.get(subAccountId);
    if (!sub) throw new SimHttpError(403, 'Unauthorized subAccountId');
    return sub;
  }

  setMaxOrderNotional(accountId: string, value: string | undefined): void {
    if (value !== undefined && !isDecimalString(value))
      throw new TypeError('maxOrderNotional must be a decimal string');
    this.account(accountId).maxOrderNotional = value;
  }

  revokeJwts(accountId: string): void {
    this.account(accountId).jwtRevision++;
  }

  // ── Events ─────────────────────────────────────────────────────────────────────────────────────────────

  subscribe(accountId: string, listener: (event: AccountEvent) => void): () => void {
    const set = this.listeners.get(accountId) ?? new Set();
    this.listeners.set(accountId, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  private emit(accountId: string, event: AccountEvent['event'], data: unknown): void {
    for (const listener of this.listeners.get(accountId) ?? []) {
      try {
        listener({ event, data });
      } catch {
        // A subscriber's bug must not break the exchange.
      }
    }
  }

  // ── Time ───────────────────────────────────────────────────────────────────────────────────────────────

  /**
   * Catches every timed process up to the clock: mark walks (fills, triggers, liquidations), funding, venue
   * acks, transfers, sync.
   */
  tick(): void {
    this.market.advance();
    this.processMarks();
    const now = this.clock.now();
    while (now >= this.nextFundingAt) {
      this.applyFunding(this.nextFundingAt);
      this.nextFundingAt += FUNDING_INTERVAL_MS;
    }
    this.recordAcks(now);
    for (const account of this.accounts.values()) this.settleTransfers(account, now);
    if (now >= this.nextSyncAt) {
      this.sync();
      const interval = this.config.syncIntervalMs;
      this.nextSyncAt += Math.ceil((now - this.nextSyncAt + 1) / interval) * interval;
    }
  }

  /** The worker's sync: copies venue state into the database and pushes `position_update` for each change. */
  sync(): void {
    for (const account of this.accounts.values()) {
      for (const position of account.positions) {
        if (JSON.stringify(position.venue) !== JSON.stringify(position.db)) this.commitPosition(position);
      }
      for (const order of account.orders) {
        // A row still waiting for its venue ack keeps PENDING_NEW until the ack is recorded.
        if (this.pendingAcks.has(order) && order.db.status === 'PENDING_NEW') continue;
        // Maker fills reach the database here, silently: the spec forbids order_update for them.
        if (JSON.stringify(order.venue) !== JSON.stringify(order.db)) order.db = { ...order.venue };
      }
    }
  }

  /**
   * Funding at `at`: every position open on the venue since before then pays (or receives) |qty| × mark × rate,
   * where the rate is the one published for the period that ends at `at`. Longs pay a positive rate, shorts
   * receive it. The backend books it in the wallet and in `fundingFee` (signed income) of the venue and database
   * rows alike, so it pushes nothing. The mark is the one at catch-up time; a `null` rate pays nothing.
   */
  private applyFunding(at: number): void {
    for (const position of this.openPositions) {
      if (position.openedAt >= at) continue;
      const rate = this.market.fundingRate(position.symbol, at - 1);
      if (rate === null || isZero(rate)) continue;
      const mark = this.market.markPrice(position.symbol);
      const income = r8(decNeg(decMul(decMul(position.venue.quantity, mark), rate)));
      if (isZero(income)) continue;
      const sub = this.subs.get(position.subAccountId)!;
      sub.wallet.set('USDT', decAdd(sub.wallet.get('USDT') ?? '0', income));
      position.venue.fundingFee = decAdd(position.venue.fundingFee, income);
      if (position.db?.status === 'OPEN') position.db.fundingFee = decAdd(position.db.fundingFee, income);
    }
  }

  /** Records the venue ack of every order whose PENDING_NEW row is due: NEW, pushed as `order_update`. */
  private recordAcks(now: number): void {
    for (const [order, ackAt] of this.pendingAcks) {
      if (ackAt > now) continue;
      this.pendingAcks.delete(order);
      // A cancel or a taker fill already wrote the row; only a row still PENDING_NEW flips.
      if (order.db.status !== 'PENDING_NEW') continue;
      order.db = { ...order.db, status: 'NEW', updatedAt: ackAt };
      this.emit(order.accountId, 'order_update', this.serializeOrder(order));
    }
  }

  private onMark(symbol: string, mark: string): void {
    const range = this.pendingMarks.get(symbol);
    if (range) {
      range.min = decMin(range.min, mark);
      range.max = decCmp(range.max, mark) >= 0 ? range.max : mark;
      range.last = mark;
    } else {
      this.pendingMarks.set(symbol, { min: mark, max: mark, last: mark });
    }
    this.processMarks();
  }

  /** Runs crossing, trigger and liquidation checks for every mark move since the last run (never re-entrant). */
  processMarks(): void {
    if (this.busy) return;
    this.busy = true;
    try {
      for (let guard = 0; this.pendingMarks.size > 0 && guard < 10_000; guard++) {
        const [symbol, range] = this.pendingMarks.entries().next().value as [string, MarkRange];
        this.pendingMarks.delete(symbol);
        this.checkSymbol(symbol, range);
      }
    } finally {
      this.busy = false;
    }
  }

  private checkSymbol(symbol: string, range: MarkRange): void {
    for (const order of [...this.working]) {
      if (order.symbol !== symbol || !this.working.has(order)) continue;
      if (CONDITIONAL_TYPES.has(order.type) && !order.triggered) {
        if (!triggerCrossed(order, range.min, range.max)) continue;
        order.triggered = true;
        if (MARKET_LIKE.has(order.type) || limitMarketable(order, range.last)) this.triggeredTaker(order, range.last);
        continue;
      }
      if (order.price === null) continue;
      const crossed = order.side === 'BUY' ? decCmp(range.min, order.price) <= 0 : decCmp(range.max, order.price) >= 0;
      if (crossed) this.makerFill(order, decSub(order.quantity, order.venue.executedQty));
    }
    for (const position of [...this.openPositions]) {
      if (position.symbol !== symbol) continue;
      const liq = liquidationPrice(position.venue);
      if (isZero(liq)) continue;
      const hit = position.direction === 1 ? decCmp(range.min, liq) <= 0 : decCmp(range.max, liq) >= 0;
      if (hit) this.liquidate(position, liq);
    }
  }

  private triggeredTaker(order: OrderState, mark: string): void {
    const position = this.findOpenPosition(order.subAccountId, order.symbol, order.positionSide);
    if ((order.closing || order.reduceOnly) && !position) {
      // Nothing left to close when the stop fires: the venue expires it.
      this.cancelState(order);
      this.emit(order.accountId, 'order_update', this.serializeOrder(order));
      return;
    }
    const reason = order.type.startsWith('TAKE_PROFIT') ? 'TAKE_PROFIT' : 'STOP_LOSS';
    this.executeTaker(order, mark, reason, true);
  }

  private liquidate(position: PositionState, price: string): void {
    const qty = decAbs(position.venue.quantity);
    this.reduce(position, qty, price, 'LIQUIDATION');
    position.venue.liquidatedAt = this.clock.now();
    const record = this.account(position.accountId).history.find((h) => h.positionId === position.id);
    if (record) record.liquidatedAt = position.venue.liquidatedAt;
    this.commitPosition(position);
  }

  // ── Orders ─────────────────────────────────────────────────────────────────────────────────────────────

  /** The order of this account with that `clientOrderId`; 409 when another account used it. */
  findIdempotent(account: AccountState, clientOrderId: string | undefined): OrderState | undefined {
    if (clientOrderId === undefined) return undefined;
    const existing = this.clientOrderIds.get(clientOrderId);
    if (!existing) return undefined;
    if (existing.accountId !== account.id) {
      throw new SimHttpError(409, 'clientOrderId already used by another account');
    }
    return existing;
  }

  /** Every rule of order placement except the margin check (which batch does cumulatively). */
  prepareOrder(account: AccountState, input: OrderInput): PreparedOrder {
    if (!this.market.has(input.symbol)) throw badRequest(`Unknown symbol ${input.symbol}`);
    const sub = this.resolveSub(account, input.subAccountId);
    let positionSide: PositionSide;
    if (account.positionMode === 'ONE_WAY') {
      if (input.positionSide !== undefined && input.positionSide !== 'BOTH') {
        throw badRequest(`positionSide ${input.positionSide} needs hedge mode; the account is in ONE_WAY mode`);
      }
      positionSide = 'BOTH';
    } else {
      if (input.positionSide !== 'LONG' && input.positionSide !== 'SHORT') {
        throw badRequest('positionSide LONG or SHORT is required in HEDGE mode');
      }
      positionSide = input.positionSide;
    }
    const mark = this.market.markPrice(input.symbol);
    const refPrice = input.price ?? input.stopPrice ?? mark;
    const notional = decMul(input.quantity, refPrice);
    const maxNotional = account.maxOrderNotional ?? this.config.maxOrderNotional;
    if (decCmp(notional, maxNotional) > 0) {
      throw badRequest(`Order notional ${r8(notional)} USDT exceeds the maximum of ${maxNotional} USDT`, {
        reason: 'max_order_notional_exceeded',
      });
    }
    const conditional = CONDITIONAL_TYPES.has(input.type);
    if (
      conditional &&
      triggerCrossed({ side: input.side, type: input.type, stopPrice: input.stopPrice ?? null }, mark, mark)
    ) {
      throw badRequest('Order would immediately trigger');
    }
    const position = this.findOpenPosition(sub.id, input.symbol, positionSide);
    const closingSide =
      positionSide === 'BOTH'
        ? position !== undefined && position.direction !== dirOf(input.side)
        : (positionSide === 'LONG') === (input.side === 'SELL');
    let closing = false;
    if (conditional) {
      closing = input.reduceOnly || closingSide;
      if (closing) {
        const covered = account.orders.some(
          (o) =>
            o.closing &&
            this.working.has(o) &&
            o.subAccountId === sub.id &&
            o.symbol === input.symbol &&
            o.positionSide === positionSide,
        );
        if (covered) throw badRequest(CLOSE_QUANTITY_ERROR);
        if (position && decCmp(input.quantity, decAbs(position.venue.quantity)) > 0)
          throw badRequest(CLOSE_QUANTITY_ERROR);
      }
    } else if ((input.reduceOnly || positionSide !== 'BOTH') && closingSide && !position) {
      throw badRequest('ReduceOnly Order is rejected: no position to reduce');
    } else if (input.reduceOnly && !closingSide) {
      throw badRequest('ReduceOnly Order is rejected: the order would increase the position');
    }
    let margin = '0';
    if (!closing && !input.reduceOnly) {
      const reducible = closingSide && position ? decMin(input.quantity, decAbs(position.venue.quantity)) : '0';
      const opening = decSub(input.quantity, reducible);
      margin = decDiv(decMul(opening, refPrice), String(this.leverageOf(sub, input.symbol)), 8);
    }
    return { account, sub, input, positionSide, closing, margin };
  }

  /** Throws 400 when `margin` exceeds the sub-account's available balance. */
  checkMargin(sub: SubAccountState, margin: string, cumulative = false): void {
    const available = this.available(sub);
    if (decCmp(margin, available) > 0) {
      throw badRequest(
        cumulative
          ? `Insufficient balance: cumulative margin of the batch ${r8(margin)} USDT exceeds available balance ${r8(available)} USDT`
          : `Insufficient balance: order needs ${r8(margin)} USDT margin, available balance is ${r8(available)} USDT`,
      );
    }
  }

  /** Places a prepared order: records it, pushes order_new, and fills it at once when it is marketable. */
  commitOrder(prepared: PreparedOrder): PlaceResult {
    const { account, sub, input } = prepared;
    const now = this.clock.now();
    const progress = { status: 'NEW' as const, executedQty: '0', cumQuote: '0', updatedAt: now };
    const acked = this.config.venueAckDelayMs <= 0;
    const order: OrderState = {
      id: this.ids.next('ord'),
      accountId: account.id,
      subAccountId: sub.id,
      symbol: input.symbol,
      side: input.side,
      type: input.type,
      quantity: input.quantity,
      price: input.price ?? null,
      stopPrice: input.stopPrice ?? null,
      clientOrderId: input.clientOrderId ?? null,
      venueOrderId: this.ids.nextNumber('venueOrder', 8_000_000_001),
      positionSide: prepared.positionSide,
      reduceOnly: input.reduceOnly,
      closing: prepared.closing,
      triggered: false,
      createdAt: now,
      venue: { ...progress },
      db: acked ? { ...progress } : { ...progress, status: 'PENDING_NEW' },
    };
    account.orders.push(order);
    this.orders.set(order.id, order);
    this.ordersByVenueId.set(order.venueOrderId, order);
    if (order.clientOrderId !== null) this.clientOrderIds.set(order.clientOrderId, order);
    this.working.add(order);
    if (!acked) this.pendingAcks.set(order, now + this.config.venueAckDelayMs);
    // The venue accepted it: the response and order_new say NEW even while the database row is PENDING_NEW.
    const created = this.serializeOrder(order, order.venue);
    this.emit(account.id, 'order_new', created);
    const mark = this.market.markPrice(order.symbol);
    if (order.type === 'MARKET' || (order.type === 'LIMIT' && limitMarketable(order, mark))) {
      this.executeTaker(order, mark, 'ORDER', true);
    }
    return { state: order, order: created, idempotent: false };
  }

  /** The replay answer for an order found by clientOrderId. */
  replay(order: OrderState): PlaceResult {
    return { state: order, order: this.serializeOrder(order), idempotent: true };
  }

  getOrder(account: AccountState, id: string): OrderState | undefined {
    const order = this.orders.get(id);
    return order && order.accountId === account.id ? order : undefined;
  }

  /** By backend id or venueOrderId (cancel accepts both). */
  findOrderForCancel(account: AccountState, id: string): OrderState | undefined {
    const order = this.orders.get(id) ?? (/^\d+$/.test(id) ? this.ordersByVenueId.get(Number(id)) : undefined);
    return order && order.accountId === account.id ? order : undefined;
  }

  /** Cancels one working order the way POST /v2/orders/:id/cancel does; throws 400 with the venue's error. */
  cancel(order: OrderState): void {
    if (!WORKING.has(order.db.status)) throw badRequest(`Order is not open (status ${order.db.status})`);
    const failure = this.faults.takeCancelFailure(order.id);
    if (failure !== undefined) throw badRequest(failure, { venueErrorCode: -2011 });
    // The venue may have filled it already (a maker fill the database has not synced yet).
    if (!this.working.has(order)) throw badRequest('Unknown order sent.', { venueErrorCode: -2011 });
    this.cancelState(order);
    this.emit(order.accountId, 'order_canceled', this.serializeOrder(order));
  }

  private cancelState(order: OrderState): void {
    const now = this.clock.now();
    order.venue = { ...order.venue, status: 'CANCELED', updatedAt: now };
    order.db = { ...order.venue };
    this.working.delete(order);
  }

  /** DELETE /v2/orders/open: regular working orders only (conditional ones are out of scope by the spec). */
  cancelAll(account: AccountState, sub: SubAccountState, symbol: string | undefined): Record<string, unknown> {
    const candidates = account.orders.filter(
      (o) =>
        o.subAccountId === sub.id &&
        (symbol === undefined || o.symbol === symbol) &&
        !CONDITIONAL_TYPES.has(o.type) &&
        WORKING.has(o.db.status),
    );
    if (candidates.length === 0) return { ok: true, canceled: 0 };
    const results: Record<string, unknown>[] = [];
    let canceled = 0;
    for (const order of candidates) {
      try {
        this.cancel(order);
        canceled++;
        results.push({ orderId: order.id, symbol: order.symbol, status: 'CANCELED' });
      } catch (error) {
        const message = error instanceof SimHttpError ? error.error : String(error);
        results.push({ orderId: order.id, symbol: order.symbol, status: 'FAILED', error: message });
      }
    }
    return { ok: true, canceled, total: candidates.length, results };
  }

  /** A maker fill of a resting order (`ex.fillOrder`, or the mark crossing its price). */
  makerFill(order: OrderState, qty: string): void {
    if (!this.working.has(order)) throw new TypeError(`Order ${order.id} is not working on the venue`);
    if (
      order.price === null ||
      (CONDITIONAL_TYPES.has(order.type) && !order.triggered) ||
      MARKET_LIKE.has(order.type)
    ) {
      throw new TypeError(`Order ${order.id} is not a resting limit order`);
    }
    const remaining = decSub(order.quantity, order.venue.executedQty);
    if (decSign(qty) <= 0 || decCmp(qty, remaining) > 0) {
      throw new RangeError(`fill quantity must be in (0, ${remaining}] for order ${order.id}`);
    }
    this.fill(order, qty, order.price, true, 'ORDER');
  }

  findOrder(orderId: string): OrderState | undefined {
    return this.orders.get(orderId);
  }

  /**
   * A taker fill of the order's remaining quantity at `price`. The backend initiated it, so the database is
   * written at once and `order_update` + `position_update` are pushed.
   */
  private executeTaker(order: OrderState, price: string, reason: string, emitOrderUpdate: boolean): PositionState[] {
    const remaining = decSub(order.quantity, order.venue.executedQty);
    const touched = this.fill(order, remaining, price, false, reason);
    if (this.working.has(order)) {
      // Reduce-only remainder with nothing left to reduce: the venue expires it.
      order.venue = { ...order.venue, status: 'CANCELED', updatedAt: this.clock.now() };
      this.working.delete(order);
    }
    order.db = { ...order.venue };
    if (emitOrderUpdate) this.emit(order.accountId, 'order_update', this.serializeOrder(order));
    for (const position of touched) this.commitPosition(position);
    return touched;
  }

  /** Applies a fill to the venue: positions, realized PnL, fee, wallet, order progress, and the taker trade row. */
  private fill(order: OrderState, qty: string, price: string, isMaker: boolean, reason: string): PositionState[] {
    const sub = this.subs.get(order.subAccountId)!;
    const account = this.account(order.accountId);
    const dir = dirOf(order.side);
    const touched: PositionState[] = [];
    let remaining = qty;
    let realized = '0';
    const current = this.findOpenPosition(sub.id, order.symbol, order.positionSide);
    const reducesOnly = order.reduceOnly || order.closing;
    if (order.positionSide === 'BOTH') {
      if (current && current.direction !== dir) {
        const reduced = decMin(remaining, decAbs(current.venue.quantity));
        realized = this.reduce(current, reduced, price, reason);
        remaining = decSub(remaining, reduced);
        touched.push(current);
      }
      if (reducesOnly) remaining = '0';
      if (decSign(remaining) > 0) {
        touched.push(this.increase(sub, order.symbol, 'BOTH', dir, remaining, price));
        remaining = '0';
      }
    } else {
      const opening = (order.positionSide === 'LONG') === (order.side === 'BUY');
      if (opening && !reducesOnly) {
        touched.push(this.increase(sub, order.symbol, order.positionSide, dir, remaining, price));
        remaining = '0';
      } else if (!opening && current) {
        const reduced = decMin(remaining, decAbs(current.venue.quantity));
        realized = this.reduce(current, reduced, price, reason);
        remaining = decSub(remaining, reduced);
        touched.push(current);
      }
    }
    const filled = decSub(qty, remaining);
    if (decSign(filled) <= 0) return touched;
    const now = this.clock.now();
    const quote = decMul(filled, price);
    const commission = r8(decMul(quote, isMaker ? MAKER_FEE_RATE : TAKER_FEE_RATE));
    sub.wallet.set('USDT', decSub(sub.wallet.get('USDT') ?? '0', commission));
    const feeHolder = touched[touched.length - 1];
    if (feeHolder) {
      feeHolder.venue.fee = decAdd(feeHolder.venue.fee, commission);
      const record =
        feeHolder.venue.status === 'CLOSED' ? account.history.find((h) => h.positionId === feeHolder.id) : undefined;
      if (record) record.fee = feeHolder.venue.fee;
    }
    const executedQty = decAdd(order.venue.executedQty, filled);
    const done = decCmp(executedQty, order.quantity) >= 0;
    order.venue = {
      status: done ? 'FILLED' : 'PARTIALLY_FILLED',
      executedQty,
      cumQuote: decAdd(order.venue.cumQuote, quote),
      updatedAt: now,
    };
    if (done) this.working.delete(order);
    if (!isMaker) {
      const trade: TradeRecord = {
        id: ++account.tradeSeq,
        subAccountId: sub.id,
        symbol: order.symbol,
        orderId: order.id,
        side: order.side,
        price,
        qty: filled,
        quoteQty: quote,
        commission,
        commissionAsset: 'USDT',
        realizedPnl: realized,
        time: now,
        isBuyer: order.side === 'BUY',
        isMaker: false,
        positionSide: order.positionSide,
      };
      account.trades.push(trade);
    }
    return touched;
  }

  private increase(
    sub: SubAccountState,
    symbol: string,
    positionSide: PositionSide,
    dir: 1 | -1,
    qty: string,
    price: string,
  ): PositionState {
    const now = this.clock.now();
    let position = this.findOpenPosition(sub.id, symbol, positionSide);
    if (!position) {
      position = {
        id: this.ids.next('pos'),
        venuePositionId: `${symbol}-${positionSide}-${this.ids.nextNumber('venuePosition')}`,
        accountId: sub.accountId,
        subAccountId: sub.id,
        symbol,
        positionSide,
        direction: dir,
        openedAt: now,
        closedQty: '0',
        closedNotional: '0',
        venue: {
          quantity: '0',
          avgEntryPrice: '0',
          realizedPnl: '0',
          fee: '0',
          fundingFee: '0',
          leverage: this.leverageOf(sub, symbol),
          marginMode: sub.marginType,
          status: 'OPEN',
          closeReason: null,
          closedAt: null,
          liquidatedAt: null,
          updatedAt: now,
        },
        db: undefined,
      };
      this.account(sub.accountId).positions.push(position);
      this.openPositions.add(position);
    }
    const v = position.venue;
    const size = decAbs(v.quantity);
    const newSize = decAdd(size, qty);
    v.avgEntryPrice = decDiv(decAdd(decMul(size, v.avgEntryPrice), decMul(qty, price)), newSize, 8);
    v.quantity = dir === 1 ? newSize : decNeg(newSize);
    v.updatedAt = now;
    return position;
  }

  /** Reduces a position by `qty` at `price`; books realized PnL into the wallet; closes it at zero. */
  private reduce(position: PositionState, qty: string, price: string, reason: string): string {
    const v = position.venue;
    const sub = this.subs.get(position.subAccountId)!;
    const pnl = r8(decMul(decMul(decSub(price, v.avgEntryPrice), qty), String(position.direction)));
    v.realizedPnl = decAdd(v.realizedPnl, pnl);
    sub.wallet.set('USDT', decAdd(sub.wallet.get('USDT') ?? '0', pnl));
    const size = decSub(decAbs(v.quantity), qty);
    v.quantity = position.direction === 1 ? size : decNeg(size);
    v.updatedAt = this.clock.now();
    position.closedQty = decAdd(position.closedQty, qty);
    position.closedNotional = decAdd(position.closedNotional, decMul(qty, price));
    if (isZero(size)) this.closePositionState(position, reason);
    return pnl;
  }

  private closePositionState(position: PositionState, reason: string): void {
    const now = this.clock.now();
    const v = position.venue;
    v.status = 'CLOSED';
    v.closedAt = now;
    v.closeReason = reason;
    v.quantity = '0';
    this.openPositions.delete(position);
    this.account(position.accountId).history.push({
      positionId: position.id,
      subAccountId: position.subAccountId,
      symbol: position.symbol,
      orderSide: position.direction === 1 ? 1 : 2,
      totalClosedQuantity: position.closedQty,
      entryPrice: v.avgEntryPrice,
      averageClosePrice: decDiv(position.closedNotional, position.closedQty, 8),
      realizedPnL: v.realizedPnl,
      fee: v.fee,
      fundingFee: v.fundingFee,
      openedAt: position.openedAt,
      closedAt: now,
      liquidatedAt: v.liquidatedAt,
    });
  }

  private commitPosition(position: PositionState): void {
    position.db = { ...position.venue };
    this.emit(position.accountId, 'position_update', this.serializePosition(position));
  }

  // ── Positions ──────────────────────────────────────────────────────────────────────────────────────────

  findOpenPosition(subAccountId: string, symbol: string, positionSide: PositionSide): PositionState | undefined {
    for (const position of this.openPositions) {
      if (
        position.subAccountId === subAccountId &&
        position.symbol === symbol &&
        position.positionSide === positionSide
      ) {
        return position;
      }
    }
    return undefined;
  }

  getPosition(account: AccountState, positionId: string): PositionState | undefined {
    return account.positions.find((p) => p.id === positionId);
  }

  /** Open on the venue or in the database (the guards are the backend's, which sees both). */
  private hasOpenPosition(sub: SubAccountState, symbol: string | undefined): boolean {
    const account = this.account(sub.accountId);
    return account.positions.some(
      (p) =>
        p.subAccountId === sub.id &&
        (symbol === undefined || p.symbol === symbol) &&
        (p.venue.status === 'OPEN' || p.db?.status === 'OPEN'),
    );
  }

  /** POST /v2/positions/close. */
  closePosition(account: AccountState, positionId: string, quantity: string | undefined): Record<string, unknown> {
    const position = this.getPosition(account, positionId);
    if (!position) throw new SimHttpError(404, 'Position not found');
    if (position.venue.status === 'CLOSED') {
      // Already closed on the venue (e.g. by a maker fill the sync has not reached): reconcile, no order.
      if (JSON.stringify(position.db) !== JSON.stringify(position.venue)) this.commitPosition(position);
      return { ok: true, closed: { symbol: position.symbol, reconciled: true, remainingPosition: '0' } };
    }
    const size = decAbs(position.venue.quantity);
    const qty = quantity ?? size;
    if (decCmp(qty, size) > 0) throw badRequest(`quantity ${qty} exceeds the position quantity ${size}`);
    const side: Side = position.direction === 1 ? 'SELL' : 'BUY';
    const order = this.internalMarketOrder(account, position, side, qty);
    this.emit(account.id, 'order_new', this.serializeOrder(order));
    this.executeTaker(order, this.market.markPrice(position.symbol), 'CLOSE_POSITION', true);
    return {
      ok: true,
      closed: { symbol: position.symbol, side, quantity: qty, remainingPosition: position.venue.quantity },
      venue: this.venueOrder(order),
    };
  }

  private internalMarketOrder(account: AccountState, position: PositionState, side: Side, qty: string): OrderState {
    const sub = this.subs.get(position.subAccountId)!;
    const prepared: PreparedOrder = {
      account,
      sub,
      input: {
        symbol: position.symbol,
        side,
        type: 'MARKET',
        quantity: qty,
        price: undefined,
        stopPrice: undefined,
        positionSide: position.positionSide,
        reduceOnly: true,
        subAccountId: sub.id,
        clientOrderId: undefined,
      },
      positionSide: position.positionSide,
      closing: false,
      margin: '0',
    };
    // Record without the automatic fill and without order_new: callers decide what is pushed.
    const now = this.clock.now();
    const progress = { status: 'NEW' as const, executedQty: '0', cumQuote: '0', updatedAt: now };
    const order: OrderState = {
      id: this.ids.next('ord'),
      accountId: account.id,
      subAccountId: sub.id,
      symbol: prepared.input.symbol,
      side,
      type: 'MARKET',
      quantity: qty,
      price: null,
      stopPrice: null,
      clientOrderId: null,
      venueOrderId: this.ids.nextNumber('venueOrder', 8_000_000_001),
      positionSide: position.positionSide,
      reduceOnly: true,
      closing: false,
      triggered: false,
      createdAt: now,
      venue: { ...progress },
      db: { ...progress },
    };
    account.orders.push(order);
    this.orders.set(order.id, order);
    this.ordersByVenueId.set(order.venueOrderId, order);
    this.working.add(order);
    return order;
  }

  // ── Futures configuration ──────────────────────────────────────────────────────────────────────────────

  leverageOf(sub: SubAccountState, symbol: string): number {
    return sub.leverage.get(symbol) ?? DEFAULT_LEVERAGE;
  }

  setLeverage(sub: SubAccountState, symbol: string, leverage: number, force: boolean): void {
    if (this.hasOpenPosition(sub, symbol) && !force) {
      throw new SimHttpError(409, `Open position on ${symbol}: pass forceWithOpenPosition to change its leverage`, {
        code: 'OPEN_POSITION_LEVERAGE_GUARD',
      });
    }
    sub.leverage.set(symbol, leverage);
    for (const position of this.account(sub.accountId).positions) {
      if (position.subAccountId !== sub.id || position.symbol !== symbol || position.venue.status !== 'OPEN') continue;
      // The liquidation level is derived from leverage, so it is re-priced by this write.
      position.venue.leverage = leverage;
      if (position.db) position.db.leverage = leverage;
    }
  }

  setMarginType(sub: SubAccountState, symbol: string, marginType: MarginType, force: boolean): boolean {
    if (sub.marginType === marginType) return false;
    if (this.hasOpenPosition(sub, symbol) && !force) {
      throw new SimHttpError(
        409,
        `Open position on ${symbol}: pass forceWithOpenPosition or use close-and-switch-margin`,
        {
          code: 'OPEN_POSITION_MARGIN_GUARD',
        },
      );
    }
    if (this.faults.takeMarginTypeReject()) {
      const details = { code: -4048, msg: 'Margin type cannot be changed if there exists position.' };
      throw badRequest(`Venue rejected the margin type change: ${details.msg} Use close-and-switch-margin.`, {
        code: 'OPEN_POSITION_MARGIN_REJECT',
        venueErrorCode: details.code,
        details,
      });
    }
    this.applyMarginType(sub, marginType);
    return true;
  }

  private applyMarginType(sub: SubAccountState, marginType: MarginType): void {
    sub.marginType = marginType;
    for (const position of this.account(sub.accountId).positions) {
      if (position.subAccountId !== sub.id || position.venue.status !== 'OPEN') continue;
      position.venue.marginMode = marginType;
      if (position.db) position.db.marginMode = marginType;
    }
  }

  /** POST /v2/futures/close-and-switch-margin: cancel, close, switch; no rollback. */
  closeAndSwitchMargin(
    account: AccountState,
    sub: SubAccountState,
    symbol: string,
    target: MarginType,
  ): Record<string, unknown> {
    const canceledOrders: string[] = [];
    for (const order of account.orders) {
      if (order.subAccountId !== sub.id || order.symbol !== symbol) continue;
      if (!WORKING.has(order.db.status) && !this.working.has(order)) continue;
      this.cancelState(order);
      canceledOrders.push(order.id);
      this.emit(account.id, 'order_canceled', this.serializeOrder(order));
    }
    if (this.faults.takeMarginSwitchFailure('close')) {
      const details = { code: -2019, msg: 'Margin is insufficient.' };
      throw new SimHttpError(502, `Failed to close positions: ${details.msg}`, {
        stage: 'close',
        venueErrorCode: details.code,
        details,
      });
    }
    const closedPositions: { id: string; venuePositionId: string; quantity: string }[] = [];
    for (const position of account.positions) {
      if (position.subAccountId !== sub.id || position.symbol !== symbol) continue;
      if (position.venue.status === 'OPEN') {
        const quantity = position.venue.quantity;
        const order = this.internalMarketOrder(
          account,
          position,
          position.direction === 1 ? 'SELL' : 'BUY',
          decAbs(quantity),
        );
        this.executeTaker(order, this.market.markPrice(symbol), 'MARGIN_SWITCH', false);
        closedPositions.push({ id: position.id, venuePositionId: position.venuePositionId, quantity });
      } else if (position.db?.status === 'OPEN') {
        // Venue says it is gone already (-2010 "position already closed"): reconcile the row and go on.
        this.commitPosition(position);
      }
    }
    if (this.faults.takeMarginSwitchFailure('switch')) {
      const details = { code: -4048, msg: 'Margin type cannot be changed if there exists position.' };
      throw new SimHttpError(502, `Failed to switch margin type: ${details.msg}`, {
        stage: 'switch',
        closedPositions,
        canceledOrders,
        details,
      });
    }
    this.applyMarginType(sub, target);
    return { symbol, marginType: target, canceledOrders, closedPositions };
  }

  setPositionMode(account: AccountState, mode: PositionMode): void {
    for (const sub of account.subAccounts.values()) {
      if (this.hasOpenPosition(sub, undefined)) {
        throw badRequest('Position mode cannot be changed while a position is open', { venueErrorCode: -4068 });
      }
    }
    account.positionMode = mode;
  }

  // ── Balances and transfers ─────────────────────────────────────────────────────────────────────────────

  /** wallet + unrealized PnL − initial margin of open positions − margin reserved by working orders (USDT). */
  available(sub: SubAccountState): string {
    let value = sub.wallet.get('USDT') ?? '0';
    for (const position of this.openPositions) {
      if (position.subAccountId !== sub.id) continue;
      const m = this.metrics(position.symbol, position.venue);
      value = decSub(decAdd(value, m.unrealizedPnl), m.initialMargin);
    }
    for (const order of this.working) {
      if (order.subAccountId !== sub.id || order.closing || order.reduceOnly) continue;
      const ref = order.price ?? order.stopPrice;
      if (ref === null) continue;
      const remaining = decSub(order.quantity, order.venue.executedQty);
      value = decSub(value, decDiv(decMul(remaining, ref), String(this.leverageOf(sub, order.symbol)), 8));
    }
    return value;
  }

  private unrealized(sub: SubAccountState): string {
    let total = '0';
    for (const position of this.openPositions) {
      if (position.subAccountId === sub.id)
        total = decAdd(total, this.metrics(position.symbol, position.venue).unrealizedPnl);
    }
    return total;
  }

  balanceAssets(sub: SubAccountState): Record<string, string>[] {
    const unrealized = this.unrealized(sub);
    return [...sub.wallet.entries()].map(([asset, wallet]) => {
      const isUsdt = asset === 'USDT';
      const available = isUsdt ? this.available(sub) : wallet;
      return {
        asset,
        walletBalance: wallet,
        availableBalance: decSign(available) < 0 ? '0' : r8(available),
        marginBalance: isUsdt ? decAdd(wallet, unrealized) : wallet,
        unrealizedProfit: isUsdt ? unrealized : '0',
        crossWalletBalance: wallet,
      };
    });
  }

  transfer(
    accountId: string,
    kind: 'deposit' | 'withdraw',
    asset: string,
    amount: string,
    fail = false,
  ): TransferState {
    const account = this.account(accountId);
    if (!isDecimalString(amount) || decSign(amount) <= 0)
      throw new RangeError('amount must be a positive decimal string');
    const sub = account.primarySubAccountId ? account.subAccounts.get(account.primarySubAccountId) : undefined;
    if (!sub) throw new TypeError(`Account ${accountId} has no sub-account`);
    if (kind === 'withdraw') {
      const balance = sub.wallet.get(asset) ?? '0';
      const free = asset === 'USDT' ? this.available(sub) : balance;
      if (decCmp(amount, free) > 0) throw new RangeError(`Insufficient ${asset} to withdraw ${amount} (free ${free})`);
      sub.wallet.set(asset, decSub(balance, amount));
    }
    const now = this.clock.now();
    const transfer: TransferState = {
      id: this.ids.next('tr'),
      asset,
      amount,
      transferType: kind === 'deposit' ? 1 : 2,
      status: 'PENDING',
      venueTransferId: String(this.ids.nextNumber('venueTransfer', 5_000_001)),
      createdAt: now,
      updatedAt: now,
      settleAt: now + TRANSFER_SETTLE_MS,
      finalStatus: fail ? 'FAILED' : 'SUCCESS',
    };
    account.transfers.push(transfer);
    return transfer;
  }

  private settleTransfers(account: AccountState, now: number): void {
    for (const transfer of account.transfers) {
      if (transfer.status !== 'PENDING' || now < transfer.settleAt) continue;
      transfer.status = transfer.finalStatus;
      transfer.updatedAt = transfer.settleAt;
      const sub = account.primarySubAccountId ? account.subAccounts.get(account.primarySubAccountId) : undefined;
      if (!sub) continue;
      const balance = sub.wallet.get(transfer.asset) ?? '0';
      if (transfer.transferType === 1 && transfer.status === 'SUCCESS') {
        sub.wallet.set(transfer.asset, decAdd(balance, transfer.amount));
      } else if (transfer.transferType === 2 && transfer.status === 'FAILED') {
        sub.wallet.set(transfer.asset, decAdd(balance, transfer.amount)); // refund
      }
    }
  }

  // ── Wire shapes ────────────────────────────────────────────────────────────────────────────────────────

  metrics(symbol: string, fields: PositionFields) {
    const mark = this.market.markPrice(symbol);
    const size = decAbs(fields.quantity);
    const notional = decMul(size, mark);
    const open = fields.status === 'OPEN' && !isZero(size);
    return {
      markPrice: mark,
      unrealizedPnl: open ? r8(decMul(decSub(mark, fields.avgEntryPrice), fields.quantity)) : '0',
      initialMargin: open ? decDiv(notional, String(fields.leverage), 8) : '0',
      maintenanceMargin: open ? r8(decMul(notional, MAINTENANCE_MARGIN_RATE)) : '0',
      liquidationPrice: open ? liquidationPrice(fields) : '0',
    };
  }

  serializePosition(position: PositionState): Record<string, unknown> {
    const f = position.db ?? position.venue;
    const m = this.metrics(position.symbol, f);
    return {
      id: position.id,
      accountId: position.accountId,
      subAccountId: position.subAccountId,
      venuePositionId: position.venuePositionId,
      symbol: position.symbol,
      quantity: f.quantity,
      avgEntryPrice: f.avgEntryPrice,
      markPrice: m.markPrice,
      liquidationPrice: m.liquidationPrice,
      unrealizedPnl: m.unrealizedPnl,
      realizedPnl: f.realizedPnl,
      fundingFee: f.fundingFee,
      fee: f.fee,
      initialMargin: m.initialMargin,
      maintenanceMargin: m.maintenanceMargin,
      leverage: f.leverage,
      marginMode: f.marginMode,
      positionSide: position.positionSide,
      status: f.status,
      closeReason: f.closeReason,
      closedAt: f.closedAt === null ? null : iso(f.closedAt),
      openedAt: iso(position.openedAt),
      updatedAt: iso(f.updatedAt),
    };
  }

  /** The database's positions of an account, `OPEN` or `CLOSED`. */
  positions(account: AccountState, status: 'OPEN' | 'CLOSED'): PositionState[] {
    return account.positions.filter((p) => p.db?.status === status);
  }

  /** The Order resource as the database serves it (`progress` overrides the row's status and fills). */
  serializeOrder(order: OrderState, progress: OrderProgress = order.db): Record<string, unknown> {
    const p = progress;
    return {
      id: order.id,
      accountId: order.accountId,
      subAccountId: order.subAccountId,
      venue: 'SIM',
      symbol: order.symbol,
      side: order.side,
      type: order.type,
      quantity: order.quantity,
      price: order.price,
      stopPrice: order.stopPrice,
      clientOrderId: order.clientOrderId,
      venueOrderId: String(order.venueOrderId),
      status: p.status,
      executedQty: p.executedQty,
      avgPrice: isZero(p.executedQty) ? '0' : decDiv(p.cumQuote, p.executedQty, 8),
      positionSide: order.positionSide,
      reduceOnly: order.reduceOnly,
      source: 'API',
      createdAt: iso(order.createdAt),
      updatedAt: iso(p.updatedAt),
    };
  }

  /** Venue passthrough shape (GET /v2/futures/open-orders, `venue` objects). */
  venueOrder(order: OrderState): Record<string, unknown> {
    const p = order.venue;
    return {
      symbol: order.symbol,
      orderId: order.venueOrderId,
      clientOrderId: order.clientOrderId ?? `sim-${order.id}`,
      side: order.side,
      type: order.type,
      price: order.price ?? '0',
      stopPrice: order.stopPrice ?? '0',
      origQty: order.quantity,
      executedQty: p.executedQty,
      avgPrice: isZero(p.executedQty) ? '0' : decDiv(p.cumQuote, p.executedQty, 8),
      status: p.status,
      positionSide: order.positionSide,
      reduceOnly: order.reduceOnly,
      time: order.createdAt,
      updateTime: p.updatedAt,
    };
  }

  /** Orders still working on the venue, for open-orders and snapshots. */
  venueOpenOrders(sub: SubAccountState, symbol: string | undefined): OrderState[] {
    return this.account(sub.accountId).orders.filter(
      (o) => o.subAccountId === sub.id && this.working.has(o) && (symbol === undefined || o.symbol === symbol),
    );
  }

  isVenueWorking(order: OrderState): boolean {
    return this.working.has(order);
  }
}

function triggerCrossed(
  order: { side: Side; type: OrderType; stopPrice: string | null },
  min: string,
  max: string,
): boolean {
  if (order.stopPrice === null) return false;
  const takeProfit = order.type === 'TAKE_PROFIT' || order.type === 'TAKE_PROFIT_MARKET';
  // A buy stop fires on a rise, a buy take-profit on a fall; sells mirror that.
  const onRise = (order.side === 'BUY') !== takeProfit;
  return onRise ? decCmp(max, order.stopPrice) >= 0 : decCmp(min, order.stopPrice) <= 0;
}

function limitMarketable(order: { side: Side; price: string | null }, mark: string): boolean {
  if (order.price === null) return false;
  return order.side === 'BUY' ? decCmp(order.price, mark) >= 0 : decCmp(order.price, mark) <= 0;
}

/** Long: entry × (1 − 1/leverage + mmr); short: entry × (1 + 1/leverage − mmr). Per position, isolated-style. */
export function liquidationPrice(fields: PositionFields): string {
  if (fields.status !== 'OPEN' || isZero(fields.quantity)) return '0';
  const inverse = decDiv('1', String(fields.leverage), 18);
  const factor =
    decSign(fields.quantity) > 0
      ? decAdd(decSub('1', inverse), MAINTENANCE_MARGIN_RATE)
      : decSub(decAdd('1', inverse), MAINTENANCE_MARGIN_RATE);
  return decDiv(decMul(fields.avgEntryPrice, factor), '1', 8);
}
