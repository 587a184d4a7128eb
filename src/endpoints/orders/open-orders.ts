import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { symbolParam } from '../../_internal/validate.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import { okTrue } from '../../schemas/common.ts';
import { venueOpenOrderSchema } from '../../schemas/order.ts';
import type { Strict } from '../../schemas/strict.ts';
import { subAccountIdParam } from '../_shared.ts';

/** Query of `GET /v2/futures/open-orders`. */
export interface OpenOrdersParameters {
  /** Only this symbol. */
  symbol?: string | undefined;
  /** Sub-account; defaults to the client's `subAccountId`. */
  subAccountId?: string | undefined;
}

/** Run-time check of {@link OpenOrdersParameters}. */
export const openOrdersParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({ symbol: z.optional(symbolParam), subAccountId: subAccountIdParam }),
);

/** Response of `GET /v2/futures/open-orders`. */
export const openOrdersResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, orders: z.array(venueOpenOrderSchema) }),
);
/** `{ ok: true, orders }` with the venue's field names (`orderId` integer, `origQty`, `executedQty`, `time`). */
export type OpenOrdersReturnType = Strict<z.infer<typeof openOrdersResponseSchema>>;

/** Working orders as the venue reports them */
export const openOrdersEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'orders.openOrders',
  path: '/v2/futures/open-orders',
  params: openOrdersParamsSchema,
  subAccountDefault: true,
  response: openOrdersResponseSchema,
});

/**
 * `GET /v2/futures/open-orders` — live open orders read from the venue, venue field names untouched. Auth
 * `API_KEY`, `default` bucket. `orderId` here is the venue's integer id, usable with `orders.cancel(String(id))`.
 *
 * @throws {RequestValidationError} unknown keys.
 * @throws {PermissionDeniedError} `Unauthorized subAccountId`.
 * @throws {AuthenticationError | RateLimitError | ServerError}
 *
 * @example
 * ```ts
 * import { openOrders } from 'futures-sdk/orders';
 * const open = await openOrders(client, { symbol: 'BTCUSDT' });
 * ```
 */
export async function openOrders(
  client: BaseClient,
  query: OpenOrdersParameters = {},
  options?: CallOptions,
): Promise<OpenOrdersReturnType> {
  return await callEndpoint(contextOf(client), openOrdersEndpoint, { params: query, options });
}
