import * as z from 'zod/mini';
import type { ClientContext } from '../../_internal/context.ts';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import type { CallOptions } from '../../options.ts';
import { okTrue, venuePassthroughSchema } from '../../schemas/common.ts';
import { orderSchema } from '../../schemas/order.ts';
import { subAccountIdParam } from '../_shared.ts';

// ── Schema ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Options of `orders.cancel`.
 *
 * @example
 * ```ts
 * const { order } = await client.orders.cancel(orderId);
 * console.log(order.status); // 'CANCELED'
 * ```
 */
export interface CancelOrderParameters {
  /** Sub-account of the order; defaults to the client's `subAccountId`. */
  subAccountId?: string | undefined;
}

/**
 * Run-time check of {@link CancelOrderParameters}.
 *
 * @example
 * ```ts
 * const check = cancelOrderParamsSchema.safeParse(input); // the rules the SDK applies before sending
 * if (!check.success) console.log(check.error.issues);
 * ```
 */
export const cancelOrderParamsSchema = /* @__PURE__ */ pure(() => z.strictObject({ subAccountId: subAccountIdParam }));

/**
 * Response of `POST /v2/orders/:id/cancel`.
 *
 * @example
 * ```ts
 * const parsed = cancelOrderResponseSchema.safeParse(JSON.parse(text));
 * if (parsed.success) console.log(parsed.data);
 * ```
 */
export const cancelOrderResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    ok: okTrue,
    order: orderSchema,
    venue: venuePassthroughSchema,
  }),
);

/**
 * `{ ok: true, order (status CANCELED), venue }`.
 *
 * @example
 * ```ts
 * import type { CancelOrderReturnType } from 'futures-sdk';
 * const result: CancelOrderReturnType = await client.orders.cancel(orderId);
 * console.log(result.ok); // true: every success carries the envelope
 * ```
 */
export type CancelOrderReturnType = z.infer<typeof cancelOrderResponseSchema>;

/** Cancels one order */
export const cancelEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'orders.cancel',
  method: 'POST',
  path: '/v2/orders/{id}/cancel',
  auth: 'signed',
  bucket: 'default',
  safety: 'at-most-once',
  killSwitch: true,
  params: cancelOrderParamsSchema,
  paramsIn: 'body',
  subAccountDefault: true,
  response: cancelOrderResponseSchema,
});

// ── Execution ───────────────────────────────────────────────────────────────────────────────────────────────

/** Sends `orders.cancel`; documented (with examples) on `cancel` of `futures-sdk/orders` and on `client.orders.cancel()`. */
export async function cancel(
  ctx: ClientContext,
  id: string,
  params: CancelOrderParameters = {},
  options?: CallOptions,
): Promise<CancelOrderReturnType> {
  return await callEndpoint(ctx, cancelEndpoint, { id, params, options });
}
