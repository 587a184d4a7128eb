/**
 * Deterministic market data of the simulated exchange: ~144 symbols whose mark prices follow seeded random walks,
 * and the public payloads derived from them (ticker, depth, trades, klines, funding, leaderboard, platform).
 *
 * Floats appear only inside the walk (step sizes); every emitted price or quantity is an integer number of ticks
 * or lot steps turned into a decimal string with exact arithmetic, so the same seed and the same clock readings
 * always give the same strings.
 */

import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import {
  decCmp,
  decDiv,
  decMax,
  decMin,
  decMul,
  decNormalize,
  decRound,
  decSub,
  isDecimalString,
} from '../_internal/decimal.ts';
import { KLINE_INTERVALS, type Kline, type KlineInterval } from '../schemas/market.ts';

/**
 * A candle as the server sends it: the 12-element positional tuple of `GET /v2/klines`.
 *
 * @example
 * ```ts
 * const [openTime, open, high, low, close]: Candle = market.klines('BTCUSDT', '1h', 1)[0]!;
 * ```
 */
export type Candle = Kline;

/**
 * The firehose channels of the account WebSocket (`<SYMBOL>@<channel>`).
 *
 * @example
 * ```ts
 * const channel: MarketChannel = 'depth';
 * ```
 */
export type MarketChannel = 'depth' | 'trades' | 'ticker' | 'kline';

/**
 * Options of {@link MarketSimulator}.
 *
 * @example
 * ```ts
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
 * const { lastPrice }: SimTicker = market.ticker('BTCUSDT');
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
 * const [trade]: SimPublicTrade[] = market.trades('BTCUSDT', 1);
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
 * const tokens: SimPlatformToken[] = market.platformTokens().tokens;
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
 * const status: SimPlatformStatus = market.platformStatus();
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
 * const type: SimLeaderboardType = 'volume';
 * ```
 */
export type SimLeaderboardType = 'volume' | 'referrals' | 'commission';
/**
 * Leaderboard periods.
 *
 * @example
 * ```ts
 * const period: SimLeaderboardPeriod = '7d';
 * ```
 */
export type SimLeaderboardPeriod = '7d' | '30d' | 'all';

// ── Seeded randomness ──────────────────────────────────────────────────────────────────────────────────────

/** Folds `value` (any safe integer, or a string) into a 32-bit hash state. */
function mix(state: number, value: number | string): number {
  let h = state >>> 0;
  if (typeof value === 'string') {
    for (let i = 0; i < value.length; i++) h = Math.imul(h ^ value.charCodeAt(i), 0x01000193) >>> 0;
    return avalanche(h ^ value.length);
  }
  // Safe integers above 2^32 (ms timestamps, trade slots) contribute both halves.
  const low = value >>> 0;
  const high = Math.floor(value / 0x1_0000_0000) >>> 0;
  return avalanche(Math.imul(h ^ low, 0x9e3779b1) ^ high);
}

