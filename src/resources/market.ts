// Generated from src/standalone/market.ts by scripts/generate-resources.ts (npm run generate:resources): edit
// the standalone functions, not this file; test/docs/resources.test.ts checks that it is up to date.
import type { BaseClient } from '../base-client.ts';
import type { DepthParameters, DepthReturnType } from '../endpoints/market/depth.ts';
import type { FundingRateParameters, FundingRateReturnType } from '../endpoints/market/funding-rate.ts';
import type { HealthReturnType } from '../endpoints/market/health.ts';
import type { KlinesParameters, KlinesReturnType } from '../endpoints/market/klines.ts';
import type { LeaderboardParameters, LeaderboardReturnType } from '../endpoints/market/leaderboard.ts';
import type { PlatformStatusReturnType } from '../endpoints/market/platform-status.ts';
import type { PlatformTokensReturnType } from '../endpoints/market/platform-tokens.ts';
import type { SymbolsReturnType } from '../endpoints/market/symbols.ts';
import type { Ticker24hrParameters, Ticker24hrReturnType } from '../endpoints/market/ticker-24hr.ts';
import type { TradesParameters, TradesReturnType } from '../endpoints/market/trades.ts';
import type { CallOptions } from '../options.ts';
import type { LeaderboardType } from '../schemas/market.ts';
import * as marketFunctions from '../standalone/market.ts';

/**
 * Public market data and platform endpoints (no API key needed).
 *
 * @example
 * ```ts
 * const { symbols } = await new FuturesClient({ baseUrl }).market.symbols();
 * ```
 */
export class MarketResource {
  private readonly client: BaseClient;

  /** @internal */
  constructor(client: BaseClient) {
    this.client = client;
  }

  /** {@inheritDoc futures-sdk/market!health} */
  health(options?: CallOptions): Promise<HealthReturnType> {
    return marketFunctions.health(this.client, options);
  }

  /** {@inheritDoc futures-sdk/market!symbols} */
  symbols(options?: CallOptions): Promise<SymbolsReturnType> {
    return marketFunctions.symbols(this.client, options);
  }

  /** {@inheritDoc futures-sdk/market!ticker24hr} */
  ticker24hr(query?: Ticker24hrParameters, options?: CallOptions): Promise<Ticker24hrReturnType> {
    return marketFunctions.ticker24hr(this.client, query, options);
  }

  /** {@inheritDoc futures-sdk/market!depth} */
  depth(query: DepthParameters, options?: CallOptions): Promise<DepthReturnType> {
    return marketFunctions.depth(this.client, query, options);
  }

  /** {@inheritDoc futures-sdk/market!trades} */
  trades(query: TradesParameters, options?: CallOptions): Promise<TradesReturnType> {
    return marketFunctions.trades(this.client, query, options);
  }

  /** {@inheritDoc futures-sdk/market!fundingRate} */
  fundingRate(query: FundingRateParameters, options?: CallOptions): Promise<FundingRateReturnType> {
    return marketFunctions.fundingRate(this.client, query, options);
  }

  /** {@inheritDoc futures-sdk/market!klines} */
  klines(query: KlinesParameters, options?: CallOptions): Promise<KlinesReturnType> {
    return marketFunctions.klines(this.client, query, options);
  }

  /** {@inheritDoc futures-sdk/market!leaderboard} */
  leaderboard<T extends LeaderboardType>(
    query: LeaderboardParameters<T>,
    options?: CallOptions,
  ): Promise<LeaderboardReturnType<T>> {
    return marketFunctions.leaderboard<T>(this.client, query, options);
  }

  /** {@inheritDoc futures-sdk/market!platformTokens} */
  platformTokens(options?: CallOptions): Promise<PlatformTokensReturnType> {
    return marketFunctions.platformTokens(this.client, options);
  }

  /** {@inheritDoc futures-sdk/market!platformStatus} */
  platformStatus(options?: CallOptions): Promise<PlatformStatusReturnType> {
    return marketFunctions.platformStatus(this.client, options);
  }
}
