import type { ClientContext } from '../_internal/context.ts';
import type { CallOptions } from '../_internal/transport.ts';
import {
  type CloseAndSwitchMarginParameters,
  type CloseAndSwitchMarginReturnType,
  closeAndSwitchMargin,
} from '../actions/futures/close-and-switch-margin.ts';
import {
  type SetLeverageParameters,
  type SetLeverageReturnType,
  setLeverage,
} from '../actions/futures/set-leverage.ts';
import {
  type SetMarginTypeParameters,
  type SetMarginTypeReturnType,
  setMarginType,
} from '../actions/futures/set-margin-type.ts';
import {
  type SetPositionModeParameters,
  type SetPositionModeReturnType,
  setPositionMode,
} from '../actions/futures/set-position-mode.ts';

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
  /** @internal */
  constructor(protected readonly ctx: ClientContext) {}

  /** {@inheritDoc setLeverage} */
  setLeverage(params: SetLeverageParameters, options?: CallOptions): Promise<SetLeverageReturnType> {
    return setLeverage(this.ctx, params, options);
  }

  /** {@inheritDoc setMarginType} */
  setMarginType(params: SetMarginTypeParameters, options?: CallOptions): Promise<SetMarginTypeReturnType> {
    return setMarginType(this.ctx, params, options);
  }

  /** {@inheritDoc closeAndSwitchMargin} */
  closeAndSwitchMargin(
    params: CloseAndSwitchMarginParameters,
    options?: CallOptions,
  ): Promise<CloseAndSwitchMarginReturnType> {
    return closeAndSwitchMargin(this.ctx, params, options);
  }

  /** {@inheritDoc setPositionMode} */
  setPositionMode(params: SetPositionModeParameters, options?: CallOptions): Promise<SetPositionModeReturnType> {
    return setPositionMode(this.ctx, params, options);
  }
}
