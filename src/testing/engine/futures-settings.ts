/** Futures settings of a sub-account: leverage per symbol, margin mode, and the account's position mode. */

import { badRequest, SimHttpError } from './errors.ts';
import { hasOpenPosition } from './positions.ts';
import type { AccountState, MarginType, PositionMode, SubAccountState } from './state.ts';
import type { EngineStore } from './store.ts';

export function setLeverage(
  store: EngineStore,
  sub: SubAccountState,
  symbol: string,
  leverage: number,
  force: boolean,
): void {
  if (hasOpenPosition(store, sub, symbol) && !force) {
    throw new SimHttpError(409, `Open position on ${symbol}: pass forceWithOpenPosition to change its leverage`, {
      code: 'OPEN_POSITION_LEVERAGE_GUARD',
    });
  }
  sub.leverage.set(symbol, leverage);
  for (const position of store.account(sub.accountId).positions) {
    if (position.subAccountId !== sub.id || position.symbol !== symbol || position.venue.status !== 'OPEN') continue;
    // The liquidation level is derived from leverage, so it is re-priced by this write.
    position.venue.leverage = leverage;
    if (position.db) position.db.leverage = leverage;
  }
}

/** Changes the sub-account's margin mode; false when it already was `marginType`. */
export function setMarginType(
  store: EngineStore,
  sub: SubAccountState,
  symbol: string,
  marginType: MarginType,
  force: boolean,
): boolean {
  if (sub.marginType === marginType) return false;
  if (hasOpenPosition(store, sub, symbol) && !force) {
    throw new SimHttpError(
      409,
      `Open position on ${symbol}: pass forceWithOpenPosition or use close-and-switch-margin`,
      {
        code: 'OPEN_POSITION_MARGIN_GUARD',
      },
    );
  }
  if (store.faults.takeMarginTypeReject()) {
    const details = { code: -4048, msg: 'Margin type cannot be changed if there exists position.' };
    throw badRequest(`Venue rejected the margin type change: ${details.msg} Use close-and-switch-margin.`, {
      code: 'OPEN_POSITION_MARGIN_REJECT',
      venueErrorCode: details.code,
      details,
    });
  }
  applyMarginType(store, sub, marginType);
  return true;
}

/** Switches the mode, and with it the mode shown on every open position of the sub-account. */
export function applyMarginType(store: EngineStore, sub: SubAccountState, marginType: MarginType): void {
  sub.marginType = marginType;
  for (const position of store.account(sub.accountId).positions) {
    if (position.subAccountId !== sub.id || position.venue.status !== 'OPEN') continue;
    position.venue.marginMode = marginType;
    if (position.db) position.db.marginMode = marginType;
  }
}

export function setPositionMode(store: EngineStore, account: AccountState, mode: PositionMode): void {
  for (const sub of account.subAccounts.values()) {
    if (hasOpenPosition(store, sub, undefined)) {
      throw badRequest('Position mode cannot be changed while a position is open', { venueErrorCode: -4068 });
    }
  }
  account.positionMode = mode;
}
