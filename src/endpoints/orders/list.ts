import * as z from 'zod/mini';
import type { ClientContext } from '../../_internal/context.ts';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { intInRange, nonEmptyString, symbolParam } from '../../_internal/validate.ts';
import type { CallOptions } from '../../options.ts';
import { okTrue } from '../../schemas/common.ts';
import { type OrderStatus, orderSchema } from '../../schemas/order.ts';

// ── Schema ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Largest page of `GET /v2/orders`.
 *
 * @example
 * ```ts
 * import { MAX_ORDERS_PAGE } from 'futures-sdk';
 * const { orders } = await client.orders.list({ limit: MAX_ORDERS_PAGE });
 * ```
 */
export const MAX_ORDERS_PAGE = 200;

/**
 * Query of `GET /v2/orders`.
 *
 * @example
 * ```ts
 * const { orders, total } = await client.orders.list({ symbol: 'BTCUSDT', status: 'NEW', limit: 100 });
 * ```
 */
export interface ListOrdersParameters {
  /** Only this symbol. */
  symbol?: string | undefined;
  /** Only this status, e.g. `'NEW'`, `'FILLED'`, `'CANCELED'`. */
  status?: OrderStatus | undefined;
  /**
   * Page size, 1 to 200.
   * @default 50
   */
  limit?: number | undefined;
  /**
   * Rows to skip.
   * @default 0
   */
  offset?: number | undefined;
}

/**
 * Run-time check of {@link ListOrdersParameters}.
 *
 * @example
 * ```ts
 * const check = listOrdersParamsSchema.safeParse(input); // the rules the SDK applies before sending
 * if (!check.success) console.log(check.error.issues);
 * ```
 */
export const listOrdersParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({
    symbol: z.optional(symbolParam),
    status: z.optional(nonEmptyString),
    limit: z.optional(intInRange(1, MAX_ORDERS_PAGE)),
    offset: z.optional(intInRange(0, Number.MAX_SAFE_INTEGER)),
  }),
);

/**
 * Response of `GET /v2/orders`.
 *
 * @example
 * ```ts
 * const parsed = listOrdersResponseSchema.safeParse(JSON.parse(text));
 * if (parsed.success) console.log(parsed.data);
 * ```
 */
export const listOrdersResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    ok: okTrue,
    orders: z.array(orderSchema),
    total: z.int(),
  }),
);

/**
 * `{ ok: true, orders, total }`; `total` counts every matching order, not just this page.
 *
 * @example
 * ```ts
 * import type { ListOrdersReturnType } from 'futures-sdk';
 * const result: ListOrdersReturnType = await client.orders.list({ symbol: 'BTCUSDT', status: 'NEW', limit: 100 });
 * console.log(result.ok); // true: every success carries the envelope
 * ```
 */
export type ListOrdersReturnType = z.infer<typeof listOrdersResponseSchema>;

/** One page of orders: `{ orders, total }` */
export const listEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'orders.list',
  method: 'GET',
  path: '/v2/orders',
  auth: 'signed',
  bucket: 'default',
  safety: 'idempotent',
  params: listOrdersParamsSchema,
  paramsIn: 'query',
  response: listOrdersResponseSchema,
});

// ── Execution ───────────────────────────────────────────────────────────────────────────────────────────────

/** Sends `orders.list`; documented (with examples) on `list` of `futures-sdk/orders` and on `client.orders.list()`. */
export async function list(
  ctx: ClientContext,
  query: ListOrdersParameters = {},
  options?: CallOptions,
): Promise<ListOrdersReturnType> {
  return await callEndpoint(ctx, listEndpoint, { params: query, options });
}
