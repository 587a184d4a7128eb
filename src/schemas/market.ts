import * as z from 'zod/mini';
import { pure } from '../_internal/pure.ts';
import { decimalString } from './common.ts';
import type { Strict } from './strict.ts';

/**
 * A 24-hour ticker (`GET /v2/ticker/24hr`). Amounts are decimal strings.
 *
 * @example
 * ```ts
 * const { tickers } = await client.market.ticker24hr({ symbol: 'BTCUSDT' });
 * console.log(tickers[0]?.lastPrice);
 * ```
 */
export const tickerSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    symbol: z.string(),
    lastPrice: decimalString,
    priceChange: decimalString,
    priceChangePercent: decimalString,
    highPrice: decimalString,
    lowPrice: decimalString,
    volume: decimalString,
    quoteVolume: decimalString,
  }),
);

/**
 * A 24-hour ticker.
 *
 * @example
 * ```ts
 * import { type Ticker, tickerSchema } from 'futures-sdk';
 * const value: Ticker = tickerSchema.parse(json);
 * ```
 */
export type Ticker = Strict<z.infer<typeof tickerSchema>>;

/**
 * One order-book level: `[price, quantity]`, both decimal strings.
 *
 * @example
 * ```ts
 * const { bids } = await client.market.depth({ symbol: 'BTCUSDT' });
 * const [bestBid, size] = bids[0] ?? [];
 * ```
 */
export const depthLevelSchema = /* @__PURE__ */ pure(() => z.tuple([decimalString, decimalString]));

/**
 * `[price, quantity]`.
 *
 * @example
 * ```ts
 * import { type DepthLevel, depthLevelSchema } from 'futures-sdk';
 * const value: DepthLevel = depthLevelSchema.parse(json);
 * ```
 */
export type DepthLevel = Strict<z.infer<typeof depthLevelSchema>>;

/**
 * A public trade (`GET /v2/trades`). `id` is an integer and `time` a ms epoch.
 *
 * @example
 * ```ts
 * const { trades } = await client.market.trades({ symbol: 'BTCUSDT', limit: 5 });
 * ```
 */
export const publicTradeSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    id: z.int(),
    price: decimalString,
    qty: decimalString,
    time: z.int(),
    isBuyerMaker: z.boolean(),
  }),
);

/**
 * A public trade.
 *
 * @example
 * ```ts
 * import { type PublicTrade, publicTradeSchema } from 'futures-sdk';
 * const value: PublicTrade = publicTradeSchema.parse(json);
 * ```
 */
export type PublicTrade = Strict<z.infer<typeof publicTradeSchema>>;

/**
 * Kline intervals the server accepts.
 *
 * @example
 * ```ts
 * import { KLINE_INTERVALS } from 'futures-sdk';
 * const ok = (KLINE_INTERVALS as readonly string[]).includes(userInput);
 * ```
 */
export const KLINE_INTERVALS = [
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
 * A kline interval (`1m` … `1M`).
 *
 * @example
 * ```ts
 * import type { KlineInterval } from 'futures-sdk';
 * const interval: KlineInterval = '15m';
 * await client.market.klines({ symbol: 'BTCUSDT', interval });
 * ```
 */
export type KlineInterval = (typeof KLINE_INTERVALS)[number];

/**
 * A candle as the server sends it: a positional 12-tuple — openTime (ms), open, high, low, close, volume,
 * closeTime (ms), quoteVolume, trades (count), takerBuyBase, takerBuyQuote, ignored. Use `parseKline` for names.
 *
 * @example
 * ```ts
 * const { data } = await client.market.klines({ symbol: 'BTCUSDT', interval: '1h' });
 * const [openTime, open, high, low, close] = data[0]!;
 * ```
 */
export const klineSchema = /* @__PURE__ */ pure(() =>
  z.tuple([
    z.int(),
    decimalString,
    decimalString,
    decimalString,
    decimalString,
    decimalString,
    z.int(),
    decimalString,
    z.int(),
    decimalString,
    decimalString,
    z.string(),
  ]),
);

/**
 * A raw candle (12-tuple).
 *
 * @example
 * ```ts
 * import { type Kline, klineSchema } from 'futures-sdk';
 * const value: Kline = klineSchema.parse(json);
 * ```
 */
export type Kline = Strict<z.infer<typeof klineSchema>>;

/**
 * Leaderboard kinds.
 *
 * @example
 * ```ts
 * import { LEADERBOARD_TYPES } from 'futures-sdk';
 * for (const type of LEADERBOARD_TYPES) console.log((await client.market.leaderboard({ type })).data.length);
 * ```
 */
export const LEADERBOARD_TYPES = ['volume', 'referrals', 'commission'] as const;
/**
 * `volume`, `referrals` or `commission`.
 *
 * @example
 * ```ts
 * import type { LeaderboardType } from 'futures-sdk';
 * const type: LeaderboardType = 'commission';
 * ```
 */
export type LeaderboardType = (typeof LEADERBOARD_TYPES)[number];

/**
 * Leaderboard periods (the old `daily`/`weekly`/`monthly` return 400).
 *
 * @example
 * ```ts
 * import { LEADERBOARD_PERIODS } from 'futures-sdk';
 * console.log(LEADERBOARD_PERIODS); // ['7d', '30d', 'all']
 * ```
 */
export const LEADERBOARD_PERIODS = ['7d', '30d', 'all'] as const;
/**
 * `7d`, `30d` or `all`.
 *
 * @example
 * ```ts
 * import type { LeaderboardPeriod } from 'futures-sdk';
 * const period: LeaderboardPeriod = '30d';
 * await client.market.leaderboard({ type: 'volume', period });
 * ```
 */
export type LeaderboardPeriod = (typeof LEADERBOARD_PERIODS)[number];

const rankShape = {
  rank: /* @__PURE__ */ pure(() => z.int()),
  walletAddress: /* @__PURE__ */ pure(() => z.string()),
};

/**
 * A `volume` leaderboard row.
 *
 * @example
 * ```ts
 * const { data } = await client.market.leaderboard({ type: 'volume' });
 * console.log(data[0]?.volume);
 * ```
 */
export const volumeLeaderboardEntrySchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    ...rankShape,
    accountId: z.string(),
    volume: decimalString,
  }),
);
/**
 * A `volume` leaderboard row.
 *
 * @example
 * ```ts
 * import { type VolumeLeaderboardEntry, volumeLeaderboardEntrySchema } from 'futures-sdk';
 * const value: VolumeLeaderboardEntry = volumeLeaderboardEntrySchema.parse(json);
 * ```
 */
