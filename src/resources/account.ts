import type { ClientContext } from '../_internal/context.ts';
import type { CallOptions } from '../_internal/transport.ts';
import {
  type ActivitiesAllParameters,
  type ActivitiesParameters,
  type ActivitiesReturnType,
  activities,
  activitiesAll,
} from '../actions/account/activities.ts';
import { type BalanceParameters, type BalanceReturnType, balance } from '../actions/account/balance.ts';
import { type ExposureReturnType, exposure } from '../actions/account/exposure.ts';
import { type PnlHistoryParameters, type PnlHistoryReturnType, pnlHistory } from '../actions/account/pnl-history.ts';
import { type PositionsParameters, type PositionsReturnType, positions } from '../actions/account/positions.ts';
import { type SpotBalancesReturnType, spotBalances } from '../actions/account/spot-balances.ts';
import {
  type TransfersAllParameters,
  type TransfersParameters,
  type TransfersReturnType,
  transfers,
  transfersAll,
} from '../actions/account/transfers.ts';
import type { Activity, Transfer } from '../schemas/account.ts';

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

  /** {@inheritDoc balance} */
  balance(query?: BalanceParameters, options?: CallOptions): Promise<BalanceReturnType> {
    return balance(this.ctx, query, options);
  }

  /** {@inheritDoc positions} */
  positions(params?: PositionsParameters, options?: CallOptions): Promise<PositionsReturnType> {
    return positions(this.ctx, params, options);
  }

  /** {@inheritDoc exposure} */
  exposure(options?: CallOptions): Promise<ExposureReturnType> {
    return exposure(this.ctx, options);
  }

  /** {@inheritDoc transfers} */
  transfers(query?: TransfersParameters, options?: CallOptions): Promise<TransfersReturnType> {
    return transfers(this.ctx, query, options);
  }

  /** {@inheritDoc transfersAll} */
  transfersAll(query?: TransfersAllParameters, options?: CallOptions): AsyncGenerator<Transfer, void, undefined> {
    return transfersAll(this.ctx, query, options);
  }

  /** {@inheritDoc activities} */
  activities(query?: ActivitiesParameters, options?: CallOptions): Promise<ActivitiesReturnType> {
    return activities(this.ctx, query, options);
  }

  /** {@inheritDoc activitiesAll} */
  activitiesAll(query?: ActivitiesAllParameters, options?: CallOptions): AsyncGenerator<Activity, void, undefined> {
    return activitiesAll(this.ctx, query, options);
  }

  /** {@inheritDoc pnlHistory} */
  pnlHistory(query?: PnlHistoryParameters, options?: CallOptions): Promise<PnlHistoryReturnType> {
    return pnlHistory(this.ctx, query, options);
  }

  /** {@inheritDoc spotBalances} */
  spotBalances(accountId: string, options?: CallOptions): Promise<SpotBalancesReturnType> {
    return spotBalances(this.ctx, accountId, options);
  }
}
