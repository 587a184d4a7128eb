/**
 * futures-sdk/orders: every method of `client.orders` (trading) as a standalone function taking the client
 * first. Import only the functions you call, with a client from `createBaseClient`, and a bundler keeps only
 * those endpoints. A {@link futures-sdk!FuturesClient | FuturesClient} is accepted too; each function returns exactly what the resource method
 * returns (the resource methods call these functions).
 *
 * @example
 * ```ts
 * import { createBaseClient } from 'futures-sdk';
 * import { create } from 'futures-sdk/orders';
 * const client = createBaseClient({ baseUrl: 'https://api.example.com', apiKey, apiSecret });
 * const { order } = await create(client, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
 * ```
 * @packageDocumentation
 * @module futures-sdk/orders
 */

import { type BaseClient, contextOf } from '../base-client.ts';
import {
  type CancelOrderParameters,
  type CancelOrderReturnType,
  cancel as cancelAction,
} from '../endpoints/orders/cancel.ts';
import {
  type CancelAllOrdersParameters,
  type CancelAllOrdersReturnType,
  cancelAll as cancelAllAction,
} from '../endpoints/orders/cancel-all.ts';
import {
  type ClosePositionParameters,
  type ClosePositionReturnType,
  closePosition as closePositionAction,
} from '../endpoints/orders/close-position.ts';
import {
  type CreateOrderParameters,
  type CreateOrderReturnType,
  create as createAction,
} from '../endpoints/orders/create.ts';
import {
  type CreateBatchParameters,
  type CreateBatchReturnType,
  createBatch as createBatchAction,
} from '../endpoints/orders/create-batch.ts';
import { type GetOrderReturnType, get as getAction } from '../endpoints/orders/get.ts';
import { type ListOrdersParameters, type ListOrdersReturnType, list as listAction } from '../endpoints/orders/list.ts';
import { type ListAllOrdersParameters, listAll as listAllAction } from '../endpoints/orders/list-all.ts';
import {
  type MyTradesParameters,
  type MyTradesReturnType,
  myTrades as myTradesAction,
} from '../endpoints/orders/my-trades.ts';
import {
  type OpenOrdersParameters,
  type OpenOrdersReturnType,
  openOrders as openOrdersAction,
} from '../endpoints/orders/open-orders.ts';
import {
  type PositionHistoryParameters,
  type PositionHistoryReturnType,
  positionHistory as positionHistoryAction,
} from '../endpoints/orders/position-history.ts';
import {
  type ReplaceOrderParameters,
  type ReplaceOrderReturnType,
  replace as replaceAction,
} from '../endpoints/orders/replace.ts';
import type { CallOptions } from '../options.ts';
// For the {@link futures-sdk!FuturesClient | FuturesClient} references in TSDoc.
import type { Order } from '../schemas/order.ts';

/**
 * `POST /v2/orders` — places one order. Auth `API_KEY (TRADE)`, `orders` bucket (300/min).
 *
 * Safe to retry: the `clientOrderId` (yours, or a UUID v4 the SDK generates) is the same on every attempt, so
 * the server answers a repeat with the same order and `idempotent: true` instead of placing a second one.
 * Same as `client.orders.create(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {RequestValidationError} bad params (named field), before any network.
 * @throws {BadRequestError} insufficient balance; `reason: 'max_order_notional_exceeded'`
 *   (`err.isMaxNotionalExceeded`); "Close quantity exceeds available position quantity"
 *   (`err.isClosingOrderReserved`).
 * @throws {PermissionDeniedError} key lacks TRADE.
 * @throws {ConflictError} the `clientOrderId` belongs to another account.
 *
 * @example
 * ```ts
 * import { create } from 'futures-sdk/orders';
 * const { order } = await create(client, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
 * ```
 */
export async function create(
  client: BaseClient,
  params: CreateOrderParameters,
  options?: CallOptions,
): Promise<CreateOrderReturnType> {
  return createAction(contextOf(client), params, options);
}

