import * as z from 'zod/mini';
import { callEndpoint, checkParams, defineEndpoint } from '../../_internal/endpoint.ts';
import { batchJournalOrders, orderJournalInit } from '../../_internal/journal.ts';
import { pure } from '../../_internal/pure.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import { RequestValidationError } from '../../errors/request-validation-error.ts';
import type { CallOptions } from '../../options.ts';
import { okTrue } from '../../schemas/common.ts';
import { type BatchOrderResult, batchOrderResultSchema } from '../../schemas/order.ts';
import type { Strict } from '../../schemas/strict.ts';
import { type CreateOrderParameters, createOrderParamsSchema, withClientOrderId, withOrderIds } from './create.ts';

/** The most orders one batch may carry (spec: "up to 5"). */
export const MAX_BATCH_ORDERS = 5;

/** Items of `orders.createBatch`: 1 to 5 orders, each shaped like {@link CreateOrderParameters}. */
export type CreateBatchParameters = ReadonlyArray<CreateOrderParameters>;

/** Run-time check of {@link CreateBatchParameters}; issues are reported as `orders.<index>.<field>`. */
export const createBatchParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({
    orders: z.array(createOrderParamsSchema, { error: 'must be an array of orders' }).check(
      z.refine((orders) => orders.length >= 1 && orders.length <= MAX_BATCH_ORDERS, {
        error: `must hold 1 to ${MAX_BATCH_ORDERS} orders`,
      }),
    ),
  }),
);

/** Response of `POST /v2/orders/batch`. */
export const createBatchResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, results: z.array(batchOrderResultSchema) }),
);
/** `{ ok: true, results }`: one per item (`index` in your array), each with the `clientOrderId` sent for it. */
export type CreateBatchReturnType = Omit<Strict<z.infer<typeof createBatchResponseSchema>>, 'results'> & {
  results: Array<BatchOrderResult & { clientOrderId: string }>;
};

// Moves the top-level `subAccountId` (the client's default) onto each order, gives each a `clientOrderId`, and
// refuses two orders sharing one.
function prepareBatch({ orders, subAccountId }: Record<string, unknown>): Record<string, unknown> {
  const seen = new Map<unknown, number>();
  const prepared = (orders as Array<Record<string, unknown>>).map((order, index) => {
    const own = order['subAccountId'] !== undefined || subAccountId === undefined;
    const filled = withClientOrderId(own ? order : { ...order, subAccountId });
    const previous = seen.get(filled['clientOrderId']);
    if (previous !== undefined) {
      throw new RequestValidationError(
        [{ path: ['orders', index, 'clientOrderId'], message: `duplicates the clientOrderId of orders.${previous}` }],
        'orders.createBatch',
      );
    }
    seen.set(filled['clientOrderId'], index);
    return filled;
  });
  return { orders: prepared };
}

/** Up to the spec's batch limit of orders, one `clientOrderId` per item; results per item */
export const createBatchEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'orders.createBatch',
  method: 'POST',
  path: '/v2/orders/batch',
  bucket: 'batch',
  safety: 'idempotent',
  params: createBatchParamsSchema,
  subAccountDefault: true,
  prepare: prepareBatch,
  journal: {
    entries: (body) => (body.orders as Array<Record<string, unknown>>).map(orderJournalInit),
    orders: (result, body) => batchJournalOrders(result.results, (body.orders as unknown[]).length),
  },
  response: createBatchResponseSchema,
});

/**
 * `POST /v2/orders/batch` — places 1 to 5 orders with one cumulative margin check. Auth `API_KEY (TRADE)`, `batch`
 * bucket (100/min). Each item without a `clientOrderId` gets a UUID v4 fixed for the call, so a retry answers
 * placed items with `idempotent: true` instead of placing them twice. Items are validated like `orders.create`;
 * duplicate `clientOrderId`s are rejected. If the batch needs more margin than is available, nothing is placed
 * (`BadRequestError`); otherwise per-item rejections are `success: false` results.
 *
 * @throws {RequestValidationError} 0 or more than 5 items, or a bad item (`orders.<i>.<field>`), before any network.
 * @throws {BadRequestError} cumulative margin over the available margin; validation failure on the server.
 * @throws {PermissionDeniedError} key lacks TRADE.
 * @throws {ConflictError} a `clientOrderId` belongs to another account.
 *
 * Each result carries its item's `clientOrderId`; an error that rejects the whole batch once the ids are fixed
 * (not a validation error) carries them all in `err.clientOrderIds`, in item order.
 *
 * @example
 * ```ts
 * import { createBatch } from 'futures-sdk/orders';
 * const { results } = await createBatch(client, [
 *   { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '60000' },
 * ]);
 * ```
 */
export async function createBatch(
  client: BaseClient,
  items: CreateBatchParameters,
  options?: CallOptions,
): Promise<CreateBatchReturnType> {
  const ctx = contextOf(client);
  const checked = checkParams(ctx, createBatchEndpoint, { orders: items });
  const ids = (checked['orders'] as Array<Record<string, unknown>>).map((order) => String(order['clientOrderId']));
  let response: Strict<z.infer<typeof createBatchResponseSchema>>;
  try {
    response = await callEndpoint(ctx, createBatchEndpoint, { checked, options });
  } catch (error) {
    throw withOrderIds(error, 'clientOrderIds', ids);
  }
  // The server's items name no clientOrderId (spec); one it sends anyway is kept.
  const results = response.results.map((result) => ({ clientOrderId: ids[result.index] ?? '', ...result }));
  return { ...response, results } as CreateBatchReturnType;
}
