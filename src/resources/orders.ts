import { type CreateOrderParameters, type CreateOrderReturnType, create } from '../actions/orders/create.ts';
import type { ClientContext } from '../_internal/context.ts';
import type { CallOptions } from '../_internal/transport.ts';

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
}
