// Generated from src/endpoints/market/ by npm run generate:resources (scripts/generate-resources.ts): edit those.
import type { BaseClient } from '../base-client.ts';
import type { DepthParameters, DepthReturnType } from '../endpoints/market/depth.ts';
import type { FundingRateParameters, FundingRateReturnType } from '../endpoints/market/funding-rate.ts';
import type { HealthReturnType } from '../endpoints/market/health.ts';
import * as marketFunctions from '../endpoints/market/index.ts';
import type { KlinesParameters, KlinesReturnType } from '../endpoints/market/klines.ts';
import type { LeaderboardParameters, LeaderboardReturnType } from '../endpoints/market/leaderboard.ts';
import type { PlatformStatusReturnType } from '../endpoints/market/platform-status.ts';
import type { PlatformTokensReturnType } from '../endpoints/market/platform-tokens.ts';
import type { SymbolsReturnType } from '../endpoints/market/symbols.ts';
import type { Ticker24hrParameters, Ticker24hrReturnType } from '../endpoints/market/ticker-24hr.ts';
import type { TradesParameters, TradesReturnType } from '../endpoints/market/trades.ts';
import type { CallOptions } from '../options.ts';
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
  readonly #client: BaseClient;

  /** @internal */
  constructor(client: BaseClient) {
    this.#client = client;
  }

  /** {@inheritDoc futures-sdk/market!depth} */
  async depth(query: DepthParameters, options?: CallOptions): Promise<DepthReturnType> {
    return await marketFunctions.depth(this.#client, query, options);
  }
  /** {@inheritDoc futures-sdk/market!fundingRate} */
  async fundingRate(query: FundingRateParameters, options?: CallOptions): Promise<FundingRateReturnType> {
    return await marketFunctions.fundingRate(this.#client, query, options);
  }
  /** {@inheritDoc futures-sdk/market!health} */
  async health(options?: CallOptions): Promise<HealthReturnType> {
    return await marketFunctions.health(this.#client, options);
  }
  /** {@inheritDoc futures-sdk/market!klines} */
  async klines(query: KlinesParameters, options?: CallOptions): Promise<KlinesReturnType> {
    return await marketFunctions.klines(this.#client, query, options);
  }
  /** {@inheritDoc futures-sdk/market!leaderboard} */
  async leaderboard<T extends LeaderboardType>(
    query: LeaderboardParameters<T>,
    options?: CallOptions,
  ): Promise<LeaderboardReturnType<T>> {
    return await marketFunctions.leaderboard<T>(this.#client, query, options);
  }
  /** {@inheritDoc futures-sdk/market!platformStatus} */
  async platformStatus(options?: CallOptions): Promise<PlatformStatusReturnType> {
    return await marketFunctions.platformStatus(this.#client, options);
  }
  /** {@inheritDoc futures-sdk/market!platformTokens} */
  async platformTokens(options?: CallOptions): Promise<PlatformTokensReturnType> {
    return await marketFunctions.platformTokens(this.#client, options);
  }
  /** {@inheritDoc futures-sdk/market!symbols} */
  async symbols(options?: CallOptions): Promise<SymbolsReturnType> {
    return await marketFunctions.symbols(this.#client, options);
  }
  /** {@inheritDoc futures-sdk/market!ticker24hr} */
  async ticker24hr(query?: Ticker24hrParameters, options?: CallOptions): Promise<Ticker24hrReturnType> {
    return await marketFunctions.ticker24hr(this.#client, query, options);
  }
  /** {@inheritDoc futures-sdk/market!trades} */
  async trades(query: TradesParameters, options?: CallOptions): Promise<TradesReturnType> {
    return await marketFunctions.trades(this.#client, query, options);
  }
}
