/**
 * Fills: what one execution does on the venue (positions, realized PnL, commission, order progress, the taker's
 * myTrades row), and a taker fill as the backend initiates it (database written at once, events pushed).
 */

import { decAbs, decAdd, decCmp, decMin, decMul, decSign, decSub } from '../../_internal/decimal.ts';
import { dirOf, r8 } from './amounts.ts';
import { MAKER_FEE_RATE, TAKER_FEE_RATE } from './constants.ts';
import { commitPosition, findOpenPosition, increase, reduce } from './positions.ts';
import type { OrderState, PositionState, TradeRecord } from './state.ts';
import type { EngineStore } from './store.ts';

/**
 * A taker fill of the order's remaining quantity at `price`. The backend initiated it, so the database is
 * written at once and `order_update` + `position_update` are pushed.
 */
export function executeTaker(
  store: EngineStore,
  order: OrderState,
  price: string,
  reason: string,
  emitOrderUpdate: boolean,
): PositionState[] {
  const remaining = decSub(order.quantity, order.venue.executedQty);
  const touched = fill(store, order, remaining, price, false, reason);
  if (store.working.has(order)) {
    // Reduce-only remainder with nothing left to reduce: the venue expires it.
    order.venue = { ...order.venue, status: 'CANCELED', updatedAt: store.now() };
    store.working.delete(order);
  }
  order.db = { ...order.venue };
  if (emitOrderUpdate) store.emitOrder('order_update', order);
  for (const position of touched) commitPosition(store, position);
  return touched;
}

/** Applies a fill to the venue: positions, realized PnL, fee, wallet, order progress, and the taker trade row. */
export function fill(
  store: EngineStore,
  order: OrderState,
  qty: string,
  price: string,
  isMaker: boolean,
  reason: string,
): PositionState[] {
  // One instant for the whole fill: its trade's `time` is its positions' `updatedAt` (one atomic change).
  const now = store.now();
  const sub = store.sub(order.subAccountId);
  const account = store.account(order.accountId);
  const dir = dirOf(order.side);
  const touched: PositionState[] = [];
  let remaining = qty;
  let realized = '0';
  const current = findOpenPosition(store, sub.id, order.symbol, order.positionSide);
  const reducesOnly = order.reduceOnly || order.closing;
  let unmoved = '0';
  if (order.positionSide === 'BOTH') {
    if (current && current.direction !== dir) {
      const reduced = decMin(remaining, decAbs(current.venue.quantity));
      realized = reduce(store, current, reduced, price, reason);
      remaining = decSub(remaining, reduced);
      touched.push(current);
    }
    // A reduce-only remainder is done without moving anything (the oracle below records only what moved).
    if (reducesOnly) [unmoved, remaining] = [remaining, '0'];
    if (decSign(remaining) > 0) {
      touched.push(increase(store, sub, order.symbol, 'BOTH', dir, remaining, price));
      remaining = '0';
    }
  } else {
    const opening = (order.positionSide === 'LONG') === (order.side === 'BUY');
    if (opening && !reducesOnly) {
      touched.push(increase(store, sub, order.symbol, order.positionSide, dir, remaining, price));
      remaining = '0';
    } else if (!opening && current) {
      const reduced = decMin(remaining, decAbs(current.venue.quantity));
      realized = reduce(store, current, reduced, price, reason);
      remaining = decSub(remaining, reduced);
      touched.push(current);
    }
  }
  for (const position of touched) position.venue.updatedAt = now;
  const filled = decSub(qty, remaining);
  if (decSign(filled) <= 0) return touched;
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
  if (done) store.working.delete(order);
  if (isMaker) {
    account.makerFills.push({
      orderId: order.id,
      subAccountId: sub.id,
      symbol: order.symbol,
      positionSide: order.positionSide,
      side: order.side,
      qty: decSub(filled, unmoved),
      price,
      time: now,
      syncedAt: undefined,
      unsynced: new Set(touched.map((p) => p.id)),
    });
  } else {
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
