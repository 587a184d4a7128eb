import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import { okTrue } from '../../schemas/common.ts';
import { orderSchema } from '../../schemas/order.ts';
import type { Strict } from '../../schemas/strict.ts';

/** Response of `GET /v2/orders/:id`. */
export const getOrderResponseSchema = /* @__PURE__ */ pure(() => z.looseObject({ ok: okTrue, order: orderSchema }));
/** `{ ok: true, order }`. */
export type GetOrderReturnType = Strict<z.infer<typeof getOrderResponseSchema>>;

/** One order by id */
export const getEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'orders.get',
  path: '/v2/orders/{id}',
  response: getOrderResponseSchema,
});

/**
 * `GET /v2/orders/:id` — one order by its backend `id` (a `venueOrderId` is not accepted here). The id is
 * percent-encoded into the path. Auth `API_KEY`, `default` bucket.
 *
 * @throws {RequestValidationError} empty id.
 * @throws {NotFoundError} no such order, or it belongs to another user.
 * @throws {AuthenticationError | RateLimitError | ServerError}
 *
 * @example
 * ```ts
 * import { get } from 'futures-sdk/orders';
 * const { order } = await get(client, orderId);
 * ```
 */
export async function get(client: BaseClient, id: string, options?: CallOptions): Promise<GetOrderReturnType> {
  return await callEndpoint(contextOf(client), getEndpoint, { id, options });
}
