// Generated from src/standalone/futures.ts by scripts/generate-resources.ts (npm run generate:resources): edit
// the standalone functions, not this file; test/docs/resources.test.ts checks that it is up to date.
import type { BaseClient } from '../base-client.ts';
import type {
  CloseAndSwitchMarginParameters,
  CloseAndSwitchMarginReturnType,
} from '../endpoints/futures/close-and-switch-margin.ts';
import type { SetLeverageParameters, SetLeverageReturnType } from '../endpoints/futures/set-leverage.ts';
import type { SetMarginTypeParameters, SetMarginTypeReturnType } from '../endpoints/futures/set-margin-type.ts';
import type { SetPositionModeParameters, SetPositionModeReturnType } from '../endpoints/futures/set-position-mode.ts';
import type { CallOptions } from '../options.ts';
import * as futuresFunctions from '../standalone/futures.ts';

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
  private readonly client: BaseClient;

  /** @internal */
  constructor(client: BaseClient) {
    this.client = client;
  }

  /** {@inheritDoc futures-sdk/futures!setLeverage} */
  setLeverage(params: SetLeverageParameters, options?: CallOptions): Promise<SetLeverageReturnType> {
    return futuresFunctions.setLeverage(this.client, params, options);
  }

  /** {@inheritDoc futures-sdk/futures!setMarginType} */
  setMarginType(params: SetMarginTypeParameters, options?: CallOptions): Promise<SetMarginTypeReturnType> {
    return futuresFunctions.setMarginType(this.client, params, options);
  }

  /** {@inheritDoc futures-sdk/futures!closeAndSwitchMargin} */
  closeAndSwitchMargin(
    params: CloseAndSwitchMarginParameters,
    options?: CallOptions,
  ): Promise<CloseAndSwitchMarginReturnType> {
    return futuresFunctions.closeAndSwitchMargin(this.client, params, options);
  }

  /** {@inheritDoc futures-sdk/futures!setPositionMode} */
  setPositionMode(params: SetPositionModeParameters, options?: CallOptions): Promise<SetPositionModeReturnType> {
    return futuresFunctions.setPositionMode(this.client, params, options);
  }
}
