// What the watcher derives from the API's rows outside its polling loop: an order's filled quantity and venue view,
// whether a backend row agrees with the venue, and the position changes between two polls.
import { decCmp, decNormalize, isDecimalString } from '../_internal/decimal.ts';
import { FuturesError } from '../errors/futures-error.ts';
import { type Order, type VenueOpenOrder, WORKING_ORDER_STATUSES } from '../schemas/order.ts';
import type { Position } from '../schemas/position.ts';
import type { PositionQuantity } from './detect-maker-fills.ts';
import { positionKey } from './position-key.ts';
import type { AccountWatcherPollResult, PositionChange } from './watcher-types.ts';

export const FILL_FIELDS = ['executedQty', 'filledQuantity', 'filledQty', 'cumQty'] as const;

export function fillOf(order: Order): string {
  for (const field of FILL_FIELDS) {
    const value = (order as Record<string, unknown>)[field];
    if (typeof value === 'string' || typeof value === 'number') return String(value);
  }
  return '';
}

export function venueKey(subAccountId: string | undefined, venueOrderId: string): string {
  return `${subAccountId ?? ''}\u0000${venueOrderId}`;
}

export function venueView(order: VenueOpenOrder): string {
  return `${order.status}\u0000${decNormalize(order.executedQty)}`;
}

/** Whether the backend's row says what the venue says (the database lags maker fills until its sync). */
export function rowAgrees(row: Order, venue: VenueOpenOrder): boolean {
  if (!WORKING_ORDER_STATUSES.includes(row.status)) return false;
  const fill = fillOf(row);
  return isDecimalString(fill) ? decCmp(fill, venue.executedQty) === 0 : row.status === venue.status;
}

export function quantityOf(position: Position): PositionQuantity {
  return {
    symbol: position.symbol,
    positionSide: position.positionSide,
    quantity: position.quantity,
    id: position.id,
    updatedAt: position.updatedAt,
  };
}

export function stoppedResult(message: string): AccountWatcherPollResult {
  return { ok: false, error: new FuturesError(message), stopped: true };
}

export function positionChanges(previous: readonly Position[], current: readonly Position[]): PositionChange[] {
  const before = new Map(previous.map((p) => [positionKey(p.symbol, p.positionSide), p]));
  const after = new Map(current.map((p) => [positionKey(p.symbol, p.positionSide), p]));
  const changes: PositionChange[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(key);
    const now = after.get(key);
    const previousQuantity = old?.quantity ?? '0';
    const quantity = now?.quantity ?? '0';
    if (decCmp(previousQuantity, quantity) === 0) continue;
    const ref = (now ?? old)!;
    changes.push({ symbol: ref.symbol, positionSide: ref.positionSide, previousQuantity, quantity, position: now });
  }
  return changes;
}
