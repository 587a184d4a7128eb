import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { intInRange, nonEmptyString, symbolParam } from '../../_internal/validate.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import { int, okTrue } from '../../schemas/common.ts';
import { type OrderStatus, orderSchema } from '../../schemas/order.ts';
import type { Strict } from '../../schemas/strict.ts';
import { optionalOffset } from '../_shared.ts';

/** Largest page of `GET /v2/orders`. */
export const MAX_ORDERS_PAGE = 200;

/** Query of `GET /v2/orders`. */
export interface ListOrdersParameters {
  /** Only this symbol. */
  symbol?: string | undefined;
  /** Only this status, e.g. `'NEW'`, `'FILLED'`, `'CANCELED'`. */
  status?: OrderStatus | undefined;
  /** Page size, 1 to 200. @default 50 */
  limit?: number | undefined;
  /** Rows to skip. @default 0 */
  offset?: number | undefined;
}

/** Run-time check of {@link ListOrdersParameters}. */
export const listOrdersParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({
    symbol: z.optional(symbolParam),
    status: z.optional(nonEmptyString),
    limit: z.optional(intInRange(1, MAX_ORDERS_PAGE)),
    offset: optionalOffset,
  }),
);

/** Response of `GET /v2/orders`. */
export const listOrdersResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, orders: z.array(orderSchema), total: int() }),
);
/** `{ ok: true, orders, total }`; `total` counts every matching order, not just this page. */
export type ListOrdersReturnType = Strict<z.infer<typeof listOrdersResponseSchema>>;

/** One page of orders: `{ orders, total }` */
export const listEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'orders.list',
  path: '/v2/orders',
  params: listOrdersParamsSchema,
  response: listOrdersResponseSchema,
});

/**
 * `GET /v2/orders` — one page of the caller's orders. Auth `API_KEY`, `default` bucket. Use `orders.listAll`
 * to walk every page.
 *
 * @throws {RequestValidationError} `limit` outside 1..200, negative `offset`, unknown keys.
 * @throws {AuthenticationError | PermissionDeniedError | RateLimitError | ServerError}
 *
 * @example
 * ```ts
 * import { list } from 'futures-sdk/orders';
 * const { orders } = await list(client, { status: 'NEW', limit: 50 });
 * ```
 */
export async function list(
  client: BaseClient,
  query: ListOrdersParameters = {},
  options?: CallOptions,
): Promise<ListOrdersReturnType> {
  return await callEndpoint(contextOf(client), listEndpoint, { params: query, options });
}
