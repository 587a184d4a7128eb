/**
 * Orders: the placement rules (symbol, position mode, max notional, immediate triggers, the closing-order
 * reservation, reduce-only, margin), recording and the marketable fill, cancels, maker fills, and the internal
 * orders the backend places to close positions.
 */

import { decAbs, decCmp, decDiv, decMin, decMul, decSign, decSub } from '../../_internal/decimal.ts';
import { dirOf, r8 } from './amounts.ts';
import { CLOSE_QUANTITY_ERROR } from './constants.ts';
import { badRequest, SimHttpError } from './errors.ts';
import { executeTaker, fill } from './fills.ts';
import { available, leverageOf } from './margin.ts';
import type { OrderInput } from './order-input.ts';
import { findOpenPosition } from './positions.ts';
import {
  type AccountState,
  CONDITIONAL_TYPES,
  type OrderProgress,
  type OrderState,
  type OrderType,
  type PositionSide,
  type PositionState,
  type Side,
  type SubAccountState,
  WORKING,
} from './state.ts';
import type { EngineStore } from './store.ts';

/** Order types that fill as a taker when they trigger. */
export const MARKET_LIKE: ReadonlySet<OrderType> = new Set(['MARKET', 'STOP_MARKET', 'TAKE_PROFIT_MARKET']);

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

/** A placed order, and its progress as the venue accepted it (status NEW), which the response shows. */
export interface PlaceResult {
  state: OrderState;
  progress: OrderProgress;
}

/** The order of this account with that `clientOrderId`; 409 when another account used it. */
export function findIdempotent(
  store: EngineStore,
  account: AccountState,
  clientOrderId: string | undefined,
): OrderState | undefined {
  if (clientOrderId === undefined) return undefined;
  const existing = store.clientOrderIds.get(clientOrderId);
  if (!existing) return undefined;
  if (existing.accountId !== account.id) {
    throw new SimHttpError(409, 'clientOrderId already used by another account');
  }
  return existing;
}

/** Every rule of order placement except the margin check (which batch does cumulatively). */
export function prepareOrder(store: EngineStore, account: AccountState, input: OrderInput): PreparedOrder {
  if (!store.market.has(input.symbol)) throw badRequest(`Unknown symbol ${input.symbol}`);
  const sub = store.resolveSub(account, input.subAccountId);
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
  const mark = store.market.markPrice(input.symbol);
  const refPrice = input.price ?? input.stopPrice ?? mark;
  const notional = decMul(input.quantity, refPrice);
  const maxNotional = account.maxOrderNotional ?? store.config.maxOrderNotional;
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
  const position = findOpenPosition(store, sub.id, input.symbol, positionSide);
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
          store.working.has(o) &&
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
    margin = decDiv(decMul(opening, refPrice), String(leverageOf(sub, input.symbol)), 8);
  }
  return { account, sub, input, positionSide, closing, margin };
}

/** Throws 400 when `margin` exceeds the sub-account's available balance. */
export function checkMargin(store: EngineStore, sub: SubAccountState, margin: string, cumulative = false): void {
  const free = available(store, sub);
  if (decCmp(margin, free) > 0) {
    throw badRequest(
      cumulative
        ? `Insufficient balance: cumulative margin of the batch ${r8(margin)} USDT exceeds available balance ${r8(free)} USDT`
        : `Insufficient balance: order needs ${r8(margin)} USDT margin, available balance is ${r8(free)} USDT`,
    );
  }
}

/** Places a prepared order: records it, pushes order_new, and fills it at once when it is marketable. */
export function commitOrder(store: EngineStore, prepared: PreparedOrder): PlaceResult {
  const { account, sub, input } = prepared;
  const now = store.now();
  const progress = { status: 'NEW' as const, executedQty: '0', cumQuote: '0', updatedAt: now };
  const acked = store.config.venueAckDelayMs <= 0;
  const order: OrderState = {
    id: store.ids.next('ord'),
    accountId: account.id,
    subAccountId: sub.id,
    symbol: input.symbol,
    side: input.side,
    type: input.type,
    quantity: input.quantity,
    price: input.price ?? null,
    stopPrice: input.stopPrice ?? null,
    clientOrderId: input.clientOrderId ?? null,
    venueOrderId: store.ids.nextNumber('venueOrder', 8_000_000_001),
    positionSide: prepared.positionSide,
    reduceOnly: input.reduceOnly,
    closing: prepared.closing,
    triggered: false,
    createdAt: now,
    venue: { ...progress },
    db: acked ? { ...progress } : { ...progress, status: 'PENDING_NEW' },
  };
  account.orders.push(order);
  store.orders.set(order.id, order);
  store.ordersByVenueId.set(order.venueOrderId, order);
  if (order.clientOrderId !== null) store.clientOrderIds.set(order.clientOrderId, order);
  store.working.add(order);
  if (!acked) store.pendingAcks.set(order, now + store.config.venueAckDelayMs);
  // The venue accepted it: the response and order_new say NEW even while the database row is PENDING_NEW.
  // Progress records are replaced, never mutated: this one stays the state the venue accepted.
  const accepted = order.venue;
  store.emitOrder('order_new', order, accepted);
  const mark = store.market.markPrice(order.symbol);
  if (order.type === 'MARKET' || (order.type === 'LIMIT' && limitMarketable(order, mark))) {
    executeTaker(store, order, mark, 'ORDER', true);
  }
  return { state: order, progress: accepted };
}

