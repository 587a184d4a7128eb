/**
 * The backend's timed work, caught up lazily against the virtual clock (nothing runs on a real timer): mark
 * walks and their checks, funding times, venue acks, transfer settlement, and the position-sync worker.
 */

import { FUNDING_INTERVAL_MS } from './constants.ts';
import { applyFunding } from './funding.ts';
import { processMarks } from './marks.ts';
import { commitPosition } from './positions.ts';
import type { EngineStore } from './store.ts';
import { settleTransfers } from './transfers.ts';

/**
 * Catches every timed process up to the clock: mark walks (fills, triggers, liquidations), funding, venue
 * acks, transfers, sync.
 */
export function tick(store: EngineStore): void {
  store.market.advance();
  processMarks(store);
  const now = store.now();
  while (now >= store.nextFundingAt) {
    applyFunding(store, store.nextFundingAt);
    store.nextFundingAt += FUNDING_INTERVAL_MS;
  }
  recordAcks(store, now);
  for (const account of store.accounts.values()) settleTransfers(account, now);
  if (now >= store.nextSyncAt) {
    sync(store);
    const interval = store.config.syncIntervalMs;
    store.nextSyncAt += Math.ceil((now - store.nextSyncAt + 1) / interval) * interval;
  }
}

/** The worker's sync: copies venue state into the database and pushes `position_update` for each change. */
export function sync(store: EngineStore): void {
  for (const account of store.accounts.values()) {
    for (const position of account.positions) {
      if (JSON.stringify(position.venue) !== JSON.stringify(position.db)) commitPosition(store, position);
    }
    for (const order of account.orders) {
      // A row still waiting for its venue ack keeps PENDING_NEW until the ack is recorded.
      if (store.pendingAcks.has(order) && order.db.status === 'PENDING_NEW') continue;
      // Maker fills reach the database here, silently: the spec forbids order_update for them.
      if (JSON.stringify(order.venue) !== JSON.stringify(order.db)) order.db = { ...order.venue };
    }
  }
}

/** Records the venue ack of every order whose PENDING_NEW row is due: NEW, pushed as `order_update`. */
function recordAcks(store: EngineStore, now: number): void {
  for (const [order, ackAt] of store.pendingAcks) {
    if (ackAt > now) continue;
    store.pendingAcks.delete(order);
    // A cancel or a taker fill already wrote the row; only a row still PENDING_NEW flips.
    if (order.db.status !== 'PENDING_NEW') continue;
    order.db = { ...order.db, status: 'NEW', updatedAt: ackAt };
    store.emitOrder('order_update', order);
  }
}
