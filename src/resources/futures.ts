import type { ClientContext } from '../_internal/context.ts';

/**
 * Futures configuration (spec section "Futures configuration"): leverage, margin mode, position mode.
 *
 * @example
 * ```ts
 * await client.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 10 });
 * ```
 */
export class FuturesResource {
  /** @internal */
  constructor(protected readonly ctx: ClientContext) {}
}
