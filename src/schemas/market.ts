import * as z from 'zod/mini';
import { pure } from '../_internal/pure.ts';
import { decimalString, int, tupleOf } from './common.ts';
import type { Strict } from './strict.ts';

/** A 24-hour ticker (`GET /v2/ticker/24hr`). Amounts are decimal strings. */
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
/** A 24-hour ticker. */
export type Ticker = Strict<z.infer<typeof tickerSchema>>;

/** One order-book level: `[price, quantity]`, both decimal strings. */
export type DepthLevel = [price: string, quantity: string];
/** Checks a {@link DepthLevel}. */
export const depthLevelSchema = /* @__PURE__ */ pure(() => tupleOf<DepthLevel>('ss'));

/** A public trade (`GET /v2/trades`). `id` is an integer and `time` a ms epoch. */
export const publicTradeSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ id: int(), price: decimalString, qty: decimalString, time: int(), isBuyerMaker: z.boolean() }),
);
/** A public trade. */
export type PublicTrade = Strict<z.infer<typeof publicTradeSchema>>;

/** Kline intervals the server accepts. */
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

/** A kline interval (`1m` … `1M`). */
export type KlineInterval = (typeof KLINE_INTERVALS)[number];

/** A raw candle: ms epochs and the trade count are integers, the rest decimal strings. `parseKline` names them. */
export type Kline = [
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
/** Checks a {@link Kline} (a 12-tuple). */
export const klineSchema = /* @__PURE__ */ pure(() => tupleOf<Kline>('nsssssnsnsss'));

/** Leaderboard kinds. */
export const LEADERBOARD_TYPES = ['volume', 'referrals', 'commission'] as const;
/** `volume`, `referrals` or `commission`. */
export type LeaderboardType = (typeof LEADERBOARD_TYPES)[number];

/** Leaderboard periods (the old `daily`/`weekly`/`monthly` return 400). */
export const LEADERBOARD_PERIODS = ['7d', '30d', 'all'] as const;
/** `7d`, `30d` or `all`. */
export type LeaderboardPeriod = (typeof LEADERBOARD_PERIODS)[number];

const rankShape = { rank: /* @__PURE__ */ pure(() => int()), walletAddress: /* @__PURE__ */ pure(() => z.string()) };

/** A `volume` leaderboard row. */
export const volumeLeaderboardEntrySchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ...rankShape, accountId: z.string(), volume: decimalString }),
);
/** A `volume` leaderboard row. */
export type VolumeLeaderboardEntry = Strict<z.infer<typeof volumeLeaderboardEntrySchema>>;

/** A `referrals` leaderboard row. */
export const referralsLeaderboardEntrySchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ...rankShape, userId: z.string(), referralCount: int() }),
);
/** A `referrals` leaderboard row. */
export type ReferralsLeaderboardEntry = Strict<z.infer<typeof referralsLeaderboardEntrySchema>>;

/** A `commission` leaderboard row. */
export const commissionLeaderboardEntrySchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ...rankShape, userId: z.string(), totalCommission: decimalString }),
);
/** A `commission` leaderboard row. */
export type CommissionLeaderboardEntry = Strict<z.infer<typeof commissionLeaderboardEntrySchema>>;

/** One entry of the token registry (`GET /v2/platform/tokens`): (chainId, asset) → decimals. */
export const platformTokenSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ chainId: int(), asset: z.string(), decimals: int(), contractAddress: z.string() }),
);
/** A registered token. */
export type PlatformToken = Strict<z.infer<typeof platformTokenSchema>>;

/** Platform feature switches (`GET /v2/platform/status`). */
export const platformFeaturesSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ referral: z.boolean(), trading: z.boolean(), deposits: z.boolean(), withdrawals: z.boolean() }),
);
/** Which platform features are on. */
export type PlatformFeatures = Strict<z.infer<typeof platformFeaturesSchema>>;