export type VolumeLeaderboardEntry = Strict<z.infer<typeof volumeLeaderboardEntrySchema>>;

/**
 * A `referrals` leaderboard row.
 *
 * @example
 * ```ts
 * const { data } = await client.market.leaderboard({ type: 'referrals' });
 * console.log(data[0]?.referralCount);
 * ```
 */
export const referralsLeaderboardEntrySchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    ...rankShape,
    userId: z.string(),
    referralCount: z.int(),
  }),
);
/**
 * A `referrals` leaderboard row.
 *
 * @example
 * ```ts
 * import { type ReferralsLeaderboardEntry, referralsLeaderboardEntrySchema } from 'futures-sdk';
 * const value: ReferralsLeaderboardEntry = referralsLeaderboardEntrySchema.parse(json);
 * ```
 */
export type ReferralsLeaderboardEntry = Strict<z.infer<typeof referralsLeaderboardEntrySchema>>;

/**
 * A `commission` leaderboard row.
 *
 * @example
 * ```ts
 * const { data } = await client.market.leaderboard({ type: 'commission' });
 * console.log(data[0]?.totalCommission);
 * ```
 */
export const commissionLeaderboardEntrySchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    ...rankShape,
    userId: z.string(),
    totalCommission: decimalString,
  }),
);
/**
 * A `commission` leaderboard row.
 *
 * @example
 * ```ts
 * import { type CommissionLeaderboardEntry, commissionLeaderboardEntrySchema } from 'futures-sdk';
 * const value: CommissionLeaderboardEntry = commissionLeaderboardEntrySchema.parse(json);
 * ```
 */
export type CommissionLeaderboardEntry = Strict<z.infer<typeof commissionLeaderboardEntrySchema>>;

/**
 * One entry of the token registry (`GET /v2/platform/tokens`): (chainId, asset) → decimals.
 *
 * @example
 * ```ts
 * const { tokens } = await client.market.platformTokens();
 * const usdt = tokens.find((t) => t.chainId === 1 && t.asset === 'USDT');
 * ```
 */
export const platformTokenSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    chainId: z.int(),
    asset: z.string(),
    decimals: z.int(),
    contractAddress: z.string(),
  }),
);

/**
 * A registered token.
 *
 * @example
 * ```ts
 * import { type PlatformToken, platformTokenSchema } from 'futures-sdk';
 * const value: PlatformToken = platformTokenSchema.parse(json);
 * ```
 */
export type PlatformToken = Strict<z.infer<typeof platformTokenSchema>>;

/**
 * Platform feature switches (`GET /v2/platform/status`).
 *
 * @example
 * ```ts
 * const { features } = await client.market.platformStatus();
 * if (!features.trading) console.warn('trading is paused');
 * ```
 */
export const platformFeaturesSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    referral: z.boolean(),
    trading: z.boolean(),
    deposits: z.boolean(),
    withdrawals: z.boolean(),
  }),
);

/**
 * Which platform features are on.
 *
 * @example
 * ```ts
 * import { type PlatformFeatures, platformFeaturesSchema } from 'futures-sdk';
 * const value: PlatformFeatures = platformFeaturesSchema.parse(json);
 * ```
 */
export type PlatformFeatures = Strict<z.infer<typeof platformFeaturesSchema>>;
