/** What tests and the account channel see of an account as a whole: `ex.account()` and `full_snapshot`. */

import { iso } from './engine/ids.ts';
import { available } from './engine/margin.ts';
import { dbPositions } from './engine/positions.ts';
import { WORKING } from './engine/state.ts';
import type { EngineStore } from './engine/store.ts';
import type { AccountView } from './exchange-types.ts';
import { balanceAssetsWire, orderWire, positionWire, tradeWire, transferWire } from './http/routes/shapes.ts';

/** A deep-copied view of an account for assertions. */
export function accountView(store: EngineStore, accountId: string): AccountView {
  const account = store.account(accountId);
  const primary = store.primarySub(account);
  return {
    accountId: account.id,
    primarySubAccountId: account.primarySubAccountId,
    positionMode: account.positionMode,
    subAccounts: [...account.subAccounts.values()].map((sub) => ({
      subAccountId: sub.id,
      marginType: sub.marginType,
      leverage: Object.fromEntries(sub.leverage),
      balances: Object.fromEntries(sub.wallet),
      availableBalance: available(store, sub),
    })),
    balances: primary ? Object.fromEntries(primary.wallet) : {},
    venuePositions: account.positions
      .filter((p) => p.venue.status === 'OPEN')
      .map((p) => ({
        id: p.id,
        symbol: p.symbol,
        positionSide: p.positionSide,
        quantity: p.venue.quantity,
        avgEntryPrice: p.venue.avgEntryPrice,
      })),
    positions: account.positions.filter((p) => p.db).map((p) => positionWire(store.market, p)),
    orders: account.orders.map((o) => orderWire(o)),
    venueOrderStatus: Object.fromEntries(account.orders.map((o) => [o.id, o.venue.status])),
    trades: account.trades.map(tradeWire),
    makerFills: account.makerFills.map(({ unsynced, qty, ...fill }) => ({
      ...fill,
      quantity: fill.side === 'SELL' ? `-${qty}` : qty,
    })),
    transfers: account.transfers.map(transferWire),
  };
}

/** The data of a `full_snapshot` push: open positions and working orders (database view), balances, time. */
export function channelSnapshot(store: EngineStore, accountId: string): unknown {
  const account = store.account(accountId);
  const sub = store.primarySub(account);
  return {
    positions: dbPositions(account, 'OPEN').map((p) => positionWire(store.market, p)),
    openOrders: account.orders.filter((o) => WORKING.has(o.db.status)).map((o) => orderWire(o)),
    balances: sub ? balanceAssetsWire(store, sub) : [],
    time: iso(store.now()),
  };
}
