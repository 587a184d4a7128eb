// Generated from src/endpoints/account/ by npm run generate:resources (scripts/generate-resources.ts): edit those.
import type { BaseClient } from '../base-client.ts';
import type {
  ActivitiesAllParameters,
  ActivitiesParameters,
  ActivitiesReturnType,
} from '../endpoints/account/activities.ts';
import type { BalanceParameters, BalanceReturnType } from '../endpoints/account/balance.ts';
import type { ExposureReturnType } from '../endpoints/account/exposure.ts';
import * as accountFunctions from '../endpoints/account/index.ts';
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

/**
 * Account endpoints (spec section "Account"): balances, positions, exposure, transfers, activities, PnL.
 *
 * @example
 * ```ts
 * const { positions } = await client.account.positions();
 * ```
 */
export class AccountResource {
  readonly #client: BaseClient;

  /** @internal */
  constructor(client: BaseClient) {
    this.#client = client;
  }

  /** {@inheritDoc futures-sdk/account!activities} */
  async activities(query?: ActivitiesParameters, options?: CallOptions): Promise<ActivitiesReturnType> {
    return await accountFunctions.activities(this.#client, query, options);
  }
  /** {@inheritDoc futures-sdk/account!activitiesAll} */
  activitiesAll(query?: ActivitiesAllParameters, options?: CallOptions): AsyncGenerator<Activity, void, undefined> {
    return accountFunctions.activitiesAll(this.#client, query, options);
  }
  /** {@inheritDoc futures-sdk/account!balance} */
  async balance(query?: BalanceParameters, options?: CallOptions): Promise<BalanceReturnType> {
    return await accountFunctions.balance(this.#client, query, options);
  }
  /** {@inheritDoc futures-sdk/account!exposure} */
  async exposure(options?: CallOptions): Promise<ExposureReturnType> {
    return await accountFunctions.exposure(this.#client, options);
  }
  /** {@inheritDoc futures-sdk/account!pnlHistory} */
  async pnlHistory(query?: PnlHistoryParameters, options?: CallOptions): Promise<PnlHistoryReturnType> {
    return await accountFunctions.pnlHistory(this.#client, query, options);
  }
  /** {@inheritDoc futures-sdk/account!positions} */
  async positions(params?: PositionsParameters, options?: CallOptions): Promise<PositionsReturnType> {
    return await accountFunctions.positions(this.#client, params, options);
  }
  /** {@inheritDoc futures-sdk/account!spotBalances} */
  async spotBalances(accountId: string, options?: CallOptions): Promise<SpotBalancesReturnType> {
    return await accountFunctions.spotBalances(this.#client, accountId, options);
  }
  /** {@inheritDoc futures-sdk/account!transfers} */
  async transfers(query?: TransfersParameters, options?: CallOptions): Promise<TransfersReturnType> {
    return await accountFunctions.transfers(this.#client, query, options);
  }
  /** {@inheritDoc futures-sdk/account!transfersAll} */
  transfersAll(query?: TransfersAllParameters, options?: CallOptions): AsyncGenerator<Transfer, void, undefined> {
    return accountFunctions.transfersAll(this.#client, query, options);
  }
}
