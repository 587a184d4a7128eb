import type { CancelOrderReturnType } from '../actions/orders/cancel.ts';
import { FuturesError } from './futures-error.ts';

/**
 * `orders.replace` canceled the old order but could not place the new one. The old order is gone (there is no
 * rollback: the API has no amend and cancel + create is not atomic). `canceled` is the cancel result, `cause`
 * the error of the create step; `oldOrderId` is the id you passed.
 *
 * @example
 * ```ts
 * import { ReplaceOrderError } from 'futures-sdk';
 * try {
 *   await client.orders.replace(orderId, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '61000' });
 * } catch (err) {
 *   if (err instanceof ReplaceOrderError) {
 *     console.error('old order canceled, new one not placed:', err.cause);
 *   }
 * }
 * ```
 */
export class ReplaceOrderError extends FuturesError {
  override name = 'ReplaceOrderError';
  /** The id passed to `replace` (the order that is now canceled). */
  readonly oldOrderId: string;
  /** The response of the cancel step (`{ ok: true, order, venue }`); its `order.status` is `CANCELED`. */
  readonly canceled: CancelOrderReturnType;
  /** The error of the create step. */
  declare readonly cause: FuturesError;

  constructor(args: { oldOrderId: string; canceled: CancelOrderReturnType; cause: FuturesError }) {
    super(
      `Order ${args.oldOrderId} was canceled, but its replacement could not be placed: ${args.cause.shortMessage}. ` +
        'The old order is NOT restored; place a new order yourself if you still want one.',
      { cause: args.cause },
    );
    this.oldOrderId = args.oldOrderId;
    this.canceled = args.canceled;
  }
}
