import type { CancelAllOrdersReturnType } from '../actions/orders/cancel-all.ts';
import type { CancelAllResultEntry } from '../schemas/order.ts';
import { AbortError } from './abort-error.ts';

/**
 * What `orders.cancelAll({ includeConditional: true })` had done when the caller's signal fired after the bulk
 * cancel (see {@link CancelAllAbortedError}).
 *
 * @example
 * ```ts
 * import type { CancelAllPartialResult } from 'futures-sdk';
 * function stillWorking(partial: CancelAllPartialResult): string[] {
 *   return [...(partial.interrupted ? [partial.interrupted.orderId] : []), ...partial.notReached.map((o) => o.orderId)];
 * }
 * ```
 */
export interface CancelAllPartialResult {
  /** The server's bulk cancel response (`DELETE /v2/orders/open`, regular orders): it completed. */
  bulk: CancelAllOrdersReturnType;
  /** Conditional orders settled before the abort, as in `results` of a completed call (`conditional: true`). */
  conditional: CancelAllResultEntry[];
  /**
   * The conditional order whose cancel the abort cut short. `outcomeUnknown: true` when its request had left
   * (it may be canceled: read it back with `orders.get`); false when it was never sent (it is still working).
   */
  interrupted: { orderId: string; symbol: string; outcomeUnknown: boolean };
  /** Conditional orders the sweep did not reach: still working. */
  notReached: Array<{ orderId: string; symbol: string }>;
}

/**
 * `orders.cancelAll({ includeConditional: true })` was aborted after its bulk cancel ran, while it was canceling
 * conditional orders one by one. It is an {@link AbortError} with `outcomeUnknown: true` (orders WERE canceled),
 * and `partial` says exactly what was done and what is left.
 *
 * @example
 * ```ts
 * import { CancelAllAbortedError } from 'futures-sdk';
 * try {
 *   await client.orders.cancelAll({ includeConditional: true }, { signal });
 * } catch (err) {
 *   if (!(err instanceof CancelAllAbortedError)) throw err;
 *   const { bulk, conditional, interrupted, notReached } = err.partial;
 *   console.log(`${bulk.canceled} regular and ${conditional.length} conditional orders handled`);
 *   console.warn('maybe still working:', interrupted.orderId, notReached.map((o) => o.orderId));
 * }
 * ```
 */
export class CancelAllAbortedError extends AbortError {
  override name = 'CancelAllAbortedError';
  /** What was done before the abort, and which conditional orders may still be working. */
  readonly partial: CancelAllPartialResult;

  constructor(args: { partial: CancelAllPartialResult; cause: AbortError }) {
    const { bulk, conditional, interrupted, notReached } = args.partial;
    const canceledConditional = conditional.filter((entry) => entry.status === 'CANCELED').length;
    super({
      method: 'POST',
      path: `/v2/orders/${interrupted.orderId}/cancel`,
      details:
        `orders.cancelAll: the bulk cancel already canceled ${bulk.canceled} of ${bulk.total} regular orders and ` +
        `${canceledConditional} conditional orders were canceled; order ${interrupted.orderId} ` +
        `${interrupted.outcomeUnknown ? 'may or may not be canceled' : 'is still working'} and ${notReached.length} ` +
        'more conditional orders were not reached (see `partial`).',
      cause: args.cause,
    });
    this.partial = args.partial;
    (this as { outcomeUnknown: boolean }).outcomeUnknown = true;
  }
}
