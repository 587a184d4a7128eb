import type { Kline } from '../schemas/market.ts';

/** A candle with named fields. Prices and volumes stay decimal strings; times are ms epochs. */
export interface ParsedKline {
  openTime: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  closeTime: number;
  quoteVolume: string;
  /** Number of trades in the candle. */
  trades: number;
  takerBuyBase: string;
  takerBuyQuote: string;
}

/**
 * Names the fields of a raw 12-element candle from `market.klines` (the 12th element is ignored).
 * @example
 * ```ts
 * import { parseKline } from 'futures-sdk';
 * const { data } = await client.market.klines({ symbol: 'BTCUSDT', interval: '1m' });
 * const candles = data.map(parseKline);
 * console.log(candles[0]?.open, candles[0]?.openTime);
 * ```
 */
export function parseKline(tuple: Kline): ParsedKline {
  const [openTime, open, high, low, close, volume, closeTime, quoteVolume, trades, takerBuyBase, takerBuyQuote] = tuple;
  return { openTime, open, high, low, close, volume, closeTime, quoteVolume, trades, takerBuyBase, takerBuyQuote };
}
