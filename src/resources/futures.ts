// Generated from src/endpoints/futures/ by npm run generate:resources (scripts/generate-resources.ts): edit those.
import type { BaseClient } from '../base-client.ts';
import type {
  CloseAndSwitchMarginParameters,
  CloseAndSwitchMarginReturnType,
} from '../endpoints/futures/close-and-switch-margin.ts';
import * as futuresFunctions from '../endpoints/futures/index.ts';
import type { SetLeverageParameters, SetLeverageReturnType } from '../endpoints/futures/set-leverage.ts';
import type { SetMarginTypeParameters, SetMarginTypeReturnType } from '../endpoints/futures/set-margin-type.ts';
import type { SetPositionModeParameters, SetPositionModeReturnType } from '../endpoints/futures/set-position-mode.ts';
import type { CallOptions } from '../options.ts';

/**
 * Futures configuration (spec section "Futures configuration"): leverage, margin mode, position mode. None of
 * these has a read-back endpoint.
 *
 * @example
 * ```ts
 * await client.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 10 });
 * ```
 */
export class FuturesResource {
  readonly #client: BaseClient;

  /** @internal */
  constructor(client: BaseClient) {
    this.#client = client;
  }

  /** {@inheritDoc futures-sdk/futures!closeAndSwitchMargin} */
  async closeAndSwitchMargin(
    params: CloseAndSwitchMarginParameters,
    options?: CallOptions,
  ): Promise<CloseAndSwitchMarginReturnType> {
    return await futuresFunctions.closeAndSwitchMargin(this.#client, params, options);
  }
  /** {@inheritDoc futures-sdk/futures!setLeverage} */
  async setLeverage(params: SetLeverageParameters, options?: CallOptions): Promise<SetLeverageReturnType> {
    return await futuresFunctions.setLeverage(this.#client, params, options);
  }
  /** {@inheritDoc futures-sdk/futures!setMarginType} */
  async setMarginType(params: SetMarginTypeParameters, options?: CallOptions): Promise<SetMarginTypeReturnType> {
    return await futuresFunctions.setMarginType(this.#client, params, options);
  }
  /** {@inheritDoc futures-sdk/futures!setPositionMode} */
  async setPositionMode(params: SetPositionModeParameters, options?: CallOptions): Promise<SetPositionModeReturnType> {
    return await futuresFunctions.setPositionMode(this.#client, params, options);
  }
}
