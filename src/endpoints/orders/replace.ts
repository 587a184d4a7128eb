import { checkPathId } from '../../_internal/context.ts';
import { callEndpoint, checkParams } from '../../_internal/endpoint.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import { AbortError } from '../../errors/abort-error.ts';
import { ApiError, ServerError } from '../../errors/api-error.ts';
import { ConnectionError } from '../../errors/connection-error.ts';
import { FuturesError } from '../../errors/futures-error.ts';
import { RedirectError } from '../../errors/redirect-error.ts';
import { ResponseValidationError } from '../../errors/response-validation-error.ts';
import { TimeoutError } from '../../errors/timeout-error.ts';
import type { CallOptions } from '../../options.ts';
import { type CancelOrderReturnType, cancel } from './cancel.ts';
import { type CreateOrderParameters, type CreateOrderReturnType, createOrderEndpoint } from './create.ts';

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
 * Replaces a working order: cancel (`POST /v2/orders/:id/cancel`) then create (`POST /v2/orders`). The API has no
 * amend, so this is two calls and NOT atomic: the order loses its queue position, and between the two steps you
 * have no order at all. Auth `API_KEY (TRADE)`; `default` bucket for the cancel, `orders` for the create. The new
 * order is validated first; its `subAccountId` (or the client's) is also used for the cancel; its `clientOrderId`
 * stays the same across retries, so it cannot place twice.
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

/** Whether a failed create may still have placed the order. */
function mayHaveBeenPlaced(error: FuturesError): boolean {
  // outcomeUnknown: any attempt may have reached the server (even if the last got a 429). A ResponseValidationError
  // is a 2xx with an unreadable body; a redirect may come after the server acted.
  if (
    error.outcomeUnknown ||
    error instanceof ServerError ||
    error instanceof ResponseValidationError ||
    error instanceof RedirectError
  ) {
    return true;
  }
  if (error instanceof ApiError) return false; // a 4xx: the server refused the order
  if (error instanceof ConnectionError) return !error.neverSent;
  return error instanceof TimeoutError || error instanceof AbortError;
}

/**
 * `orders.replace` canceled the old order but the new one was not (or not certainly) placed; the old order is gone,
 * with no rollback. `canceled` is the cancel step's response, `cause` the create error. When `createOutcomeUnknown`
 * (5xx, timeout, dropped connection, abort, unreadable 2xx), repeat `orders.create` with the same params and
 * `clientOrderId`: the server answers with the existing order (`idempotent: true`) instead of placing a second one.
 *
 * @example
 * ```ts
 * import { ReplaceOrderError } from 'futures-sdk';
 * const params = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '61000' } as const;
 * try {
 *   await client.orders.replace(orderId, params);
 * } catch (err) {
 *   if (!(err instanceof ReplaceOrderError)) throw err;
 *   console.error(`order ${err.oldOrderId} is canceled:`, err.cause.message);
 *   if (err.createOutcomeUnknown) {
 *     await client.orders.create({ ...params, clientOrderId: err.clientOrderId }); // safe: idempotent
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
  /** The `clientOrderId` the create step sent (yours, or the UUID v4 the SDK generated). */
  override readonly clientOrderId: string;
  /** True when the create may have placed the order anyway (5xx, timeout, dropped connection, abort, unreadable 2xx). */
  readonly createOutcomeUnknown: boolean;
  /** The error of the create step. */
  declare readonly cause: FuturesError;

  constructor(args: Pick<ReplaceOrderError, 'oldOrderId' | 'canceled' | 'clientOrderId' | 'cause'>) {
    const unknown = mayHaveBeenPlaced(args.cause);
    super(
      `Order ${args.oldOrderId} was canceled, but ${
        unknown
          ? `it is not known whether its replacement (clientOrderId ${args.clientOrderId}) was placed`
          : 'its replacement could not be placed'
      }: ${args.cause.shortMessage}. The old order is NOT restored; ${
        unknown
          ? 'repeat orders.create with the same clientOrderId to find out (it cannot place twice).'
          : 'place a new order if you still want one.'
      }`,
      { cause: args.cause },
    );
    this.oldOrderId = args.oldOrderId;
    this.canceled = args.canceled;
    this.clientOrderId = args.clientOrderId;
    this.createOutcomeUnknown = unknown;
    (this as { outcomeUnknown: boolean }).outcomeUnknown = unknown;
  }
}
