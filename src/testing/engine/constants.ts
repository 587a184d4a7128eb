/** The simulated venue's fixed numbers and messages (public through `futures-sdk/testing`). */

/**
 * Commission rate on taker fills (MARKET orders, marketable LIMITs, triggered stops, closes).
 *
 * @example
 * ```ts
 * import { TAKER_FEE_RATE } from 'futures-sdk/testing'; // '0.0005': 0.3 USDT on a 600 USDT fill
 * ```
 */
export const TAKER_FEE_RATE = '0.0005';
/**
 * Commission rate on maker fills (resting LIMITs).
 *
 * @example
 * ```ts
 * import { MAKER_FEE_RATE } from 'futures-sdk/testing'; // '0.0002'
 * ```
 */
export const MAKER_FEE_RATE = '0.0002';
/**
 * Maintenance margin as a fraction of notional.
 *
 * @example
 * ```ts
 * import { MAINTENANCE_MARGIN_RATE } from 'futures-sdk/testing'; // '0.005'
 * ```
 */
export const MAINTENANCE_MARGIN_RATE = '0.005';
/**
 * Leverage of a symbol nobody has set.
 *
 * @example
 * ```ts
 * import { DEFAULT_LEVERAGE } from 'futures-sdk/testing'; // 20
 * ```
 */
export const DEFAULT_LEVERAGE = 20;
/**
 * How long a deposit or withdrawal stays PENDING before it settles (ms of server time).
 *
 * @example
 * ```ts
 * ex.deposit(accountId, 'USDT', '100');
 * ex.advance(TRANSFER_SETTLE_MS); // now SUCCESS and credited
 * ```
 */
export const TRANSFER_SETTLE_MS = 2_000;
/**
 * Funding is exchanged every 8 h of server time, at 00:00, 08:00 and 16:00 UTC.
 *
 * @example
 * ```ts
 * ex.market.setFundingRate('BTCUSDT', '0.0001');
 * ex.advance(FUNDING_INTERVAL_MS); // one funding time passed: a long paid 0.01 % of its notional at the mark
 * ```
 */
export const FUNDING_INTERVAL_MS = 8 * 3_600_000;
/**
 * The error of the closing-order reservation rule, verbatim from the spec.
 *
 * @example
 * ```ts
 * import { CLOSE_QUANTITY_ERROR } from 'futures-sdk/testing';
 * // A reduce-only order larger than the position is refused with the venue's wording:
 * const tooLarge = { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '100', reduceOnly: true } as const;
 * await expect(client.orders.create(tooLarge)).rejects.toMatchObject({ error: CLOSE_QUANTITY_ERROR });
 * ```
 */
export const CLOSE_QUANTITY_ERROR = 'Close quantity exceeds available position quantity';
