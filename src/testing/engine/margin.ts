/**
 * Margin arithmetic: leverage, a position's unrealized PnL and margins at the mark, its liquidation price, and a
 * sub-account's available balance. Exact decimal strings throughout.
 */

import { decAbs, decAdd, decDiv, decMul, decSign, decSub } from '../../_internal/decimal.ts';
import { isZero, r8 } from './amounts.ts';
import { DEFAULT_LEVERAGE, MAINTENANCE_MARGIN_RATE } from './constants.ts';
import type { PositionFields, SubAccountState } from './state.ts';
import type { EngineStore } from './store.ts';

/** A position's figures at a mark price. */
export interface PositionMetrics {
  markPrice: string;
  unrealizedPnl: string;
  initialMargin: string;
  maintenanceMargin: string;
  liquidationPrice: string;
}

export function leverageOf(sub: SubAccountState, symbol: string): number {
  return sub.leverage.get(symbol) ?? DEFAULT_LEVERAGE;
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

/** The figures of a position (venue or database view) at `mark`. */
export function positionMetrics(mark: string, fields: PositionFields): PositionMetrics {
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

function metricsNow(store: EngineStore, symbol: string, fields: PositionFields): PositionMetrics {
  return positionMetrics(store.market.markPrice(symbol), fields);
}

/** wallet + unrealized PnL − initial margin of open positions − margin reserved by working orders (USDT). */
export function available(store: EngineStore, sub: SubAccountState): string {
  let value = sub.wallet.get('USDT') ?? '0';
  for (const position of store.openPositions) {
    if (position.subAccountId !== sub.id) continue;
    const m = metricsNow(store, position.symbol, position.venue);
    value = decSub(decAdd(value, m.unrealizedPnl), m.initialMargin);
  }
  for (const order of store.working) {
    if (order.subAccountId !== sub.id || order.closing || order.reduceOnly) continue;
    const ref = order.price ?? order.stopPrice;
    if (ref === null) continue;
    const remaining = decSub(order.quantity, order.venue.executedQty);
    value = decSub(value, decDiv(decMul(remaining, ref), String(leverageOf(sub, order.symbol)), 8));
  }
  return value;
}

/** Σ unrealized PnL of the sub-account's open positions at the current marks. */
export function unrealized(store: EngineStore, sub: SubAccountState): string {
  let total = '0';
  for (const position of store.openPositions) {
    if (position.subAccountId === sub.id) {
      total = decAdd(total, metricsNow(store, position.symbol, position.venue).unrealizedPnl);
    }
  }
  return total;
}
