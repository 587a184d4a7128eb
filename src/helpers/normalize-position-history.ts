import type { ClosedPositionRecord } from '../schemas/trade.ts';

/** A closed-position record with the names other endpoints use added next to the venue's own. */
export type NormalizedPositionRecord = ClosedPositionRecord & {
  /** `'LONG'` for `orderSide` 1, `'SHORT'` for 2. */
  side: 'LONG' | 'SHORT';
  /** = `entryPrice`. */
  avgEntryPrice: string;
  /** = `averageClosePrice`. */
  avgClosePrice: string;
  /** = `realizedPnL` (note the venue's capital L). */
  realizedPnl: string;
  /** = `totalClosedQuantity`. */
  qty: string;
};

/**
 * Adds the names the rest of the API uses to a `positionHistory` record: `side` (`'LONG'` for `orderSide` 1,
 * `'SHORT'` for 2), `avgEntryPrice`, `avgClosePrice`, `realizedPnl` and `qty`. Every original field is kept.
 * @example
 * ```ts
 * import { normalizePositionHistory } from 'futures-sdk';
 * const { data } = await client.orders.positionHistory();
 * for (const p of data.map(normalizePositionHistory)) console.log(p.symbol, p.side, p.qty, p.realizedPnl);
 * ```
 */
export function normalizePositionHistory(record: ClosedPositionRecord): NormalizedPositionRecord {
  return {
    ...record,
    side: record.orderSide === 1 ? 'LONG' : 'SHORT',
    avgEntryPrice: record.entryPrice,
    avgClosePrice: record.averageClosePrice,
    realizedPnl: record.realizedPnL,
    qty: record.totalClosedQuantity,
  };
}
