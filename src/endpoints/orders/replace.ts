import { checkPathId } from '../../_internal/context.ts';
import { callEndpoint, checkParams } from '../../_internal/endpoint.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import { FuturesError } from '../../errors/futures-error.ts';
import type { CallOptions } from '../../options.ts';
import { type CancelOrderReturnType, cancel } from './cancel.ts';
import { type CreateOrderParameters, type CreateOrderReturnType, createOrderEndpoint } from './create.ts';
import { ReplaceOrderError } from './replace-order-error.ts';

/** The new order of `orders.replace` (same shape as `orders.create`). */
export type ReplaceOrderParameters = CreateOrderParameters;

/** Both steps of a replace: the cancel response and the create response. */
export interface ReplaceOrderReturnType {
  /** Response of the cancel step; `canceled.order.status` is `CANCELED`. */
  canceled: CancelOrderReturnType;
  /** Response of the create step; `created.order` is the new order (new id, back of the queue). */
  created: CreateOrderReturnType;
}

/**
 * Replaces a working order: cancel (`POST /v2/orders/:id/cancel`) then create (`POST /v2/orders`). The API
 * has no amend, so this is two calls and NOT atomic: the order loses its queue position, and between the two
 * steps you have no order at all. Auth `API_KEY (TRADE)`; buckets: `default` for the cancel, `orders` for the
 * create.
 *
 * The new order is validated before anything is sent. The create step's `subAccountId` (or the client's) is
 * also used for the cancel. The create keeps one `clientOrderId` across its retries, so it cannot place twice.
 *
 * @throws {RequestValidationError} bad id or bad new-order params: nothing was canceled.
 * @throws {ApiError | ConnectionError | TimeoutError} the cancel failed: nothing was created (the old order may
 *   still be working — check with `orders.get`).
 * @throws {ReplaceOrderError} the cancel succeeded but the create failed: the old order is gone,
 *   `err.canceled` is the cancel result, `err.cause` the create error, `err.clientOrderId` the id the create
 *   sent; `err.createOutcomeUnknown` says whether the new order may have been placed anyway (5xx, timeout).
 *
 * @example
 * ```ts
 * import { replace } from 'futures-sdk/orders';
 * const { created } = await replace(client, orderId, {
 *   symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '60500',
 * });
 * ```
 */
export async function replace(
  client: BaseClient,
  id: string,
  params: ReplaceOrderParameters,
  options?: CallOptions,
): Promise<ReplaceOrderReturnType> {
  const ctx = contextOf(client);
  const validId = checkPathId(id, 'orders.replace (id)');
  // The new order is checked (and given its clientOrderId) before the old one is canceled.
  const body = checkParams(ctx, createOrderEndpoint, params, 'orders.replace');
  const subAccountId = body['subAccountId'];
  const canceled = await cancel(client, validId, typeof subAccountId === 'string' ? { subAccountId } : {}, options);
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
