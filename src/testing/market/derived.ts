/**
 * The data derived from a symbol's mark: order book, public trades, 24 h ticker, klines, and the seeded
 * leaderboard. Pure functions of (seed, symbol state, clock reading), except that public trades are cached once
 * generated so a trade never changes after it was seen.
 */

import { decCmp, decDiv, decMax, decMin, decMul, decRound, decSub } from '../../_internal/decimal.ts';
import { candleOpen, DAY, intervalSeconds, MINUTE, SECOND, shiftCandle } from './candles.ts';
import { gaussian, rngFor } from './random.ts';
import { type SymbolSpec, toFloorUnits, units } from './symbols.ts';
import {
  type Candle,
  SIM_KLINE_INTERVALS,
  type SimKlineInterval,
  type SimLeaderboardPeriod,
  type SimLeaderboardType,
  type SimPublicTrade,
  type SimTicker,
} from './types.ts';

export interface SymbolState {
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

export const MAX_TRADE_CACHE = 1000;
const DEPTH_LEVELS_MAX = 1000;

export function clampInt(value: number, min: number, max: number): number {
  if (!Number.isFinite(value)) return min;
  return Math.min(max, Math.max(min, Math.trunc(value)));
}

function typicalLevelUnits(state: SymbolState): number {
  const levelQuote = state.spec.dailyQuoteVolume / 20_000;
  return Math.max(
    1,
    Math.round(levelQuote / (state.markTicks * Number(state.spec.tickSize)) / Number(state.spec.stepSize)),
  );
}

function makeTrades(seed: number, state: SymbolState, first: number, last: number): SimPublicTrade[] {
  const { spec } = state;
  const interval = spec.tradeIntervalMs;
  const typical = typicalLevelUnits(state);
  const trades: SimPublicTrade[] = [];
  for (let id = first; id <= last; id++) {
    const rand = rngFor(seed, 'trade', spec.index, id);
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

/** The top `limit` levels each side around the mark; stable within a second. */
export function buildDepth(
  seed: number,
  state: SymbolState,
  now: number,
  limit: number,
): { bids: [string, string][]; asks: [string, string][] } {
  const { spec } = state;
  const count = clampInt(limit, 1, DEPTH_LEVELS_MAX);
  const rand = rngFor(seed, 'depth', spec.index, Math.floor(now / SECOND));
  // A symmetric book around the mark: best bid one tick under it, best ask one tick over it.
  const exact = units(state.markTicks, spec.tickSize) === state.mark;
  const below = exact ? state.markTicks - 1 : toFloorUnits(state.mark, spec.priceDecimals);
  const above = exact ? state.markTicks + 1 : below + 1;
  const levelQty = typicalLevelUnits(state);
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

/** The newest `limit` public trades, oldest first (updates the state's trade cache). */
export function tradeWindow(seed: number, state: SymbolState, now: number, limit: number): SimPublicTrade[] {
  const count = clampInt(limit, 1, MAX_TRADE_CACHE);
  const interval = state.spec.tradeIntervalMs;
  // Only slots that have fully elapsed, so no trade is ever timestamped in the future.
  const last = Math.floor(now / interval) - 1;
  const first = last - count + 1;
  const cache = state.trades;
  const cachedFirst = cache[0]?.id;
  const cachedLast = cache.at(-1)?.id;
  if (cachedFirst === undefined || cachedLast === undefined || last - cachedLast > MAX_TRADE_CACHE) {
    state.trades = makeTrades(seed, state, first, last);
  } else {
    const older = first < cachedFirst ? makeTrades(seed, state, first, cachedFirst - 1) : [];
    const newer = last > cachedLast ? makeTrades(seed, state, cachedLast + 1, last) : [];
    state.trades = [...older, ...cache, ...newer];
  }
  if (state.trades.length > MAX_TRADE_CACHE) state.trades = state.trades.slice(-MAX_TRADE_CACHE);
  // The cache holds consecutive ids, so the wanted window is a slice.
  const base = state.trades[0]?.id ?? first;
  return state.trades.slice(Math.max(0, first - base), Math.max(0, last - base + 1)).map((trade) => ({ ...trade }));
}

/** 24-hour statistics; `lastPrice` is the mark. Stable within a minute. */
export function buildTicker(seed: number, state: SymbolState, now: number): SimTicker {
  const symbol = state.spec.symbol;
  const { spec } = state;
  const rand = rngFor(seed, 'ticker', spec.index, Math.floor(now / MINUTE));
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

/** The newest `limit` candles of `interval`, oldest first; the open one closes at the mark. */
export function buildKlines(
  seed: number,
  state: SymbolState,
  now: number,
  interval: SimKlineInterval,
  limit: number,
  baseVolatility: number,
): Candle[] {
  const { spec } = state;
  if (!(SIM_KLINE_INTERVALS as readonly string[]).includes(interval))
    throw new TypeError(`Unknown interval ${interval}`);
  const count = clampInt(limit, 1, 1500);
  const sigma = Math.min(0.25, baseVolatility * Math.sqrt(intervalSeconds(interval)));
  const candles: Candle[] = [];
  let openTime = candleOpen(interval, now);
  let close = state.markTicks;
  // Built backwards from the mark so the open candle always ends at the current price.
  for (let i = 0; i < count; i++) {
    const rand = rngFor(seed, 'kline', spec.index, interval, openTime);
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

/** A seeded leaderboard, best first. */
export function buildLeaderboard(
  seed: number,
  type: SimLeaderboardType,
  period: SimLeaderboardPeriod,
  limit: number,
): unknown[] {
  const count = clampInt(limit, 1, 100);
  const rand = rngFor(seed, 'leaderboard', type, period);
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