/**
 * `POST /v2/orders/batch` — places 1 to 5 orders with one cumulative margin check. Auth `API_KEY (TRADE)`,
 * `batch` bucket (100/min).
 *
 * Every item without a `clientOrderId` gets its own UUID v4, fixed for the whole call, so a retry answers the
 * already-placed items with `idempotent: true` instead of placing them twice. Items are validated exactly like
 * `orders.create`; duplicate `clientOrderId`s inside one batch are rejected.
 *
 * When the whole batch needs more margin than is available, nothing is placed and the call rejects with a
 * `BadRequestError`. Otherwise per-item rejections come back as `success: false` results (the call resolves).
 * Same as `client.orders.createBatch(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {RequestValidationError} 0 or more than 5 items, or a bad item (`orders.<i>.<field>`), before any network.
 * @throws {BadRequestError} cumulative margin over the available margin; validation failure on the server.
 * @throws {PermissionDeniedError} key lacks TRADE.
 * @throws {ConflictError} a `clientOrderId` belongs to another account.
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
  return createBatchAction(contextOf(client), items, options);
}

/**
 * `GET /v2/orders` — one page of the caller's orders. Auth `API_KEY`, `default` bucket. Use `orders.listAll`
 * to walk every page.
 * Same as `client.orders.list(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
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
  query?: ListOrdersParameters,
  options?: CallOptions,
): Promise<ListOrdersReturnType> {
  return listAction(contextOf(client), query, options);
}

/**
 * Every order over all pages of `GET /v2/orders`, fetched lazily 200 at a time (the largest page). Auth
 * `API_KEY`, `default` bucket (pages share the client's pacing). The walk ends when `total` is reached or a
 * page comes back short; break out of the loop to stop early.
 *
 * Offset paging is not a snapshot: orders created while you iterate can shift rows between pages.
 * Same as `client.orders.listAll(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
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
  query?: ListAllOrdersParameters,
  options?: CallOptions,
): AsyncGenerator<Order, void, undefined> {
  yield* listAllAction(contextOf(client), query, options);
}

/**
 * `GET /v2/orders/:id` — one order by its backend `id` (a `venueOrderId` is not accepted here). The id is
 * percent-encoded into the path. Auth `API_KEY`, `default` bucket.
 * Same as `client.orders.get(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
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
  return getAction(contextOf(client), id, options);
}

/**
 * `POST /v2/orders/:id/cancel` — cancels one working order, by backend `id` or `venueOrderId` (percent-encoded
 * into the path). Auth `API_KEY (TRADE)`, `default` bucket.
 *
 * Not blindly retried: a repeat could hit an order that was already canceled, so only a 429 or a refused
 * connection (the server certainly did nothing) is retried. The body is `{ subAccountId }` when one is given
 * or set on the client, `{}` otherwise.
 * Same as `client.orders.cancel(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
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
  params?: CancelOrderParameters,
  options?: CallOptions,
): Promise<CancelOrderReturnType> {
  return cancelAction(contextOf(client), id, params, options);
}

/**
 * `DELETE /v2/orders/open` — cancels every open regular order (optionally of one symbol). Auth
 * `API_KEY (TRADE)`, `default` bucket; safe to retry (canceling twice changes nothing).
 *
 * The server does NOT cancel conditional orders (STOP, STOP_MARKET, TAKE_PROFIT, TAKE_PROFIT_MARKET). Pass
 * `includeConditional: true` to have the SDK list the working ones (via `GET /v2/orders`) and cancel each with
 * `POST /v2/orders/:id/cancel`; a failed item is reported as `FAILED` with its `error`, never thrown.
 *
 * Always resolves `{ ok, canceled, total, results }`; when nothing was open that is
 * `{ ok: true, canceled: 0, total: 0, results: [] }`.
 * Same as `client.orders.cancelAll(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {RequestValidationError} unknown keys.
 * @throws {PermissionDeniedError} key lacks TRADE, or `Unauthorized subAccountId`.
 * @throws {CancelAllAbortedError} the signal fired after the bulk cancel, while conditional orders were being
 *   canceled: an `AbortError` with `outcomeUnknown: true` whose `partial` holds the bulk response, the
 *   conditional outcomes so far and the orders not reached (still working).
 * @throws {AbortError} the signal fired earlier (`outcomeUnknown` is true when it cut the bulk cancel short).
 * @throws {AuthenticationError | RateLimitError | ServerError} the bulk cancel or the listing failed.
 *
 * @example
 * ```ts
 * import { cancelAll } from 'futures-sdk/orders';
 * const { canceled } = await cancelAll(client, { symbol: 'BTCUSDT' });
 * ```
 */
export async function cancelAll(
  client: BaseClient,
  query?: CancelAllOrdersParameters,
  options?: CallOptions,
): Promise<CancelAllOrdersReturnType> {
  return cancelAllAction(contextOf(client), query, options);
}

