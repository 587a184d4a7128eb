// Generated from src/endpoints/orders/ by npm run generate:resources (scripts/generate-resources.ts): edit those.
import type { BaseClient } from '../base-client.ts';
import type { CancelOrderParameters, CancelOrderReturnType } from '../endpoints/orders/cancel.ts';
import type { CancelAllOrdersParameters, CancelAllOrdersReturnType } from '../endpoints/orders/cancel-all.ts';
import type { ClosePositionParameters, ClosePositionReturnType } from '../endpoints/orders/close-position.ts';
import type { CreateOrderParameters, CreateOrderReturnType } from '../endpoints/orders/create.ts';
import type { CreateBatchParameters, CreateBatchReturnType } from '../endpoints/orders/create-batch.ts';
import type { FindByClientOrderIdParameters } from '../endpoints/orders/find-by-client-order-id.ts';
import type { GetOrderReturnType } from '../endpoints/orders/get.ts';
import * as ordersFunctions from '../endpoints/orders/index.ts';
import type { ListOrdersParameters, ListOrdersReturnType } from '../endpoints/orders/list.ts';
import type { ListAllOrdersParameters } from '../endpoints/orders/list-all.ts';
import type { MyTradesParameters, MyTradesReturnType } from '../endpoints/orders/my-trades.ts';
import type { OpenOrdersParameters, OpenOrdersReturnType } from '../endpoints/orders/open-orders.ts';
import type { PositionHistoryParameters, PositionHistoryReturnType } from '../endpoints/orders/position-history.ts';
import type { ReplaceOrderParameters, ReplaceOrderReturnType } from '../endpoints/orders/replace.ts';
import type { CallOptions } from '../options.ts';
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
  readonly #client: BaseClient;

  /** @internal */
  constructor(client: BaseClient) {
    this.#client = client;
  }

  /** {@inheritDoc futures-sdk/orders!cancel} */
  async cancel(id: string, params?: CancelOrderParameters, options?: CallOptions): Promise<CancelOrderReturnType> {
    return await ordersFunctions.cancel(this.#client, id, params, options);
  }
  /** {@inheritDoc futures-sdk/orders!cancelAll} */
  async cancelAll(query?: CancelAllOrdersParameters, options?: CallOptions): Promise<CancelAllOrdersReturnType> {
    return await ordersFunctions.cancelAll(this.#client, query, options);
  }
  /** {@inheritDoc futures-sdk/orders!closePosition} */
  async closePosition(params: ClosePositionParameters, options?: CallOptions): Promise<ClosePositionReturnType> {
    return await ordersFunctions.closePosition(this.#client, params, options);
  }
  /** {@inheritDoc futures-sdk/orders!create} */
  async create(params: CreateOrderParameters, options?: CallOptions): Promise<CreateOrderReturnType> {
    return await ordersFunctions.create(this.#client, params, options);
  }
  /** {@inheritDoc futures-sdk/orders!createBatch} */
  async createBatch(items: CreateBatchParameters, options?: CallOptions): Promise<CreateBatchReturnType> {
    return await ordersFunctions.createBatch(this.#client, items, options);
  }
  /** {@inheritDoc futures-sdk/orders!findByClientOrderId} */
  async findByClientOrderId(
    clientOrderId: string,
    query?: FindByClientOrderIdParameters,
    options?: CallOptions,
  ): Promise<Order | undefined> {
    return await ordersFunctions.findByClientOrderId(this.#client, clientOrderId, query, options);
  }
  /** {@inheritDoc futures-sdk/orders!get} */
  async get(id: string, options?: CallOptions): Promise<GetOrderReturnType> {
    return await ordersFunctions.get(this.#client, id, options);
  }
  /** {@inheritDoc futures-sdk/orders!list} */
  async list(query?: ListOrdersParameters, options?: CallOptions): Promise<ListOrdersReturnType> {
    return await ordersFunctions.list(this.#client, query, options);
  }
  /** {@inheritDoc futures-sdk/orders!listAll} */
  listAll(query?: ListAllOrdersParameters, options?: CallOptions): AsyncGenerator<Order, void, undefined> {
    return ordersFunctions.listAll(this.#client, query, options);
  }
  /** {@inheritDoc futures-sdk/orders!myTrades} */
  async myTrades(query: MyTradesParameters, options?: CallOptions): Promise<MyTradesReturnType> {
    return await ordersFunctions.myTrades(this.#client, query, options);
  }
  /** {@inheritDoc futures-sdk/orders!openOrders} */
  async openOrders(query?: OpenOrdersParameters, options?: CallOptions): Promise<OpenOrdersReturnType> {
    return await ordersFunctions.openOrders(this.#client, query, options);
  }
  /** {@inheritDoc futures-sdk/orders!positionHistory} */
  async positionHistory(query?: PositionHistoryParameters, options?: CallOptions): Promise<PositionHistoryReturnType> {
    return await ordersFunctions.positionHistory(this.#client, query, options);
  }
  /** {@inheritDoc futures-sdk/orders!replace} */
  async replace(id: string, params: ReplaceOrderParameters, options?: CallOptions): Promise<ReplaceOrderReturnType> {
    return await ordersFunctions.replace(this.#client, id, params, options);
  }
}
