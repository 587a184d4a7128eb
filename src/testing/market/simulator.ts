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
import { decCmp, decDiv, decNormalize, isDecimalString } from '../../_internal/decimal.ts';
import { HOUR, SECOND } from './candles.ts';
import { buildDepth, buildKlines, buildLeaderboard, buildTicker, type SymbolState, tradeWindow } from './derived.ts';
import { gaussian, rngFor } from './random.ts';
import { SYMBOL_SPECS, toUnits, units } from './symbols.ts';
import type {
  Candle,
  MarketSimulatorOptions,
  SimKlineInterval,
  SimLeaderboardPeriod,
  SimLeaderboardType,
  SimMarketChannel,
  SimPlatformStatus,
  SimPlatformToken,
  SimPublicTrade,
  SimTicker,
} from './types.ts';

/** Above this many 1 s steps, one `advance()` collapses the walk into a single step of the same variance. */
const MAX_WALK_STEPS = 3600;
/** The funding rate is "not cached" for this long after the simulator starts. */
const FUNDING_WARMUP_MS = 60 * SECOND;
const FUNDING_PERIOD_MS = 8 * HOUR;

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
   * ex.market.has('BTCUSDT'); // true
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
   * ex.market.symbolInfo('BTCUSDT'); // { tickSize: '0.1', stepSize: '0.001' }
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
   * const mark = ex.market.markPrice('ETHUSDT'); // e.g. '3512.34'
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
   * ex.market.setMarkPrice('BTCUSDT', '65000');
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
   * ex.market.advance(); // catches the walk up to the exchange's clock (ex.advance(ms) does this for you)
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
   * const off = ex.market.onMarkPrice((symbol, mark) => console.log(symbol, mark));
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
   * const { bids, asks } = ex.market.depth('BTCUSDT', 10);
   * ```
   */
  depth(symbol: string, limit = 100): { bids: [string, string][]; asks: [string, string][] } {
    return buildDepth(this.#seed, this.#state(symbol), this.#now(), limit);
  }

  /**
   * The newest `limit` (default 20, at most 1000) public trades, oldest first, with consecutive integer ids.
   *
   * @example
   * ```ts
   * const [last] = ex.market.trades('BTCUSDT', 1);
   * ```
   */
  trades(symbol: string, limit = 20): SimPublicTrade[] {
    return tradeWindow(this.#seed, this.#state(symbol), this.#now(), limit);
  }

  /**
   * 24-hour statistics; `lastPrice` is the mark. Stable within a minute.
   *
   * @example
   * ```ts
   * const { priceChangePercent } = ex.market.ticker('SOLUSDT');
   * ```
   */
  ticker(symbol: string): SimTicker {
    return buildTicker(this.#seed, this.#state(symbol), this.#now());
  }

  /**
   * The current funding rate, or `null` while it is not yet "cached": for the first 60 s after the simulator
   * starts, unless `setFundingRate` pinned a value. Otherwise a seeded rate per 8-hour funding period.
   * `at` (ms epoch, default now) reads the rule's rate of another moment; a pinned rate applies at any moment.
   *
   * @example
   * ```ts
   * ex.market.fundingRate('BTCUSDT'); // null at start, later e.g. '0.000105'
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
   * ex.market.setFundingRate('BTCUSDT', '0.0001');
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
   * const candles = ex.market.klines('BTCUSDT', '1h', 24);
   * const [openTime, open, high, low, close] = candles[0]!;
   * ```
   */
  klines(symbol: string, interval: SimKlineInterval, limit = 300): Candle[] {
    return buildKlines(this.#seed, this.#state(symbol), this.#now(), interval, limit, this.#baseVolatility());
  }

  /**
   * A seeded leaderboard (stable for a seed): `rank` and `walletAddress` on every row, then `accountId` +
   * `volume` (type `volume`), `userId` + `referralCount` (`referrals`) or `userId` + `totalCommission`
   * (`commission`), best first. `limit` defaults to 20, at most 100.
   *
   * @example
   * ```ts
   * const rows = ex.market.leaderboard('volume', '7d', 10);
   * ```
   */
  leaderboard(type: SimLeaderboardType, period: SimLeaderboardPeriod, limit = 20): unknown[] {
    return buildLeaderboard(this.#seed, type, period, limit);
  }

  /**
   * The (chainId, asset) → decimals registry and its content hash (the `ETag` of `GET /v2/platform/tokens`).
   *
   * @example
   * ```ts
   * const { hash, tokens } = ex.market.platformTokens();
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
   * ex.market.platformStatus().trading; // true
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
   * ex.market.setPlatformStatus({ trading: false });
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
   * const data = ex.market.marketPayload('BTCUSDT', 'depth');
   * ```
   */
  marketPayload(symbol: string, channel: SimMarketChannel): unknown {
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
}
