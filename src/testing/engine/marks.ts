/**
 * Mark moves: every range a symbol's mark went through is checked against resting LIMIT orders (maker fills),
 * stop and take-profit triggers, and liquidation prices. Runs after each request and each clock advance.
 */

import { decAbs, decCmp, decMin, decSub } from '../../_internal/decimal.ts';
import { isZero } from './amounts.ts';
import { executeTaker } from './fills.ts';
import { liquidationPrice } from './margin.ts';
import { cancelState, limitMarketable, MARKET_LIKE, makerFill, triggerCrossed } from './orders.ts';
import { commitPosition, findOpenPosition, reduce } from './positions.ts';
import { CONDITIONAL_TYPES, type OrderState, type PositionState } from './state.ts';
import type { EngineStore, MarkRange } from './store.ts';

/** Records a mark move (from the walk or `setMarkPrice`) and runs the checks it may trigger. */
export function onMark(store: EngineStore, symbol: string, mark: string): void {
  const range = store.pendingMarks.get(symbol);
  if (range) {
    range.min = decMin(range.min, mark);
    range.max = decCmp(range.max, mark) >= 0 ? range.max : mark;
    range.last = mark;
  } else {
    store.pendingMarks.set(symbol, { min: mark, max: mark, last: mark });
  }
  processMarks(store);
}

/** Runs crossing, trigger and liquidation checks for every mark move since the last run (never re-entrant). */
export function processMarks(store: EngineStore): void {
  if (store.checkingMarks) return;
  store.checkingMarks = true;
  try {
    for (let guard = 0; store.pendingMarks.size > 0 && guard < 10_000; guard++) {
      const [symbol, range] = store.pendingMarks.entries().next().value as [string, MarkRange];
      store.pendingMarks.delete(symbol);
      checkSymbol(store, symbol, range);
    }
  } finally {
    store.checkingMarks = false;
  }
}

function checkSymbol(store: EngineStore, symbol: string, range: MarkRange): void {
  for (const order of [...store.working]) {
    if (order.symbol !== symbol || !store.working.has(order)) continue;
    if (CONDITIONAL_TYPES.has(order.type) && !order.triggered) {
      if (!triggerCrossed(order, range.min, range.max)) continue;
      order.triggered = true;
      if (MARKET_LIKE.has(order.type) || limitMarketable(order, range.last)) triggeredTaker(store, order, range.last);
      continue;
    }
    if (order.price === null) continue;
    const crossed = order.side === 'BUY' ? decCmp(range.min, order.price) <= 0 : decCmp(range.max, order.price) >= 0;
    if (crossed) makerFill(store, order, decSub(order.quantity, order.venue.executedQty));
  }
  for (const position of [...store.openPositions]) {
    if (position.symbol !== symbol) continue;
    const liq = liquidationPrice(position.venue);
    if (isZero(liq)) continue;
    const hit = position.direction === 1 ? decCmp(range.min, liq) <= 0 : decCmp(range.max, liq) >= 0;
    if (hit) liquidate(store, position, liq);
  }
}

function triggeredTaker(store: EngineStore, order: OrderState, mark: string): void {
  const position = findOpenPosition(store, order.subAccountId, order.symbol, order.positionSide);
  if ((order.closing || order.reduceOnly) && !position) {
    // Nothing left to close when the stop fires: the venue expires it.
    cancelState(store, order);
    store.emitOrder('order_update', order);
    return;
  }
  const reason = order.type.startsWith('TAKE_PROFIT') ? 'TAKE_PROFIT' : 'STOP_LOSS';
  executeTaker(store, order, mark, reason, true);
}

function liquidate(store: EngineStore, position: PositionState, price: string): void {
  const qty = decAbs(position.venue.quantity);
  reduce(store, position, qty, price, 'LIQUIDATION');
  position.venue.liquidatedAt = store.now();
  const record = store.account(position.accountId).history.find((h) => h.positionId === position.id);
  if (record) record.liquidatedAt = position.venue.liquidatedAt;
  commitPosition(store, position);
}
