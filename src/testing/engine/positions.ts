/**
 * The position book: finding positions, growing and shrinking them on fills (realized PnL into the wallet), closing
 * them into the history, and committing the venue view to the database with a `position_update`.
 */

import { decAbs, decAdd, decDiv, decMul, decNeg, decSub } from '../../_internal/decimal.ts';
import { isZero, r8 } from './amounts.ts';
import { leverageOf } from './margin.ts';
import type { AccountState, PositionSide, PositionState, SubAccountState } from './state.ts';
import type { EngineStore } from './store.ts';

export function findOpenPosition(
  store: EngineStore,
  subAccountId: string,
  symbol: string,
  positionSide: PositionSide,
): PositionState | undefined {
  for (const position of store.openPositions) {
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

export function getPosition(account: AccountState, positionId: string): PositionState | undefined {
  return account.positions.find((p) => p.id === positionId);
}

/** The database's positions of an account, `OPEN` or `CLOSED`. */
export function dbPositions(account: AccountState, status: 'OPEN' | 'CLOSED'): PositionState[] {
  return account.positions.filter((p) => p.db?.status === status);
}

/** Open on the venue or in the database (the guards are the backend's, which sees both). */
export function hasOpenPosition(store: EngineStore, sub: SubAccountState, symbol: string | undefined): boolean {
  return store
    .account(sub.accountId)
    .positions.some(
      (p) =>
        p.subAccountId === sub.id &&
        (symbol === undefined || p.symbol === symbol) &&
        (p.venue.status === 'OPEN' || p.db?.status === 'OPEN'),
    );
}

/**
 * Copies the venue view into the database and pushes `position_update`; the key's other positions (the one a
 * one-way flip closed or opened) are written with it, so the database never shows half a flip.
 */
export function commitPosition(store: EngineStore, position: PositionState): void {
  for (const other of store.account(position.accountId).positions) {
    if (
      other === position ||
      other.subAccountId !== position.subAccountId ||
      other.symbol !== position.symbol ||
      other.positionSide !== position.positionSide
    ) {
      continue;
    }
    // Opened and closed between two writes: never shown, but what its fills did is now in the key's rows.
    if (other.db === undefined && other.venue.status === 'CLOSED') markShown(store, other);
    else if (JSON.stringify(other.db) !== JSON.stringify(other.venue)) commitOne(store, other);
  }
  commitOne(store, position);
}

function commitOne(store: EngineStore, position: PositionState): void {
  position.db = { ...position.venue };
  markShown(store, position);
  store.emit(position.accountId, { event: 'position_update', position });
}

/** The maker-fill oracle: a fill is shown once every position it moved has been written. */
function markShown(store: EngineStore, position: PositionState): void {
  for (const fill of store.account(position.accountId).makerFills) {
    if (fill.syncedAt === undefined && fill.unsynced.delete(position.id) && fill.unsynced.size === 0) {
      fill.syncedAt = store.now();
    }
  }
}

/** Opens or grows the position on (sub, symbol, side) by `qty` at `price`; the entry price is the weighted mean. */
export function increase(
  store: EngineStore,
  sub: SubAccountState,
  symbol: string,
  positionSide: PositionSide,
  dir: 1 | -1,
  qty: string,
  price: string,
): PositionState {
  const now = store.now();
  let position = findOpenPosition(store, sub.id, symbol, positionSide);
  if (!position) {
    position = {
      id: store.ids.next('pos'),
      venuePositionId: `${symbol}-${positionSide}-${store.ids.nextNumber('venuePosition')}`,
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
        leverage: leverageOf(sub, symbol),
        marginMode: sub.marginType,
        status: 'OPEN',
        closeReason: null,
        closedAt: null,
        liquidatedAt: null,
        updatedAt: now,
      },
      db: undefined,
    };
    store.account(sub.accountId).positions.push(position);
    store.openPositions.add(position);
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
export function reduce(
  store: EngineStore,
  position: PositionState,
  qty: string,
  price: string,
  reason: string,
): string {
  const v = position.venue;
  const sub = store.sub(position.subAccountId);
  const pnl = r8(decMul(decMul(decSub(price, v.avgEntryPrice), qty), String(position.direction)));
  v.realizedPnl = decAdd(v.realizedPnl, pnl);
  sub.wallet.set('USDT', decAdd(sub.wallet.get('USDT') ?? '0', pnl));
  const size = decSub(decAbs(v.quantity), qty);
  v.quantity = position.direction === 1 ? size : decNeg(size);
  v.updatedAt = store.now();
  position.closedQty = decAdd(position.closedQty, qty);
  position.closedNotional = decAdd(position.closedNotional, decMul(qty, price));
  if (isZero(size)) closePositionState(store, position, reason);
  return pnl;
}

function closePositionState(store: EngineStore, position: PositionState, reason: string): void {
  const now = store.now();
  const v = position.venue;
  v.status = 'CLOSED';
  v.closedAt = now;
  v.closeReason = reason;
  v.quantity = '0';
  store.openPositions.delete(position);
  store.account(position.accountId).history.push({
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
