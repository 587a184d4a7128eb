import { type PositionsParameters, type PositionsReturnType, positions } from '../actions/account/positions.ts';
import type { ClientContext } from '../_internal/context.ts';
import type { CallOptions } from '../_internal/transport.ts';

/**
 * Account endpoints (spec section "Account"): balances, positions, exposure, transfers, activities, PnL.
 *
 * @example
 * ```ts
 * const { positions } = await client.account.positions();
 * ```
 */
export class AccountResource {
  /** @internal */
  constructor(private readonly ctx: ClientContext) {}

  /** {@inheritDoc positions} */
  positions(params?: PositionsParameters, options?: CallOptions): Promise<PositionsReturnType> {
    return positions(this.ctx, params, options);
  }
}
