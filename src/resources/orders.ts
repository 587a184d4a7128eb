// Generated from src/standalone/orders.ts by scripts/generate-resources.ts (npm run generate:resources): edit
// the standalone functions, not this file; test/docs/resources.test.ts checks that it is up to date.
import type { BaseClient } from '../base-client.ts';
import type { CancelOrderParameters, CancelOrderReturnType } from '../endpoints/orders/cancel.ts';
import type { CancelAllOrdersParameters, CancelAllOrdersReturnType } from '../endpoints/orders/cancel-all.ts';
import type { ClosePositionParameters, ClosePositionReturnType } from '../endpoints/orders/close-position.ts';
import type { CreateOrderParameters, CreateOrderReturnType } from '../endpoints/orders/create.ts';
import type { CreateBatchParameters, CreateBatchReturnType } from '../endpoints/orders/create-batch.ts';
import type { GetOrderReturnType } from '../endpoints/orders/get.ts';
import type { ListOrdersParameters, ListOrdersReturnType } from '../endpoints/orders/list.ts';
import type { ListAllOrdersParameters } from '../endpoints/orders/list-all.ts';
import type { MyTradesParameters, MyTradesReturnType } from '../endpoints/orders/my-trades.ts';
import type { OpenOrdersParameters, OpenOrdersReturnType } from '../endpoints/orders/open-orders.ts';
import type { PositionHistoryParameters, PositionHistoryReturnType } from '../endpoints/orders/position-history.ts';
import type { ReplaceOrderParameters, ReplaceOrderReturnType } from '../endpoints/orders/replace.ts';
import type { CallOptions } from '../options.ts';
import type { Order } from '../schemas/order.ts';
import * as ordersFunctions from '../standalone/orders.ts';

/**
 * Trading endpoints (spec section "Trading"): orders, closes, trades and position history.
 *
 * @example
 * ```ts
 * const { order } = await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
 * ```
 */
export class OrdersResource {
  private readonly client: BaseClient;

  /** @internal */
  constructor(client: BaseClient) {
    this.client = client;
  }

  /** {@inheritDoc futures-sdk/orders!create} */
  create(params: CreateOrderParameters, options?: CallOptions): Promise<CreateOrderReturnType> {
    return ordersFunctions.create(this.client, params, options);
  }

  /** {@inheritDoc futures-sdk/orders!createBatch} */
  createBatch(items: CreateBatchParameters, options?: CallOptions): Promise<CreateBatchReturnType> {
    return ordersFunctions.createBatch(this.client, items, options);
  }

  /** {@inheritDoc futures-sdk/orders!list} */
  list(query?: ListOrdersParameters, options?: CallOptions): Promise<ListOrdersReturnType> {
    return ordersFunctions.list(this.client, query, options);
  }

  /** {@inheritDoc futures-sdk/orders!listAll} */
  listAll(query?: ListAllOrdersParameters, options?: CallOptions): AsyncGenerator<Order, void, undefined> {
    return ordersFunctions.listAll(this.client, query, options);
  }

  /** {@inheritDoc futures-sdk/orders!get} */
  get(id: string, options?: CallOptions): Promise<GetOrderReturnType> {
    return ordersFunctions.get(this.client, id, options);
  }

  /** {@inheritDoc futures-sdk/orders!cancel} */
  cancel(id: string, params?: CancelOrderParameters, options?: CallOptions): Promise<CancelOrderReturnType> {
    return ordersFunctions.cancel(this.client, id, params, options);
  }

  /** {@inheritDoc futures-sdk/orders!cancelAll} */
  cancelAll(query?: CancelAllOrdersParameters, options?: CallOptions): Promise<CancelAllOrdersReturnType> {
    return ordersFunctions.cancelAll(this.client, query, options);
  }

  /** {@inheritDoc futures-sdk/orders!replace} */
  replace(id: string, params: ReplaceOrderParameters, options?: CallOptions): Promise<ReplaceOrderReturnType> {
    return ordersFunctions.replace(this.client, id, params, options);
  }

  /** {@inheritDoc futures-sdk/orders!closePosition} */
  closePosition(params: ClosePositionParameters, options?: CallOptions): Promise<ClosePositionReturnType> {
    return ordersFunctions.closePosition(this.client, params, options);
  }

  /** {@inheritDoc futures-sdk/orders!openOrders} */
  openOrders(query?: OpenOrdersParameters, options?: CallOptions): Promise<OpenOrdersReturnType> {
    return ordersFunctions.openOrders(this.client, query, options);
  }

  /** {@inheritDoc futures-sdk/orders!myTrades} */
  myTrades(query: MyTradesParameters, options?: CallOptions): Promise<MyTradesReturnType> {
    return ordersFunctions.myTrades(this.client, query, options);
  }

  /** {@inheritDoc futures-sdk/orders!positionHistory} */
  positionHistory(query?: PositionHistoryParameters, options?: CallOptions): Promise<PositionHistoryReturnType> {
    return ordersFunctions.positionHistory(this.client, query, options);
  }
}
