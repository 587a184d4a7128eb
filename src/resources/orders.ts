import type { ClientContext } from '../_internal/context.ts';
import type { CallOptions } from '../_internal/transport.ts';
import { type CancelOrderParameters, type CancelOrderReturnType, cancel } from '../actions/orders/cancel.ts';
import {
  type CancelAllOrdersParameters,
  type CancelAllOrdersReturnType,
  cancelAll,
} from '../actions/orders/cancel-all.ts';
import {
  type ClosePositionParameters,
  type ClosePositionReturnType,
  closePosition,
} from '../actions/orders/close-position.ts';
import { type CreateOrderParameters, type CreateOrderReturnType, create } from '../actions/orders/create.ts';
import { type CreateBatchParameters, type CreateBatchReturnType, createBatch } from '../actions/orders/create-batch.ts';
import { type GetOrderReturnType, get } from '../actions/orders/get.ts';
import { type ListOrdersParameters, type ListOrdersReturnType, list } from '../actions/orders/list.ts';
import { type ListAllOrdersParameters, listAll } from '../actions/orders/list-all.ts';
import { type MyTradesParameters, type MyTradesReturnType, myTrades } from '../actions/orders/my-trades.ts';
import { type OpenOrdersParameters, type OpenOrdersReturnType, openOrders } from '../actions/orders/open-orders.ts';
import {
  type PositionHistoryParameters,
  type PositionHistoryReturnType,
  positionHistory,
} from '../actions/orders/position-history.ts';
import { type ReplaceOrderParameters, type ReplaceOrderReturnType, replace } from '../actions/orders/replace.ts';
import type { Order } from '../schemas/order.ts';

/**
 * Trading endpoints (spec section "Trading"): orders, closes, trades and position history.
 *
 * @example
 * ```ts
 * const { order } = await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
 * ```
 */
export class OrdersResource {
  /** @internal */
  constructor(private readonly ctx: ClientContext) {}

  /** {@inheritDoc create} */
  create(params: CreateOrderParameters, options?: CallOptions): Promise<CreateOrderReturnType> {
    return create(this.ctx, params, options);
  }

  /** {@inheritDoc createBatch} */
  createBatch(items: CreateBatchParameters, options?: CallOptions): Promise<CreateBatchReturnType> {
    return createBatch(this.ctx, items, options);
  }

  /** {@inheritDoc list} */
  list(query?: ListOrdersParameters, options?: CallOptions): Promise<ListOrdersReturnType> {
    return list(this.ctx, query, options);
  }

  /** {@inheritDoc listAll} */
  listAll(query?: ListAllOrdersParameters, options?: CallOptions): AsyncGenerator<Order, void, undefined> {
    return listAll(this.ctx, query, options);
  }

  /** {@inheritDoc get} */
  get(id: string, options?: CallOptions): Promise<GetOrderReturnType> {
    return get(this.ctx, id, options);
  }

  /** {@inheritDoc cancel} */
  cancel(id: string, params?: CancelOrderParameters, options?: CallOptions): Promise<CancelOrderReturnType> {
    return cancel(this.ctx, id, params, options);
  }

  /** {@inheritDoc cancelAll} */
  cancelAll(query?: CancelAllOrdersParameters, options?: CallOptions): Promise<CancelAllOrdersReturnType> {
    return cancelAll(this.ctx, query, options);
  }

  /** {@inheritDoc replace} */
  replace(id: string, params: ReplaceOrderParameters, options?: CallOptions): Promise<ReplaceOrderReturnType> {
    return replace(this.ctx, id, params, options);
  }

  /** {@inheritDoc closePosition} */
  closePosition(params: ClosePositionParameters, options?: CallOptions): Promise<ClosePositionReturnType> {
    return closePosition(this.ctx, params, options);
  }

  /** {@inheritDoc openOrders} */
  openOrders(query?: OpenOrdersParameters, options?: CallOptions): Promise<OpenOrdersReturnType> {
    return openOrders(this.ctx, query, options);
  }

  /** {@inheritDoc myTrades} */
  myTrades(query: MyTradesParameters, options?: CallOptions): Promise<MyTradesReturnType> {
    return myTrades(this.ctx, query, options);
  }

  /** {@inheritDoc positionHistory} */
  positionHistory(query?: PositionHistoryParameters, options?: CallOptions): Promise<PositionHistoryReturnType> {
    return positionHistory(this.ctx, query, options);
  }
}
