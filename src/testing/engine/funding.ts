/** Funding: every 8 h of server time, open positions exchange |qty| × mark × the period's rate. */

import { decAdd, decMul, decNeg } from '../../_internal/decimal.ts';
import { isZero, r8 } from './amounts.ts';
import type { EngineStore } from './store.ts';

/**
 * Funding at `at`: every position open on the venue since before then pays (or receives) |qty| × mark × rate,
 * where the rate is the one published for the period that ends at `at`. Longs pay a positive rate, shorts
 * receive it. The backend books it in the wallet and in `fundingFee` (signed income) of the venue and database
 * rows alike, so it pushes nothing. The mark is the one at catch-up time; a `null` rate pays nothing.
 */
export function applyFunding(store: EngineStore, at: number): void {
  for (const position of store.openPositions) {
    if (position.openedAt >= at) continue;
    const rate = store.market.fundingRate(position.symbol, at - 1);
    if (rate === null || isZero(rate)) continue;
    const mark = store.market.markPrice(position.symbol);
    const income = r8(decNeg(decMul(decMul(position.venue.quantity, mark), rate)));
    if (isZero(income)) continue;
    const sub = store.sub(position.subAccountId);
    sub.wallet.set('USDT', decAdd(sub.wallet.get('USDT') ?? '0', income));
    position.venue.fundingFee = decAdd(position.venue.fundingFee, income);
    if (position.db?.status === 'OPEN') position.db.fundingFee = decAdd(position.db.fundingFee, income);
  }
}
