import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import { okTrue, venuePassthroughSchema } from '../../schemas/common.ts';
import { orderSchema } from '../../schemas/order.ts';
import type { Strict } from '../../schemas/strict.ts';
import { subAccountIdParam } from '../_shared.ts';

/** Options of `orders.cancel`. */
export interface CancelOrderParameters {
  /** Sub-account of the order; defaults to the client's `subAccountId`. */
  subAccountId?: string | undefined;
}

/** Run-time check of {@link CancelOrderParameters}. */
export const cancelOrderParamsSchema = /* @__PURE__ */ pure(() => z.strictObject({ subAccountId: subAccountIdParam }));

/** Response of `POST /v2/orders/:id/cancel`. */
export const cancelOrderResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, order: orderSchema, venue: venuePassthroughSchema }),
);
/** `{ ok: true, order (status CANCELED), venue }`. */
export type CancelOrderReturnType = Strict<z.infer<typeof cancelOrderResponseSchema>>;

/** Cancels one order */
export const cancelEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'orders.cancel',
  method: 'POST',
  path: '/v2/orders/{id}/cancel',
  killSwitch: true,
  params: cancelOrderParamsSchema,
  subAccountDefault: true,
  response: cancelOrderResponseSchema,
});

/**
 * `POST /v2/orders/:id/cancel` — cancels one working order, by backend `id` or `venueOrderId` (percent-encoded into the
 * path). Auth `API_KEY (TRADE)`, `default` bucket. Not blindly retried: a repeat could hit an order that was already
 * canceled, so only a 429 or a refused connection (the server certainly did nothing) is retried. The body is
 * `{ subAccountId }` when one is given or set on the client, `{}` otherwise.
 *
 * @throws {RequestValidationError} empty id, unknown keys.
 * @throws {NotFoundError} no such working order.
 * @throws {PermissionDeniedError} key lacks TRADE, or `Unauthorized subAccountId`.
 * @throws {TimeoutError | ConnectionError} the outcome is unknown: read the order with `orders.get` before retrying.
 *
 * @example
 * ```ts
 * import { cancel } from 'futures-sdk/orders';
 * await cancel(client, orderId);
 * ```
 */
export async function cancel(
  client: BaseClient,
  id: string,
  params: CancelOrderParameters = {},
  options?: CallOptions,
): Promise<CancelOrderReturnType> {
  return await callEndpoint(contextOf(client), cancelEndpoint, { id, params, options });
}
