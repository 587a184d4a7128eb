import type { ClientContext } from '../../_internal/context.ts';
import { callEndpoint, checkParams } from '../../_internal/endpoint.ts';
import { pathIdParam, validateParams } from '../../_internal/validate.ts';
import { FuturesError } from '../../errors/futures-error.ts';
import type { CallOptions } from '../../options.ts';
import { type CancelOrderReturnType, cancel } from './cancel.ts';
import { type CreateOrderParameters, type CreateOrderReturnType, createOrderEndpoint } from './create.ts';
import { ReplaceOrderError } from './replace-order-error.ts';

// ── Schema ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The new order of `orders.replace` (same shape as `orders.create`).
 *
 * @example
 * ```ts
 * const { canceled, created } = await client.orders.replace(order.id, {
 *   symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '60500',
 * });
 * console.log(canceled.order.status, created.order.id); // 'CANCELED', new id
 * ```
 */
export type ReplaceOrderParameters = CreateOrderParameters;

/**
 * Both steps of a replace: the cancel response and the create response.
 *
 * @example
 * ```ts
 * import type { ReplaceOrderReturnType } from 'futures-sdk';
 * function newOrderId(result: ReplaceOrderReturnType): string {
 *   return result.created.order.id; // a new id: the replacement joins the back of the queue
 * }
 * ```
 */
export interface ReplaceOrderReturnType {
  /** Response of the cancel step; `canceled.order.status` is `CANCELED`. */
  canceled: CancelOrderReturnType;
  /** Response of the create step; `created.order` is the new order (new id, back of the queue). */
  created: CreateOrderReturnType;
}

// ── Execution ───────────────────────────────────────────────────────────────────────────────────────────────

/** Sends `orders.replace`; documented (with examples) on `replace` of `futures-sdk/orders` and on `client.orders.replace()`. */
export async function replace(
  ctx: ClientContext,
  id: string,
  params: ReplaceOrderParameters,
  options?: CallOptions,
): Promise<ReplaceOrderReturnType> {
  const validId = validateParams(pathIdParam, id, 'orders.replace (id)');
  // The new order is checked (and given its clientOrderId) before the old one is canceled.
  const body = checkParams(ctx, createOrderEndpoint, params, 'orders.replace');
  const subAccountId = body['subAccountId'];
  const canceled = await cancel(ctx, validId, typeof subAccountId === 'string' ? { subAccountId } : {}, options);
  try {
    const created = await callEndpoint(ctx, createOrderEndpoint, { checked: body, options });
    return { canceled, created };
  } catch (error) {
    const cause =
      error instanceof FuturesError
        ? error
        : new FuturesError('Placing the replacement order failed', { cause: error });
    throw new ReplaceOrderError({ oldOrderId: validId, canceled, clientOrderId: String(body['clientOrderId']), cause });
  }
}
