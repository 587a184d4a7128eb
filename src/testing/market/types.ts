/** Public types of the market simulation (`ex.market`). */

/** The candle intervals of GET /v2/klines (spec: "Klines"). */
export const SIM_KLINE_INTERVALS = [
  '1m',
  '3m',
  '5m',
  '15m',
  '30m',
  '1h',
  '2h',
  '4h',
  '6h',
  '8h',
  '12h',
  '1d',
  '3d',
  '1w',
  '1M',
] as const;

/**
 * One of {@link SIM_KLINE_INTERVALS}.
 *
 * @example
 * ```ts
 * import type { SimKlineInterval } from 'futures-sdk/testing';
 * const interval: SimKlineInterval = '15m';
 * const candles = ex.market.klines('BTCUSDT', interval, 96); // a day of 15-minute candles
 * ```
 */
export type SimKlineInterval = (typeof SIM_KLINE_INTERVALS)[number];

/**
 * A candle as the server sends it: the 12-element positional tuple of `GET /v2/klines`.
 *
 * @example
 * ```ts
 * import type { Candle } from 'futures-sdk/testing';
 * const [openTime, open, high, low, close]: Candle = ex.market.klines('BTCUSDT', '1h', 1)[0]!;
 * ```
 */
export type Candle = [
  openTime: number,
  open: string,
  high: string,
  low: string,
  close: string,
  volume: string,
  closeTime: number,
  quoteVolume: string,
  trades: number,
  takerBuyBase: string,
  takerBuyQuote: string,
  ignore: string,
];

/**
 * The firehose channels the simulated account WebSocket sends (`<SYMBOL>@<channel>`): exactly these four. The
 * client's `MarketChannel` (futures-sdk) stays open to channels a real server may add.
 *
 * @example
 * ```ts
 * import type { SimMarketChannel } from 'futures-sdk/testing';
 * const channel: SimMarketChannel = 'depth';
 * ```
 */
export type SimMarketChannel = 'depth' | 'trades' | 'ticker' | 'kline';

/**
 * Options of {@link MarketSimulator}.
 *
 * @example
 * ```ts
 * import type { MarketSimulatorOptions } from 'futures-sdk/testing';
 * const options: MarketSimulatorOptions = { seed: 1, now: () => Date.now(), volatility: 0 };
 * ```
 */
export interface MarketSimulatorOptions {
  /** Seed of every pseudo-random number; the same seed and the same `now()` readings give the same data. */
  seed: number;
  /** The exchange clock in ms epoch (injected so tests can drive it). */
  now: () => number;
  /**
   * Standard deviation of the mark price's relative move per 1 s step (default `0.0001`, i.e. 0.01 %, about 55 % a year).
   * `0` freezes every mark price, so it only changes through `setMarkPrice`.
   */
  volatility?: number;
}

/**
 * A 24-hour ticker row of `GET /v2/ticker/24hr`.
 *
 * @example
 * ```ts
 * import type { SimTicker } from 'futures-sdk/testing';
 * const { lastPrice }: SimTicker = ex.market.ticker('BTCUSDT');
 * ```
 */
export interface SimTicker {
  symbol: string;
  lastPrice: string;
  priceChange: string;
  priceChangePercent: string;
  highPrice: string;
  lowPrice: string;
  volume: string;
  quoteVolume: string;
}

/**
 * A public trade of `GET /v2/trades`.
 *
 * @example
 * ```ts
 * import type { SimPublicTrade } from 'futures-sdk/testing';
 * const [trade]: SimPublicTrade[] = ex.market.trades('BTCUSDT', 1);
 * ```
 */
export interface SimPublicTrade {
  id: number;
  price: string;
  qty: string;
  time: number;
  isBuyerMaker: boolean;
}

/**
 * A registered token of `GET /v2/platform/tokens`.
 *
 * @example
 * ```ts
 * import type { SimPlatformToken } from 'futures-sdk/testing';
 * const tokens: SimPlatformToken[] = ex.market.platformTokens().tokens;
 * ```
 */
export interface SimPlatformToken {
  chainId: number;
  asset: string;
  decimals: number;
  contractAddress: string;
}

/**
 * Feature switches of `GET /v2/platform/status`.
 *
 * @example
 * ```ts
 * import type { SimPlatformStatus } from 'futures-sdk/testing';
 * const status: SimPlatformStatus = ex.market.platformStatus();
 * ```
 */
export interface SimPlatformStatus {
  referral: boolean;
  trading: boolean;
  deposits: boolean;
  withdrawals: boolean;
}

/**
 * Leaderboard kinds.
 *
 * @example
 * ```ts
 * import type { SimLeaderboardType } from 'futures-sdk/testing';
 * const type: SimLeaderboardType = 'volume';
 * ```
 */
export type SimLeaderboardType = 'volume' | 'referrals' | 'commission';
/**
 * Leaderboard periods.
 *
 * @example
 * ```ts
 * import type { SimLeaderboardPeriod } from 'futures-sdk/testing';
 * const period: SimLeaderboardPeriod = '7d';
 * ```
 */
export type SimLeaderboardPeriod = '7d' | '30d' | 'all';
