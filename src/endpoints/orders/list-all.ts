import * as z from 'zod/mini';
import type { ClientContext } from '../../_internal/context.ts';
import { pure } from '../../_internal/pure.ts';
import { nonEmptyString, symbolParam, validateParams } from '../../_internal/validate.ts';
import { paginate } from '../../helpers/paginate.ts';
import type { CallOptions } from '../../options.ts';
import type { Order, OrderStatus } from '../../schemas/order.ts';
import { list, MAX_ORDERS_PAGE } from './list.ts';

// ── Schema ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Filters of `orders.listAll` (the page size is always the largest, 200).
 *
 * @example
 * ```ts
 * for await (const order of client.orders.listAll({ symbol: 'BTCUSDT', status: 'FILLED' })) {
 *   console.log(order.id, order.quantity);
 * }
 * ```
 */
export interface ListAllOrdersParameters {
  /** Only this symbol. */
  symbol?: string | undefined;
  /** Only this status. */
  status?: OrderStatus | undefined;
}

/**
 * Run-time check of {@link ListAllOrdersParameters}.
 *
 * @example
 * ```ts
 * const check = listAllOrdersParamsSchema.safeParse(input); // the rules the SDK applies before sending
 * if (!check.success) console.log(check.error.issues);
 * ```
 */
export const listAllOrdersParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({
    symbol: z.optional(symbolParam),
    status: z.optional(nonEmptyString),
  }),
);

// ── Execution ───────────────────────────────────────────────────────────────────────────────────────────────

/** Sends `orders.listAll`; documented (with examples) on `listAll` of `futures-sdk/orders` and on `client.orders.listAll()`. */
export async function* listAll(
  ctx: ClientContext,
  query: ListAllOrdersParameters = {},
  options?: CallOptions,
): AsyncGenerator<Order, void, undefined> {
  const valid = validateParams(listAllOrdersParamsSchema, query, 'orders.listAll');
  yield* paginate(
    async (offset, limit) => {
      const page = await list(ctx, { ...valid, limit, offset }, options);
      return { items: page.orders, total: page.total };
    },
    { pageSize: MAX_ORDERS_PAGE, stopOnShortPage: true },
  );
}
