/**
 * Closes the backend runs itself with internal MARKET orders: POST /v2/positions/close and the three legs of
 * POST /v2/futures/close-and-switch-margin (cancel, close, switch; no rollback).
 */

import { decAbs, decCmp } from '../../_internal/decimal.ts';
import { badRequest, SimHttpError } from './errors.ts';
import { executeTaker } from './fills.ts';
import { applyMarginType } from './futures-settings.ts';
import { cancelState, internalMarketOrder } from './orders.ts';
import { commitPosition, getPosition } from './positions.ts';
import {
  type AccountState,
  type MarginType,
  type OrderState,
  type PositionState,
  type Side,
  type SubAccountState,
  WORKING,
} from './state.ts';
import type { EngineStore } from './store.ts';

/** What a position close did: the internal order and its side and quantity, or none when it only reconciled. */
export type ClosedPosition =
  | { position: PositionState; order: OrderState; side: Side; quantity: string }
  | { position: PositionState; order: undefined; side: undefined; quantity: undefined };

/** What close-and-switch did (the response's `data`). */
export interface MarginSwitchResult {
  symbol: string;
  marginType: MarginType;
  canceledOrders: string[];
  closedPositions: { id: string; venuePositionId: string; quantity: string }[];
}

/** POST /v2/positions/close. */
export function closePosition(
  store: EngineStore,
  account: AccountState,
  positionId: string,
  quantity: string | undefined,
): ClosedPosition {
  const position = getPosition(account, positionId);
  if (!position) throw new SimHttpError(404, 'Position not found');
  if (position.venue.status === 'CLOSED') {
    // Already closed on the venue (e.g. by a maker fill the sync has not reached): reconcile, no order.
    if (JSON.stringify(position.db) !== JSON.stringify(position.venue)) commitPosition(store, position);
    return { position, order: undefined, side: undefined, quantity: undefined };
  }
  const size = decAbs(position.venue.quantity);
  const qty = quantity ?? size;
  if (decCmp(qty, size) > 0) throw badRequest(`quantity ${qty} exceeds the position quantity ${size}`);
  const side: Side = position.direction === 1 ? 'SELL' : 'BUY';
  const order = internalMarketOrder(store, account, position, side, qty);
  store.emitOrder('order_new', order);
  executeTaker(store, order, store.market.markPrice(position.symbol), 'CLOSE_POSITION', true);
  return { position, order, side, quantity: qty };
}

/** POST /v2/futures/close-and-switch-margin: cancel, close, switch; no rollback. */
export function closeAndSwitchMargin(
  store: EngineStore,
  account: AccountState,
  sub: SubAccountState,
  symbol: string,
  target: MarginType,
): MarginSwitchResult {
  const canceledOrders: string[] = [];
  for (const order of account.orders) {
    if (order.subAccountId !== sub.id || order.symbol !== symbol) continue;
    if (!WORKING.has(order.db.status) && !store.working.has(order)) continue;
    cancelState(store, order);
    canceledOrders.push(order.id);
    store.emitOrder('order_canceled', order);
  }
  if (store.faults.takeMarginSwitchFailure('close')) {
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
      const order = internalMarketOrder(
        store,
        account,
        position,
        position.direction === 1 ? 'SELL' : 'BUY',
        decAbs(quantity),
      );
      executeTaker(store, order, store.market.markPrice(symbol), 'MARGIN_SWITCH', false);
      closedPositions.push({ id: position.id, venuePositionId: position.venuePositionId, quantity });
    } else if (position.db?.status === 'OPEN') {
      // Venue says it is gone already (-2010 "position already closed"): reconcile the row and go on.
      commitPosition(store, position);
    }
  }
  if (store.faults.takeMarginSwitchFailure('switch')) {
    const details = { code: -4048, msg: 'Margin type cannot be changed if there exists position.' };
    throw new SimHttpError(502, `Failed to switch margin type: ${details.msg}`, {
      stage: 'switch',
      closedPositions,
      canceledOrders,
      details,
    });
  }
  applyMarginType(store, sub, target);
  return { symbol, marginType: target, canceledOrders, closedPositions };
}
