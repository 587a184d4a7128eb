/** Time buckets of the market data: UTC candle boundaries for every kline interval. */

import type { SimKlineInterval } from './types.ts';

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

const FIXED_INTERVAL_MS: Record<Exclude<SimKlineInterval, '1M'>, number> = {
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
export function candleOpen(interval: SimKlineInterval, time: number): number {
  if (interval === '1M') {
    const date = new Date(time);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  }
  const size = FIXED_INTERVAL_MS[interval];
  const offset = interval === '1w' ? WEEK_OFFSET : 0;
  return Math.floor((time - offset) / size) * size + offset;
}

/** Open time of the candle `delta` candles after the one opening at `open` (negative goes back). */
export function shiftCandle(interval: SimKlineInterval, open: number, delta: number): number {
  if (interval === '1M') {
    const date = new Date(open);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + delta, 1);
  }
  return open + delta * FIXED_INTERVAL_MS[interval];
}

export function intervalSeconds(interval: SimKlineInterval): number {
  return interval === '1M' ? (30 * DAY) / SECOND : FIXED_INTERVAL_MS[interval] / SECOND;
}
