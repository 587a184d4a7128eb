import * as z from 'zod/mini';
import { pure } from '../../_internal/pure.ts';
import { nonEmptyString, symbolParam, validateParams } from '../../_internal/validate.ts';
import type { BaseClient } from '../../base-client.ts';
import { paginate } from '../../helpers/paginate.ts';
import type { CallOptions } from '../../options.ts';
import type { Order, OrderStatus } from '../../schemas/order.ts';
import { list, MAX_ORDERS_PAGE } from './list.ts';

/** Filters of `orders.listAll` (the page size is always the largest, 200). */
export interface ListAllOrdersParameters {
  /** Only this symbol. */
  symbol?: string | undefined;
  /** Only this status. */
  status?: OrderStatus | undefined;
}

/** Run-time check of {@link ListAllOrdersParameters}. */
export const listAllOrdersParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({ symbol: z.optional(symbolParam), status: z.optional(nonEmptyString) }),
);

/**
 * Every order over all pages of `GET /v2/orders`, fetched lazily 200 at a time (the largest page). Auth `API_KEY`,
 * `default` bucket (pages share the client's pacing). The walk ends when `total` is reached or a page comes back short;
 * break out of the loop to stop early. Offset paging is not a snapshot: orders created while you iterate can shift rows
 * between pages.
 *
 * @throws {RequestValidationError} unknown keys (when iteration starts).
 * @throws {AuthenticationError | RateLimitError | ServerError} from any page.
 *
 * @example
 * ```ts
 * import { listAll } from 'futures-sdk/orders';
 * for await (const order of listAll(client, { symbol: 'BTCUSDT' })) console.log(order.id, order.status);
 * ```
 */
export async function* listAll(
  client: BaseClient,
  query: ListAllOrdersParameters = {},
  options?: CallOptions,
): AsyncGenerator<Order, void, undefined> {
  const valid = validateParams(listAllOrdersParamsSchema, query, 'orders.listAll');
  yield* paginate(
    async (offset, limit) => {
      const page = await list(client, { ...valid, limit, offset }, options);
      return { items: page.orders, total: page.total };
    },
    { pageSize: MAX_ORDERS_PAGE, stopOnShortPage: true },
  );
}
