import { type HealthReturnType, health } from '../actions/market/health.ts';
import { type SymbolsReturnType, symbols } from '../actions/market/symbols.ts';
import type { ClientContext } from '../_internal/context.ts';
import type { CallOptions } from '../_internal/transport.ts';

/**
 * Public market data and platform endpoints (no API key needed).
 *
 * @example
 * ```ts
 * const { symbols } = await new FuturesClient({ baseUrl }).market.symbols();
 * ```
 */
export class MarketResource {
  /** @internal */
  constructor(private readonly ctx: ClientContext) {}

  /** {@inheritDoc health} */
  health(options?: CallOptions): Promise<HealthReturnType> {
    return health(this.ctx, options);
  }

  /** {@inheritDoc symbols} */
  symbols(options?: CallOptions): Promise<SymbolsReturnType> {
    return symbols(this.ctx, options);
  }
}
