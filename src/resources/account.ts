// Generated from src/standalone/account.ts by scripts/generate-resources.ts (npm run generate:resources): edit
// the standalone functions, not this file; test/docs/resources.test.ts checks that it is up to date.
import type { BaseClient } from '../base-client.ts';
import type {
  ActivitiesAllParameters,
  ActivitiesParameters,
  ActivitiesReturnType,
} from '../endpoints/account/activities.ts';
import type { BalanceParameters, BalanceReturnType } from '../endpoints/account/balance.ts';
import type { ExposureReturnType } from '../endpoints/account/exposure.ts';
import type { PnlHistoryParameters, PnlHistoryReturnType } from '../endpoints/account/pnl-history.ts';
import type { PositionsParameters, PositionsReturnType } from '../endpoints/account/positions.ts';
import type { SpotBalancesReturnType } from '../endpoints/account/spot-balances.ts';
import type {
  TransfersAllParameters,
  TransfersParameters,
  TransfersReturnType,
} from '../endpoints/account/transfers.ts';
import type { CallOptions } from '../options.ts';
import type { Activity, Transfer } from '../schemas/account.ts';
import * as accountFunctions from '../standalone/account.ts';

/**
 * Account endpoints (spec section "Account"): balances, positions, exposure, transfers, activities, PnL.
 *
 * @example
 * ```ts
 * const { positions } = await client.account.positions();
 * ```
 */
export class AccountResource {
  private readonly client: BaseClient;

  /** @internal */
  constructor(client: BaseClient) {
    this.client = client;
  }

  /** {@inheritDoc futures-sdk/account!balance} */
  balance(query?: BalanceParameters, options?: CallOptions): Promise<BalanceReturnType> {
    return accountFunctions.balance(this.client, query, options);
  }

  /** {@inheritDoc futures-sdk/account!positions} */
  positions(params?: PositionsParameters, options?: CallOptions): Promise<PositionsReturnType> {
    return accountFunctions.positions(this.client, params, options);
  }

  /** {@inheritDoc futures-sdk/account!exposure} */
  exposure(options?: CallOptions): Promise<ExposureReturnType> {
    return accountFunctions.exposure(this.client, options);
  }

  /** {@inheritDoc futures-sdk/account!transfers} */
  transfers(query?: TransfersParameters, options?: CallOptions): Promise<TransfersReturnType> {
    return accountFunctions.transfers(this.client, query, options);
  }

  /** {@inheritDoc futures-sdk/account!transfersAll} */
  transfersAll(query?: TransfersAllParameters, options?: CallOptions): AsyncGenerator<Transfer, void, undefined> {
    return accountFunctions.transfersAll(this.client, query, options);
  }

  /** {@inheritDoc futures-sdk/account!activities} */
  activities(query?: ActivitiesParameters, options?: CallOptions): Promise<ActivitiesReturnType> {
    return accountFunctions.activities(this.client, query, options);
  }

  /** {@inheritDoc futures-sdk/account!activitiesAll} */
  activitiesAll(query?: ActivitiesAllParameters, options?: CallOptions): AsyncGenerator<Activity, void, undefined> {
    return accountFunctions.activitiesAll(this.client, query, options);
  }

  /** {@inheritDoc futures-sdk/account!pnlHistory} */
  pnlHistory(query?: PnlHistoryParameters, options?: CallOptions): Promise<PnlHistoryReturnType> {
    return accountFunctions.pnlHistory(this.client, query, options);
  }

  /** {@inheritDoc futures-sdk/account!spotBalances} */
  spotBalances(accountId: string, options?: CallOptions): Promise<SpotBalancesReturnType> {
    return accountFunctions.spotBalances(this.client, accountId, options);
  }
}
