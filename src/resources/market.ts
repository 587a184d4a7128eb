import type { ClientContext } from '../_internal/context.ts';
import type { CallOptions } from '../_internal/transport.ts';
import { type DepthParameters, type DepthReturnType, depth } from '../actions/market/depth.ts';
import { type FundingRateParameters, type FundingRateReturnType, fundingRate } from '../actions/market/funding-rate.ts';
import { type HealthReturnType, health } from '../actions/market/health.ts';
import { type KlinesParameters, type KlinesReturnType, klines } from '../actions/market/klines.ts';
import { type LeaderboardParameters, type LeaderboardReturnType, leaderboard } from '../actions/market/leaderboard.ts';
import { type PlatformStatusReturnType, platformStatus } from '../actions/market/platform-status.ts';
import { type PlatformTokensReturnType, platformTokens } from '../actions/market/platform-tokens.ts';
import { type SymbolsReturnType, symbols } from '../actions/market/symbols.ts';
import { type Ticker24hrParameters, type Ticker24hrReturnType, ticker24hr } from '../actions/market/ticker-24hr.ts';
import { type TradesParameters, type TradesReturnType, trades } from '../actions/market/trades.ts';
import type { LeaderboardType } from '../schemas/market.ts';

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

  /** {@inheritDoc ticker24hr} */
  ticker24hr(query?: Ticker24hrParameters, options?: CallOptions): Promise<Ticker24hrReturnType> {
    return ticker24hr(this.ctx, query, options);
  }

  /** {@inheritDoc depth} */
  depth(query: DepthParameters, options?: CallOptions): Promise<DepthReturnType> {
    return depth(this.ctx, query, options);
  }

  /** {@inheritDoc trades} */
  trades(query: TradesParameters, options?: CallOptions): Promise<TradesReturnType> {
    return trades(this.ctx, query, options);
  }

  /** {@inheritDoc fundingRate} */
  fundingRate(query: FundingRateParameters, options?: CallOptions): Promise<FundingRateReturnType> {
    return fundingRate(this.ctx, query, options);
  }

  /** {@inheritDoc klines} */
  klines(query: KlinesParameters, options?: CallOptions): Promise<KlinesReturnType> {
    return klines(this.ctx, query, options);
  }

  /** {@inheritDoc leaderboard} */
  leaderboard<T extends LeaderboardType>(
    query: LeaderboardParameters<T>,
    options?: CallOptions,
  ): Promise<LeaderboardReturnType<T>> {
    return leaderboard(this.ctx, query, options);
  }

  /** {@inheritDoc platformTokens} */
  platformTokens(options?: CallOptions): Promise<PlatformTokensReturnType> {
    return platformTokens(this.ctx, options);
  }

  /** {@inheritDoc platformStatus} */
  platformStatus(options?: CallOptions): Promise<PlatformStatusReturnType> {
    return platformStatus(this.ctx, options);
  }
}