/**
 * Replaces a working order: cancel (`POST /v2/orders/:id/cancel`) then create (`POST /v2/orders`). The API
 * has no amend, so this is two calls and NOT atomic: the order loses its queue position, and between the two
 * steps you have no order at all. Auth `API_KEY (TRADE)`; buckets: `default` for the cancel, `orders` for the
 * create.
 *
 * The new order is validated before anything is sent. The create step's `subAccountId` (or the client's) is
 * also used for the cancel. The create keeps one `clientOrderId` across its retries, so it cannot place twice.
 * Same as `client.orders.replace(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {RequestValidationError} bad id or bad new-order params: nothing was canceled.
 * @throws {ApiError | ConnectionError | TimeoutError} the cancel failed: nothing was created (the old order may
 *   still be working — check with `orders.get`).
 * @throws {ReplaceOrderError} the cancel succeeded but the create failed: the old order is gone,
 *   `err.canceled` is the cancel result, `err.cause` the create error, `err.clientOrderId` the id the create
 *   sent; `err.createOutcomeUnknown` says whether the new order may have been placed anyway (5xx, timeout).
 *
 * @example
 * ```ts
 * import { replace } from 'futures-sdk/orders';
 * const { created } = await replace(client, orderId, {
 *   symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '60500',
 * });
 * ```
 */
export async function replace(
  client: BaseClient,
  id: string,
  params: ReplaceOrderParameters,
  options?: CallOptions,
): Promise<ReplaceOrderReturnType> {
  return replaceAction(contextOf(client), id, params, options);
}

/**
 * `POST /v2/positions/close` — closes a position (or `quantity` of it) with a reduce-only MARKET order on the
 * inverted side (LONG → SELL, SHORT → BUY). Auth `API_KEY (TRADE)`, `close` bucket (300/min).
 *
 * Fire-and-forget: the response has no order or position; follow up with `account.positions()`. An already
 * closed position resolves with `closed.reconciled: true`. Retried only on 429 / refused connection, since a
 * repeat could close more than intended.
 * Same as `client.orders.closePosition(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {RequestValidationError} missing `positionId`, bad `quantity`.
 * @throws {PermissionDeniedError} key lacks TRADE.
 * @throws {BadRequestError} the venue rejected the closing order.
 * @throws {TimeoutError | ConnectionError} outcome unknown: re-read positions before trying again.
 *
 * @example
 * ```ts
 * import { closePosition } from 'futures-sdk/orders';
 * await closePosition(client, { positionId: position.id });
 * ```
 */
export async function closePosition(
  client: BaseClient,
  params: ClosePositionParameters,
  options?: CallOptions,
): Promise<ClosePositionReturnType> {
  return closePositionAction(contextOf(client), params, options);
}

/**
 * `GET /v2/futures/open-orders` — live open orders read from the venue, venue field names untouched. Auth
 * `API_KEY`, `default` bucket. `orderId` here is the venue's integer id, usable with `orders.cancel(String(id))`.
 * Same as `client.orders.openOrders(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
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
  query?: OpenOrdersParameters,
  options?: CallOptions,
): Promise<OpenOrdersReturnType> {
  return openOrdersAction(contextOf(client), query, options);
}

/**
 * `GET /v2/futures/myTrades` — the caller's fills on one symbol. Auth `API_KEY`, `default` bucket.
 *
 * Only TAKER fills are listed: fills of your resting (maker) limit orders never appear here. Detect those as
 * position changes (`client.watch()` emits `maker_fill`).
 * Same as `client.orders.myTrades(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {RequestValidationError} missing `symbol`, bad `fromId`.
 * @throws {PermissionDeniedError} `Unauthorized subAccountId`.
 * @throws {AuthenticationError | RateLimitError | ServerError}
 *
 * @example
 * ```ts
 * import { myTrades } from 'futures-sdk/orders';
 * const { data } = await myTrades(client, { symbol: 'BTCUSDT' });
 * ```
 */
export async function myTrades(
  client: BaseClient,
  query: MyTradesParameters,
  options?: CallOptions,
): Promise<MyTradesReturnType> {
  return myTradesAction(contextOf(client), query, options);
}

/**
 * `GET /v2/futures/positionHistory` — closed positions, venue passthrough. Auth `API_KEY`, `default` bucket.
 *
 * The records keep the venue's names: `orderSide` 1/2 (not `side`), `entryPrice`, `averageClosePrice`,
 * `realizedPnL` (capital L), `totalClosedQuantity`. Map them with `normalizePositionHistory`.
 * Same as `client.orders.positionHistory(…)`; `client` is a {@link BaseClient} or a {@link futures-sdk!FuturesClient | FuturesClient}.
 *
 * @throws {RequestValidationError} `page` < 1, `limit` outside 1..1000, bad times, `endTime` before `startTime`.
 * @throws {PermissionDeniedError} `Unauthorized subAccountId`.
 * @throws {AuthenticationError | RateLimitError | ServerError}
 *
 * @example
 * ```ts
 * import { positionHistory } from 'futures-sdk/orders';
 * const history = await positionHistory(client, { symbol: 'BTCUSDT' });
 * ```
 */
export async function positionHistory(
  client: BaseClient,
  query?: PositionHistoryParameters,
  options?: CallOptions,
): Promise<PositionHistoryReturnType> {
  return positionHistoryAction(contextOf(client), query, options);
}
