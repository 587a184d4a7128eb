import * as z from 'zod/mini';
import type { ClientContext } from '../../_internal/context.ts';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import type { CallOptions } from '../../options.ts';
import { okTrue } from '../../schemas/common.ts';
import { orderSchema } from '../../schemas/order.ts';

// ── Schema ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Response of `GET /v2/orders/:id`.
 *
 * @example
 * ```ts
 * const parsed = getOrderResponseSchema.safeParse(JSON.parse(text));
 * if (parsed.success) console.log(parsed.data);
 * ```
 */
export const getOrderResponseSchema = /* @__PURE__ */ pure(() => z.looseObject({ ok: okTrue, order: orderSchema }));

/**
 * `{ ok: true, order }`.
 *
 * @example
 * ```ts
 * const { order } = await client.orders.get(orderId);
 * if (order.status === 'FILLED') console.log('done');
 * ```
 */
export type GetOrderReturnType = z.infer<typeof getOrderResponseSchema>;

/** One order by id */
export const getEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'orders.get',
  method: 'GET',
  path: '/v2/orders/{id}',
  auth: 'signed',
  bucket: 'default',
  safety: 'idempotent',
  response: getOrderResponseSchema,
});

// ── Execution ───────────────────────────────────────────────────────────────────────────────────────────────

/** Sends `orders.get`; documented (with examples) on `get` of `futures-sdk/orders` and on `client.orders.get()`. */
export async function get(ctx: ClientContext, id: string, options?: CallOptions): Promise<GetOrderReturnType> {
  return await callEndpoint(ctx, getEndpoint, { id, options });
}
