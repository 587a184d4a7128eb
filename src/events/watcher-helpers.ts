// What the watcher derives from the API's rows outside its polling loop.

import type { ClientContext } from '../_internal/context.ts';
import { decCmp, decNormalize, isDecimalString } from '../_internal/decimal.ts';
import type { JournalEntry } from '../_internal/journal.ts';
import type { InternalCallOptions } from '../_internal/transport.ts';
import { myTrades as fetchMyTrades } from '../endpoints/on-context.ts';
import { FuturesError } from '../errors/futures-error.ts';
import type { Order, VenueOpenOrder } from '../schemas/order.ts';
import type { Position } from '../schemas/position.ts';
import type { AccountTrade } from '../schemas/trade.ts';
import { type MakerFillCarry, positionKey } from './detect-maker-fills.ts';
import type { AccountWatcherPollResult, PositionChange } from './watcher-types.ts';

export interface TrackedOrder {
  symbol: string;
  /** Sub-account the placing call named (undefined: the primary one), whose open orders list this order. */
  subAccountId: string | undefined;
  /** Status last reported (or the placing call's). */
  status: string;
  /** The venue's view of the order when the backend's row last agreed with it; undefined: read the row. */
  venueAgreed?: string | undefined;
  /** The backend's row as last read (its `venueOrderId` names the order in GET /v2/futures/open-orders). */
  row?: Order | undefined;
}

export function tracked(symbol: string, subAccountId: string | undefined, status: string): TrackedOrder {
  return { symbol, subAccountId, status };
}

export function fillOf(order: Order): string {
  for (const field of ['executedQty', 'filledQuantity', 'filledQty', 'cumQty']) {
    const value = (order as Record<string, unknown>)[field];
    if (typeof value === 'string' || typeof value === 'number') return String(value);
  }
  return '';
}

/** The key of an order in the open-orders map: the venue's integer id and a row's string id give the same key. */
export function venueKey(subAccountId: string | undefined, venueOrderId: string | number | undefined): string {
  return `${subAccountId ?? ''}\u0000${venueOrderId}`;
}

export function venueView(order: VenueOpenOrder): string {
  return `${order.status}\u0000${decNormalize(order.executedQty)}`;
}

/**
 * Whether the backend's row of a working order says what the venue says (the database lags maker fills until its
 * sync). The caller checks that `row.status` is a working one; `fill` is `fillOf(row)`.
 */
export function rowAgrees(row: Order, fill: string, venue: VenueOpenOrder): boolean {
  return isDecimalString(fill) ? decCmp(fill, venue.executedQty) === 0 : row.status === venue.status;
}

/**
 * New taker trades of `symbols` (myTrades from each one's last seen id). A symbol never read gives all its rows at
 * the baseline (`since` undefined), else those after `since`; -1: read, no rows yet (all its rows are new).
 */
export async function readTrades(
  ctx: ClientContext,
  symbols: ReadonlySet<string>,
  lastIds: ReadonlyMap<string, number>,
  since: number | undefined,
  subAccountId: string | undefined,
  call: InternalCallOptions,
): Promise<{ trades: AccountTrade[]; nextIds: Map<string, number> }> {
  const trades: AccountTrade[] = [];
  const nextIds = new Map<string, number>();
  for (const symbol of symbols) {
    const last = lastIds.get(symbol);
    const fromId = (last ?? -1) >= 0 ? last : undefined;
    const query = { symbol, ...(fromId === undefined ? {} : { fromId }), ...(subAccountId ? { subAccountId } : {}) };
    const { data } = await fetchMyTrades(ctx, query, call);
    let maxId = last ?? -1;
    for (const trade of data) {
      maxId = Math.max(maxId, trade.id);
      if (last !== undefined || since === undefined || trade.time > since) trades.push(trade);
    }
    nextIds.set(symbol, maxId);
  }
  return { trades, nextIds };
}

/** The carry, with creates whose orders are all done marked explained (their trades say all they did). */
export function withDoneCalls(
  carry: MakerFillCarry | undefined,
  entries: readonly JournalEntry[],
  finalOrders: Set<string>,
): MakerFillCarry | undefined {
  const live = new Set(entries.flatMap((entry) => entry.orders.map((order) => order.id)));
  for (const id of finalOrders) if (!live.has(id)) finalOrders.delete(id);
  const done = entries.filter((e) => e.orders.length > 0 && e.orders.every((o) => finalOrders.has(o.id)));
  if (done.length === 0 || !carry) return carry;
  return { ...carry, explained: [...(carry.explained ?? []), ...done.map((entry) => entry.id)] };
}

export function stoppedResult(message: string): AccountWatcherPollResult {
  return { ok: false, error: new FuturesError(message), stopped: true };
}

export function positionChanges(previous: readonly Position[], current: readonly Position[]): PositionChange[] {
  const byKey = (positions: readonly Position[]) =>
    new Map(positions.map((p) => [positionKey(p.symbol, p.positionSide), p]));
  const before = byKey(previous);
  const after = byKey(current);
  const changes: PositionChange[] = [];
  // Every key once, in order; `ref`: the position now, else the one before.
  for (const [key, ref] of new Map([...before, ...after])) {
    const now = after.get(key);
    const previousQuantity = before.get(key)?.quantity ?? '0';
    const quantity = now?.quantity ?? '0';
    if (decCmp(previousQuantity, quantity) !== 0) {
      changes.push({ symbol: ref.symbol, positionSide: ref.positionSide, previousQuantity, quantity, position: now });
    }
  }
  return changes;
}