function avalanche(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function hashKey(seed: number, ...parts: Array<number | string>): number {
  let h = mix(0x811c9dc5, seed);
  for (const part of parts) h = mix(h, part);
  return h;
}

/** mulberry32: a tiny 32-bit generator; integer-only, so identical on every JavaScript engine. */
function mulberry32(state: number): () => number {
  let a = state >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Approximately standard normal (Irwin–Hall of 4 uniforms): only + and ×, so no engine-specific Math.log/cos. */
function gaussian(rand: () => number): number {
  return (rand() + rand() + rand() + rand() - 2) * 1.7320508075688772;
}

function rngFor(seed: number, ...parts: Array<number | string>): () => number {
  return mulberry32(hashKey(seed, ...parts));
}

// ── Symbols ────────────────────────────────────────────────────────────────────────────────────────────────

/** Well-known contracts with a plausible starting price; the rest of the ~144 are generated names. */
const KNOWN_BASES: ReadonlyArray<readonly [string, number]> = [
  ['BTC', 65000],
  ['ETH', 3500],
  ['SOL', 150],
  ['BNB', 600],
  ['XRP', 0.6],
  ['DOGE', 0.15],
  ['ADA', 0.45],
  ['AVAX', 35],
  ['LINK', 15],
  ['DOT', 7],
  ['TRX', 0.12],
  ['POL', 0.7],
  ['LTC', 80],
  ['BCH', 450],
  ['NEAR', 6],
  ['UNI', 8],
  ['ATOM', 9],
  ['APT', 9],
  ['ARB', 1.1],
  ['OP', 2.5],
  ['SUI', 1.2],
  ['FIL', 6],
  ['ETC', 27],
  ['XLM', 0.11],
  ['INJ', 25],
  ['TIA', 10],
  ['SEI', 0.5],
  ['AAVE', 100],
  ['MKR', 2800],
  ['RUNE', 5],
  ['LDO', 2],
  ['WIF', 2.5],
  ['ORDI', 40],
  ['FET', 1.5],
  ['RENDER', 8],
  ['IMX', 2],
  ['STX', 2],
  ['HBAR', 0.08],
  ['ICP', 12],
  ['TON', 6],
];

/** Number of active symbols (the spec says "about 144"). */
const SYMBOL_COUNT = 144;

interface SymbolSpec {
  symbol: string;
  index: number;
  /** Fractional digits of the tick size. */
  priceDecimals: number;
  tickSize: string;
  /** Fractional digits of the lot step. */
  qtyDecimals: number;
  stepSize: string;
  initialPrice: number;
  /** Typical 24 h quote volume in USDT (drives volumes and order-book sizes). */
  dailyQuoteVolume: number;
  /** Milliseconds between two public trades. */
  tradeIntervalMs: number;
}

function unitString(decimals: number): string {
  return decimals === 0 ? '1' : `0.${'0'.repeat(decimals - 1)}1`;
}

/** About five significant digits of price resolution, as real venues choose. */
function priceDecimalsFor(price: number): number {
  return Math.min(8, Math.max(1, 5 - Math.floor(Math.log10(price))));
}

function qtyDecimalsFor(price: number): number {
  return Math.min(3, Math.max(0, Math.floor(Math.log10(price)) - 1));
}

/** Fixed across seeds, so tests can rely on the symbol list; only prices depend on the seed. */
function buildSymbolSpecs(): SymbolSpec[] {
  const bases: Array<readonly [string, number]> = [...KNOWN_BASES];
  const taken = new Set(bases.map(([base]) => base));
  const rand = mulberry32(0x5eed_5eed);
  const consonants = 'BCDFGHJKLMNPRSTVWXZ';
  const vowels = 'AEIOUY';
  while (bases.length < SYMBOL_COUNT) {
    const length = 3 + Math.floor(rand() * 3);
    let name = '';
    for (let i = 0; i < length; i++) {
      const alphabet = i % 2 === 0 ? consonants : vowels;
      name += alphabet[Math.floor(rand() * alphabet.length)];
    }
    if (taken.has(name)) continue;
    taken.add(name);
    // Log-uniform between 0.001 and 500 USDT.
    const price = Number((10 ** (-3 + rand() * 5.7)).toPrecision(3));
    bases.push([name, price]);
  }
  return bases.map(([base, price], index) => {
    const priceDecimals = priceDecimalsFor(price);
    const qtyDecimals = qtyDecimalsFor(price);
    const rand2 = mulberry32(hashKey(0x5eed, base));
    const rankWeight = 1 / (1 + index / 4);
    return {
      symbol: `${base}USDT`,
      index,
      priceDecimals,
      tickSize: unitString(priceDecimals),
      qtyDecimals,
      stepSize: unitString(qtyDecimals),
      initialPrice: price,
      dailyQuoteVolume: Math.round(2e9 * rankWeight * (0.5 + rand2())),
      tradeIntervalMs: index < 10 ? 250 : 500 + Math.floor(rand2() * 8) * 250,
    };
  });
}

const SYMBOL_SPECS = buildSymbolSpecs();

// ── Time buckets ───────────────────────────────────────────────────────────────────────────────────────────

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const FIXED_INTERVAL_MS: Record<Exclude<KlineInterval, '1M'>, number> = {
  '1m': MINUTE,
  '3m': 3 * MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': HOUR,
  '2h': 2 * HOUR,
  '4h': 4 * HOUR,
  '6h': 6 * HOUR,
  '8h': 8 * HOUR,
  '12h': 12 * HOUR,
  '1d': DAY,
  '3d': 3 * DAY,
  '1w': 7 * DAY,
};

/** 1970-01-01 was a Thursday; weekly candles open on Mondays, 4 days later. */
const WEEK_OFFSET = 4 * DAY;

/** Open time of the candle of `interval` that contains `time` (UTC boundaries). */
function candleOpen(interval: KlineInterval, time: number): number {
  if (interval === '1M') {
    const date = new Date(time);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  }
  const size = FIXED_INTERVAL_MS[interval];
  const offset = interval === '1w' ? WEEK_OFFSET : 0;
  return Math.floor((time - offset) / size) * size + offset;
}

/** Open time of the candle `delta` candles after the one opening at `open` (negative goes back). */
function shiftCandle(interval: KlineInterval, open: number, delta: number): number {
  if (interval === '1M') {
    const date = new Date(open);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + delta, 1);
  }
  return open + delta * FIXED_INTERVAL_MS[interval];
}

function intervalSeconds(interval: KlineInterval): number {
  return interval === '1M' ? (30 * DAY) / SECOND : FIXED_INTERVAL_MS[interval] / SECOND;
}

// ── Exact formatting ───────────────────────────────────────────────────────────────────────────────────────

/** `units` whole ticks (or lot steps) of `unit` as an exact decimal string. */
function units(count: number, unit: string): string {
  return decMul(String(count), unit);
}

/** The number of whole `decimals`-digit units in a positive decimal string, rounded half up. Exact. */
function toUnits(value: string, decimals: number): number {
  return Number(decDiv(value, unitString(decimals), 0));
}

// ── The simulator ──────────────────────────────────────────────────────────────────────────────────────────

interface SymbolState {
  spec: SymbolSpec;
  /** The mark as returned by `markPrice` (exact; may be off-tick after `setMarkPrice`). */
  mark: string;
  /** The mark in whole ticks, for the walk and derived data. */
  markTicks: number;
  /** Oldest-first cache of generated public trades (contiguous ids), so a trade never changes once seen. */
  trades: SimPublicTrade[];
  /** Explicit funding rate set by `setFundingRate` (`null` pins "not cached"); undefined follows the rule. */
  fundingOverride?: string | null;
}

/** Above this many 1 s steps, one `advance()` collapses the walk into a single step of the same variance. */
const MAX_WALK_STEPS = 3600;
/** The funding rate is "not cached" for this long after the simulator starts. */
const FUNDING_WARMUP_MS = 60 * SECOND;
const FUNDING_PERIOD_MS = 8 * HOUR;
const MAX_TRADE_CACHE = 1000;
const DEPTH_LEVELS_MAX = 1000;

const PLATFORM_TOKENS: readonly SimPlatformToken[] = [
  { chainId: 1, asset: 'USDC', decimals: 6, contractAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' },
  { chainId: 1, asset: 'USDT', decimals: 6, contractAddress: '0xdAC17F958D2ee523a2206206994597C13D831ec7' },
  { chainId: 56, asset: 'USDC', decimals: 18, contractAddress: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d' },
  { chainId: 56, asset: 'USDT', decimals: 18, contractAddress: '0x55d398326f99059fF775485246999027B3197955' },
  { chainId: 42161, asset: 'USDC', decimals: 6, contractAddress: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831' },
  { chainId: 42161, asset: 'USDT', decimals: 6, contractAddress: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9' },
];

/**
 * Market data of the simulated exchange. Deterministic: the same `seed` and the same `now()` readings (and the
 * same calls) give the same strings.
 *
 * Rules worth knowing:
 * - Mark prices walk one step per whole second of `now()` when {@link MarketSimulator.advance} is called; a gap
 *   of more than an hour is collapsed into one step of the same variance. Listeners fire once per changed symbol
 *   per `advance()`, with the final mark.
 * - Funding rates are `null` ("not cached") until 60 s after construction, then follow a seeded rate per 8-hour
 *   funding period; `setFundingRate` pins a value (or `null`) for a symbol.
 * - Depth is stable within a second, tickers within a minute; public trades are generated once per trade slot
 *   around the mark at the time they are first observed and never change afterwards.
 *
 * @example
 * ```ts
 * const market = new MarketSimulator({ seed: 1, now: () => Date.now() });
 * market.setMarkPrice('BTCUSDT', '65000');
 * const { bids, asks } = market.depth('BTCUSDT', 5);
 * ```
 */
export class MarketSimulator {
  /** Every active symbol, in a fixed order (BTCUSDT first). */
  readonly symbols: readonly string[];
  readonly #seed: number;
  readonly #now: () => number;
  readonly #volatility: number;
  readonly #startedAt: number;
  readonly #states = new Map<string, SymbolState>();
  readonly #listeners = new Set<(symbol: string, mark: string) => void>();
  #lastStep: number;
  #platformStatus: SimPlatformStatus = { referral: true, trading: true, deposits: true, withdrawals: true };
  #tokensHash: string | undefined;

  constructor(options: MarketSimulatorOptions) {
    this.#seed = options.seed >>> 0;
    this.#now = options.now;
    this.#volatility = options.volatility ?? 0.0001;
    this.#startedAt = this.#now();
    this.#lastStep = Math.floor(this.#startedAt / SECOND);
    this.symbols = Object.freeze(SYMBOL_SPECS.map((spec) => spec.symbol));
    for (const spec of SYMBOL_SPECS) {
      const jitter = 0.95 + rngFor(this.#seed, 'init', spec.index)() * 0.1;
      const markTicks = Math.max(1, Math.round((spec.initialPrice * jitter) / Number(spec.tickSize)));
      this.#states.set(spec.symbol, { spec, markTicks, mark: units(markTicks, spec.tickSize), trades: [] });
    }
  }

  /**
   * Whether `symbol` is an active symbol.
   *
   * @example
   * ```ts
   * market.has('BTCUSDT'); // true
   * ```
   */
  has(symbol: string): boolean {
    return this.#states.has(symbol);
  }

  /**
   * Tick size and lot step of a symbol, as decimal strings.
   *
   * @example
   * ```ts
   * market.symbolInfo('BTCUSDT'); // { tickSize: '0.1', stepSize: '0.001' }
   * ```
   */
  symbolInfo(symbol: string): { tickSize: string; stepSize: string } {
    const { spec } = this.#state(symbol);
    return { tickSize: spec.tickSize, stepSize: spec.stepSize };
  }

  /**
   * The current mark price (decimal string).
   *
   * @example
   * ```ts
   * const mark = market.markPrice('ETHUSDT'); // e.g. '3512.34'
   * ```
   */
  markPrice(symbol: string): string {
    return this.#state(symbol).mark;
  }

  /**
   * Sets the mark price (any positive decimal string, kept exactly) and notifies listeners. The walk continues
   * from it, rounded to the tick, at the next `advance()`.
   *
   * @example
   * ```ts
   * market.setMarkPrice('BTCUSDT', '65000');
   * ```
   */
  setMarkPrice(symbol: string, price: string): void {
    const state = this.#state(symbol);
    if (!isDecimalString(price) || decCmp(price, '0') <= 0) {
      throw new TypeError(`Mark price must be a positive decimal string, got ${JSON.stringify(price)}`);
    }
    state.mark = decNormalize(price);
    state.markTicks = Math.max(1, toUnits(state.mark, state.spec.priceDecimals));
    this.#emit(symbol, state.mark);
  }

  /**
   * Steps every mark-price walk up to `now()` (one step per whole second elapsed since the last step) and
   * notifies listeners of each symbol whose mark changed.
   *
   * @example
   * ```ts
   * clock.tick(5_000);
   * market.advance(); // five steps per symbol
   * ```
   */
  advance(): void {
    const target = Math.floor(this.#now() / SECOND);
    const steps = target - this.#lastStep;
    if (steps <= 0) return;
    const from = this.#lastStep;
    this.#lastStep = target;
    if (this.#volatility === 0) return;
    const changed: string[] = [];
    for (const state of this.#states.values()) {
      const before = state.markTicks;
      let ticks = before;
      if (steps > MAX_WALK_STEPS) {
        ticks = this.#walkStep(state.spec.index, target, ticks, Math.sqrt(steps));
      } else {
        for (let step = from + 1; step <= target; step++) ticks = this.#walkStep(state.spec.index, step, ticks, 1);
      }
      if (ticks !== before) {
        state.markTicks = ticks;
        state.mark = units(ticks, state.spec.tickSize);
        changed.push(state.spec.symbol);
      }
    }
    for (const symbol of changed) this.#emit(symbol, this.#state(symbol).mark);
  }

  /**
   * Subscribes to mark-price changes (from `setMarkPrice` and `advance`). Returns the unsubscribe function.
   *
   * @example
   * ```ts
   * const off = market.onMarkPrice((symbol, mark) => console.log(symbol, mark));
   * off();
   * ```
   */
  onMarkPrice(listener: (symbol: string, mark: string) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /**
   * The top `limit` (default 100, at most 1000) levels each side: bids best-first (descending), asks best-first
   * (ascending), as `[price, quantity]` decimal strings. Stable within a second.
   *
   * @example
   * ```ts
   * const { bids, asks } = market.depth('BTCUSDT', 10);
   * ```
   */
  depth(symbol: string, limit = 100): { bids: [string, string][]; asks: [string, string][] } {
    const state = this.#state(symbol);
    const { spec } = state;
    const count = clampInt(limit, 1, DEPTH_LEVELS_MAX);
    const rand = rngFor(this.#seed, 'depth', spec.index, Math.floor(this.#now() / SECOND));
    // A symmetric book around the mark: best bid one tick under it, best ask one tick over it.
    const exact = units(state.markTicks, spec.tickSize) === state.mark;
    const below = exact ? state.markTicks - 1 : toFloorUnits(state.mark, spec.priceDecimals);
    const above = exact ? state.markTicks + 1 : below + 1;
    const levelQty = this.#typicalLevelUnits(state);
    const side = (start: number, direction: 1 | -1): [string, string][] => {
      const levels: [string, string][] = [];
      let price = start;
      for (let i = 0; i < count && price >= 1; i++) {
        const qty = Math.max(1, Math.round(levelQty * (0.2 + rand() * 1.6) * (1 + i / 20)));
        levels.push([units(price, spec.tickSize), units(qty, spec.stepSize)]);
        price += direction * (rand() < 0.8 ? 1 : 2);
      }
      return levels;
    };
    return { bids: side(below, -1), asks: side(above, 1) };
  }

  /**
   * The newest `limit` (default 20, at most 1000) public trades, oldest first, with consecutive integer ids.
   *
   * @example
   * ```ts
   * const [last] = market.trades('BTCUSDT', 1);
   * ```
   */
  trades(symbol: string, limit = 20): SimPublicTrade[] {
    const state = this.#state(symbol);
    const count = clampInt(limit, 1, MAX_TRADE_CACHE);
    const interval = state.spec.tradeIntervalMs;
    // Only slots that have fully elapsed, so no trade is ever timestamped in the future.
    const last = Math.floor(this.#now() / interval) - 1;
    const first = last - count + 1;
    const cache = state.trades;
    const cachedFirst = cache[0]?.id;
    const cachedLast = cache.at(-1)?.id;
    if (cachedFirst === undefined || cachedLast === undefined || last - cachedLast > MAX_TRADE_CACHE) {
      state.trades = this.#makeTrades(state, first, last);
    } else {
      const older = first < cachedFirst ? this.#makeTrades(state, first, cachedFirst - 1) : [];
      const newer = last > cachedLast ? this.#makeTrades(state, cachedLast + 1, last) : [];
      state.trades = [...older, ...cache, ...newer];
    }
    if (state.trades.length > MAX_TRADE_CACHE) state.trades = state.trades.slice(-MAX_TRADE_CACHE);
    // The cache holds consecutive ids, so the wanted window is a slice.
    const base = state.trades[0]?.id ?? first;
    return state.trades.slice(Math.max(0, first - base), Math.max(0, last - base + 1)).map((trade) => ({ ...trade }));
  }

  /**
   * 24-hour statistics; `lastPrice` is the mark. Stable within a minute.
   *
   * @example
   * ```ts
   * const { priceChangePercent } = market.ticker('SOLUSDT');
   * ```
   */
  ticker(symbol: string): SimTicker {
    const state = this.#state(symbol);
    const { spec } = state;
    const rand = rngFor(this.#seed, 'ticker', spec.index, Math.floor(this.#now() / MINUTE));
    const last = state.markTicks;
    const change = (rand() - 0.5) * 0.12;
    const open = Math.max(1, Math.round(last / (1 + change)));
    const high = Math.max(open, last) + Math.round(last * rand() * 0.02);
    const low = Math.max(1, Math.min(open, last) - Math.round(last * rand() * 0.02));
    const openPrice = units(open, spec.tickSize);
    const priceChange = decSub(state.mark, openPrice);
    const average = units(Math.round((open + last + high + low) / 4), spec.tickSize);
    const quote = spec.dailyQuoteVolume * (0.7 + rand() * 0.6);
    const volumeUnits = Math.max(1, Math.round(quote / Number(average) / Number(spec.stepSize)));
    const volume = units(volumeUnits, spec.stepSize);
    return {
      symbol,
      lastPrice: state.mark,
      priceChange,
      priceChangePercent: decDiv(decMul(priceChange, '100'), openPrice, 3),
      // decMax/decMin: an off-tick mark (from setMarkPrice) must still lie inside the day's range.
      highPrice: decMax(units(high, spec.tickSize), state.mark),
      lowPrice: decMin(units(low, spec.tickSize), state.mark),
      volume,
      quoteVolume: decRound(decMul(volume, average), 2),
    };
  }

  /**
   * The current funding rate, or `null` while it is not yet "cached": for the first 60 s after the simulator
   * starts, unless `setFundingRate` pinned a value. Otherwise a seeded rate per 8-hour funding period.
   * `at` (ms epoch, default now) reads the rule's rate of another moment; a pinned rate applies at any moment.
   *
   * @example
   * ```ts
   * market.fundingRate('BTCUSDT'); // null at start, later e.g. '0.000105'
   * ```
   */
  fundingRate(symbol: string, at?: number): string | null {
    const state = this.#state(symbol);
    if (state.fundingOverride !== undefined) return state.fundingOverride;
    const now = at ?? this.#now();
    if (now - this.#startedAt < FUNDING_WARMUP_MS) return null;
    const rand = rngFor(this.#seed, 'funding', state.spec.index, Math.floor(now / FUNDING_PERIOD_MS));
    // Mostly the usual 0.01 % baseline, within [-0.005 %, +0.03 %].
    const millionths = 100 + Math.round(gaussian(rand) * 40);
    return decDiv(String(Math.min(300, Math.max(-50, millionths))), '1000000', 6);
  }

  /**
   * Pins the funding rate of `symbol` (`null` pins "not cached").
   *
   * @example
   * ```ts
   * market.setFundingRate('BTCUSDT', '0.0001');
   * ```
   */
  setFundingRate(symbol: string, rate: string | null): void {
    const state = this.#state(symbol);
    if (rate !== null && !isDecimalString(rate)) {
      throw new TypeError(`Funding rate must be a decimal string or null, got ${JSON.stringify(rate)}`);
    }
    state.fundingOverride = rate === null ? null : decNormalize(rate);
  }

  /**
   * The newest `limit` candles (default 300, at most 1500) of `interval`, oldest first, aligned to UTC interval
   * boundaries (weeks open on Monday, months on the 1st). The last candle is the open one and closes at the mark.
   *
   * @example
   * ```ts
   * const candles = market.klines('BTCUSDT', '1h', 24);
   * const [openTime, open, high, low, close] = candles[0]!;
   * ```
   */
  klines(symbol: string, interval: KlineInterval, limit = 300): Candle[] {
    const state = this.#state(symbol);
    const { spec } = state;
    if (!(KLINE_INTERVALS as readonly string[]).includes(interval)) throw new TypeError(`Unknown interval ${interval}`);
    const count = clampInt(limit, 1, 1500);
    const sigma = Math.min(0.25, this.#baseVolatility() * Math.sqrt(intervalSeconds(interval)));
    const candles: Candle[] = [];
    let openTime = candleOpen(interval, this.#now());
    let close = state.markTicks;
    // Built backwards from the mark so the open candle always ends at the current price.
    for (let i = 0; i < count; i++) {
      const rand = rngFor(this.#seed, 'kline', spec.index, interval, openTime);
      const open = Math.max(1, Math.round(close * (1 - gaussian(rand) * sigma)));
      const high = Math.max(open, close) + Math.round(close * rand() * sigma * 0.6);
      const low = Math.max(1, Math.min(open, close) - Math.round(close * rand() * sigma * 0.6));
      const closeTime = shiftCandle(interval, openTime, 1) - 1;
      const average = units(Math.round((open + high + low + close) / 4), spec.tickSize);
      const share = Math.min(1, (closeTime + 1 - openTime) / DAY);
      const quote = spec.dailyQuoteVolume * share * (0.4 + rand() * 1.2);
      const volumeUnits = Math.max(1, Math.round(quote / Number(average) / Number(spec.stepSize)));
      const takerUnits = Math.floor(volumeUnits * (0.3 + rand() * 0.4));
      const volume = units(volumeUnits, spec.stepSize);
      const takerBase = units(takerUnits, spec.stepSize);
      candles.push([
        openTime,
        units(open, spec.tickSize),
        units(high, spec.tickSize),
        units(low, spec.tickSize),
        i === 0 ? state.mark : units(close, spec.tickSize),
        volume,
        closeTime,
        decRound(decMul(volume, average), 4),
        Math.max(1, Math.round(volumeUnits / (1 + rand() * 20))),
        takerBase,
        decRound(decMul(takerBase, average), 4),
        '0',
      ]);
      close = open;
      openTime = shiftCandle(interval, openTime, -1);
    }
    // The open candle's high/low must contain an off-tick mark too.
    const newest = candles[0];
    if (newest) {
      if (decCmp(newest[4], newest[2]) > 0) newest[2] = newest[4];
      if (decCmp(newest[4], newest[3]) < 0) newest[3] = newest[4];
    }
    return candles.reverse();
  }

  /**
   * A seeded leaderboard (stable for a seed): `rank` and `walletAddress` on every row, then `accountId` +
   * `volume` (type `volume`), `userId` + `referralCount` (`referrals`) or `userId` + `totalCommission`
   * (`commission`), best first. `limit` defaults to 20, at most 100.
   *
   * @example
   * ```ts
   * const rows = market.leaderboard('volume', '7d', 10);
   * ```
   */
  leaderboard(type: SimLeaderboardType, period: SimLeaderboardPeriod, limit = 20): unknown[] {
    const count = clampInt(limit, 1, 100);
    const rand = rngFor(this.#seed, 'leaderboard', type, period);
    const scale = period === '7d' ? 1 : period === '30d' ? 4 : 25;
    // Each row is a fraction of the previous one, so the board is sorted best-first by construction.
    let amount = Math.round((type === 'volume' ? 4_000_000_00 : 25_000_00) * scale * (0.8 + rand() * 0.4));
    let referrals = Math.round(300 * scale * (0.8 + rand() * 0.4));
    const rows: unknown[] = [];
    for (let rank = 1; rank <= count; rank++) {
      const id = (n: number) =>
        Math.floor(rand() * 0x1_0000_0000)
          .toString(16)
          .padStart(n, '0');
      const walletAddress = `0x${id(8)}${id(8)}${id(8)}${id(8)}${id(8)}`;
      if (type === 'volume') {
        rows.push({ rank, walletAddress, accountId: `acc_${id(8)}`, volume: decDiv(String(amount), '100', 2) });
      } else if (type === 'referrals') {
        rows.push({ rank, walletAddress, userId: `usr_${id(8)}`, referralCount: referrals });
      } else {
        rows.push({ rank, walletAddress, userId: `usr_${id(8)}`, totalCommission: decDiv(String(amount), '100', 2) });
      }
      amount = Math.max(0, Math.floor(amount * (0.75 + rand() * 0.24)));
      referrals = Math.max(0, Math.floor(referrals * (0.7 + rand() * 0.29)));
    }
    return rows;
  }

  /**
   * The (chainId, asset) → decimals registry and its content hash (the `ETag` of `GET /v2/platform/tokens`).
   *
   * @example
   * ```ts
   * const { hash, tokens } = market.platformTokens();
   * ```
   */
  platformTokens(): { hash: string; tokens: SimPlatformToken[] } {
    const tokens = PLATFORM_TOKENS.map((token) => ({ ...token }));
    this.#tokensHash ??= bytesToHex(sha256(utf8ToBytes(JSON.stringify(tokens)))).slice(0, 32);
    return { hash: this.#tokensHash, tokens };
  }

  /**
   * The platform feature switches (all on unless changed with `setPlatformStatus`).
   *
   * @example
   * ```ts
   * market.platformStatus().trading; // true
   * ```
   */
  platformStatus(): SimPlatformStatus {
    return { ...this.#platformStatus };
  }

  /**
   * Changes platform feature switches, e.g. to test a client's reaction to paused trading.
   *
   * @example
   * ```ts
   * market.setPlatformStatus({ trading: false });
   * ```
   */
  setPlatformStatus(status: Partial<SimPlatformStatus>): void {
    this.#platformStatus = { ...this.#platformStatus, ...status };
  }

  /**
   * The `data` of one firehose message `{ stream: '<SYMBOL>@<channel>', data }`: `depth` → `{ symbol, time,
   * bids, asks }` (10 levels), `trades` → the newest public trade plus `symbol`, `ticker` → the 24 h ticker,
   * `kline` → `{ symbol, interval: '1m', candle }`.
   *
   * @example
   * ```ts
   * const data = market.marketPayload('BTCUSDT', 'depth');
   * ```
   */
  marketPayload(symbol: string, channel: MarketChannel): unknown {
    switch (channel) {
      case 'depth':
        return { symbol, time: this.#now(), ...this.depth(symbol, 10) };
      case 'trades':
        return { symbol, ...this.trades(symbol, 1)[0] };
      case 'ticker':
        return this.ticker(symbol);
      case 'kline':
        return { symbol, interval: '1m', candle: this.klines(symbol, '1m', 1)[0] };
      default:
        throw new TypeError(`Unknown market channel ${String(channel)}`);
    }
  }

  #state(symbol: string): SymbolState {
    const state = this.#states.get(symbol);
    if (!state) throw new RangeError(`Unknown symbol ${JSON.stringify(symbol)}`);
    return state;
  }

  #emit(symbol: string, mark: string): void {
    for (const listener of [...this.#listeners]) listener(symbol, mark);
  }

  #baseVolatility(): number {
    // Derived data keeps some movement even when the walk is frozen.
    return this.#volatility > 0 ? this.#volatility : 0.0001;
  }

  #walkStep(symbolIndex: number, step: number, ticks: number, scale: number): number {
    const rand = rngFor(this.#seed, symbolIndex, step);
    const move = Math.round(gaussian(rand) * ticks * this.#volatility * scale);
    return Math.max(1, ticks + move);
  }

  #typicalLevelUnits(state: SymbolState): number {
    const levelQuote = state.spec.dailyQuoteVolume / 20_000;
    return Math.max(
      1,
      Math.round(levelQuote / (state.markTicks * Number(state.spec.tickSize)) / Number(state.spec.stepSize)),
    );
  }

  #makeTrades(state: SymbolState, first: number, last: number): SimPublicTrade[] {
    const { spec } = state;
    const interval = spec.tradeIntervalMs;
    const typical = this.#typicalLevelUnits(state);
    const trades: SimPublicTrade[] = [];
    for (let id = first; id <= last; id++) {
      const rand = rngFor(this.#seed, 'trade', spec.index, id);
      const price = Math.max(1, state.markTicks + Math.round((rand() - 0.5) * 4));
      const qty = Math.max(1, Math.round(typical * rand() * 0.5));
      trades.push({
        id,
        price: units(price, spec.tickSize),
        qty: units(qty, spec.stepSize),
        time: id * interval + Math.floor(rand() * interval),
        isBuyerMaker: rand() < 0.5,
      });
    }
    return trades;
  }
}

function clampInt(value: number, min: number, max: number): number {
  if (!Number.isFinite(value)) return min;
  return Math.min(max, Math.max(min, Math.trunc(value)));
}

/** Whole `decimals`-digit units in a positive decimal string, rounded down. Exact (string digits only). */
function toFloorUnits(value: string, decimals: number): number {
  const [int = '0', frac = ''] = value.split('.');
  return Number(`${int}${frac.padEnd(decimals, '0').slice(0, decimals)}`);
}