export function getOrder(store: EngineStore, account: AccountState, id: string): OrderState | undefined {
  const order = store.orders.get(id);
  return order && order.accountId === account.id ? order : undefined;
}

/** By backend id or venueOrderId (cancel accepts both). */
export function findOrderForCancel(store: EngineStore, account: AccountState, id: string): OrderState | undefined {
  const order = store.orders.get(id) ?? (/^\d+$/.test(id) ? store.ordersByVenueId.get(Number(id)) : undefined);
  return order && order.accountId === account.id ? order : undefined;
}

/** Cancels one working order the way POST /v2/orders/:id/cancel does; throws 400 with the venue's error. */
export function cancel(store: EngineStore, order: OrderState): void {
  if (!WORKING.has(order.db.status)) throw badRequest(`Order is not open (status ${order.db.status})`);
  const failure = store.faults.takeCancelFailure(order.id);
  if (failure !== undefined) throw badRequest(failure, { venueErrorCode: -2011 });
  // The venue may have filled it already (a maker fill the database has not synced yet).
  if (!store.working.has(order)) throw badRequest('Unknown order sent.', { venueErrorCode: -2011 });
  cancelState(store, order);
  store.emitOrder('order_canceled', order);
}

/** The order stops working: CANCELED on the venue and in the database. */
export function cancelState(store: EngineStore, order: OrderState): void {
  const now = store.now();
  order.venue = { ...order.venue, status: 'CANCELED', updatedAt: now };
  order.db = { ...order.venue };
  store.working.delete(order);
}

/** A maker fill of a resting order (`ex.fillOrder`, or the mark crossing its price). */
export function makerFill(store: EngineStore, order: OrderState, qty: string): void {
  if (!store.working.has(order)) throw new TypeError(`Order ${order.id} is not working on the venue`);
  if (order.price === null || (CONDITIONAL_TYPES.has(order.type) && !order.triggered) || MARKET_LIKE.has(order.type)) {
    throw new TypeError(`Order ${order.id} is not a resting limit order`);
  }
  const remaining = decSub(order.quantity, order.venue.executedQty);
  if (decSign(qty) <= 0 || decCmp(qty, remaining) > 0) {
    throw new RangeError(`fill quantity must be in (0, ${remaining}] for order ${order.id}`);
  }
  fill(store, order, qty, order.price, true, 'ORDER');
}

export function findOrder(store: EngineStore, orderId: string): OrderState | undefined {
  return store.orders.get(orderId);
}

/** A reduce-only MARKET order the backend places itself (position close, close-and-switch): recorded, not filled. */
export function internalMarketOrder(
  store: EngineStore,
  account: AccountState,
  position: PositionState,
  side: Side,
  qty: string,
): OrderState {
  const sub = store.sub(position.subAccountId);
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
  const now = store.now();
  const progress = { status: 'NEW' as const, executedQty: '0', cumQuote: '0', updatedAt: now };
  const order: OrderState = {
    id: store.ids.next('ord'),
    accountId: account.id,
    subAccountId: sub.id,
    symbol: prepared.input.symbol,
    side,
    type: 'MARKET',
    quantity: qty,
    price: null,
    stopPrice: null,
    clientOrderId: null,
    venueOrderId: store.ids.nextNumber('venueOrder', 8_000_000_001),
    positionSide: position.positionSide,
    reduceOnly: true,
    closing: false,
    triggered: false,
    createdAt: now,
    venue: { ...progress },
    db: { ...progress },
  };
  account.orders.push(order);
  store.orders.set(order.id, order);
  store.ordersByVenueId.set(order.venueOrderId, order);
  store.working.add(order);
  return order;
}

/** Orders still working on the venue, for open-orders and snapshots. */
export function venueOpenOrders(store: EngineStore, sub: SubAccountState, symbol: string | undefined): OrderState[] {
  return store
    .account(sub.accountId)
    .orders.filter(
      (o) => o.subAccountId === sub.id && store.working.has(o) && (symbol === undefined || o.symbol === symbol),
    );
}

export function isVenueWorking(store: EngineStore, order: OrderState): boolean {
  return store.working.has(order);
}

/** Whether a stop's trigger lies within the mark range [min, max]. */
export function triggerCrossed(
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

/** Whether a limit price is marketable at `mark` (it would fill as a taker). */
export function limitMarketable(order: { side: Side; price: string | null }, mark: string): boolean {
  if (order.price === null) return false;
  return order.side === 'BUY' ? decCmp(order.price, mark) >= 0 : decCmp(order.price, mark) <= 0;
}
