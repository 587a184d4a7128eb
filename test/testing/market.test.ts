import { describe, expect, it } from 'vitest';
import { decCmp, decDiv, decMul, decSub } from '../../src/_internal/decimal.ts';
import { KLINE_INTERVALS } from '../../src/schemas/market.ts';
import { MarketSimulator } from '../../src/testing/market/simulator.ts';

const START = Date.UTC(2026, 3, 26, 12, 0, 0, 123);
const DECIMAL = /^\d+(\.\d+)?$/;

function simulator(seed = 1, start = START, volatility?: number) {
  let now = start;
  const market = new MarketSimulator({ seed, now: () => now, ...(volatility === undefined ? {} : { volatility }) });
  return {
    market,
    tick(ms: number) {
      now += ms;
    },
  };
}

/** True when `value` is a whole multiple of `unit` (both decimal strings). */
function onGrid(value: string, unit: string): boolean {
  const quotient = decDiv(value, unit, 12);
  return !quotient.includes('.');
}

describe('MarketSimulator: symbols and prices', () => {
  it('lists about 144 unique symbols, BTCUSDT first, the same for every seed', () => {
    const a = simulator(1).market;
    const b = simulator(99).market;
    expect(a.symbols.length).toBe(144);
    expect(new Set(a.symbols).size).toBe(144);
    expect(a.symbols.slice(0, 3)).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
    expect(b.symbols).toEqual(a.symbols);
    for (const symbol of a.symbols) expect(symbol).toMatch(/^[A-Z0-9]+USDT$/);
    expect(a.has('BTCUSDT')).toBe(true);
    expect(a.has('NOPEUSDT')).toBe(false);
  });

  it('gives every symbol a positive mark on its tick grid', () => {
    const { market } = simulator(7);
    for (const symbol of market.symbols) {
      const mark = market.markPrice(symbol);
      const { tickSize, stepSize } = market.symbolInfo(symbol);
      expect(mark).toMatch(DECIMAL);
      expect(decCmp(mark, '0')).toBe(1);
      expect(onGrid(mark, tickSize)).toBe(true);
      expect(stepSize).toMatch(DECIMAL);
    }
    expect(market.symbolInfo('BTCUSDT').tickSize).toBe('0.1');
    expect(Number(market.markPrice('BTCUSDT'))).toBeGreaterThan(50_000);
  });

  it('is deterministic: same seed and same clock give identical data; another seed differs', () => {
    const snapshot = (seed: number) => {
      const sim = simulator(seed);
      sim.tick(5_500);
      sim.market.advance();
      return JSON.stringify({
        marks: sim.market.symbols.map((s) => sim.market.markPrice(s)),
        depth: sim.market.depth('ETHUSDT', 5),
        trades: sim.market.trades('SOLUSDT', 5),
        ticker: sim.market.ticker('BTCUSDT'),
        klines: sim.market.klines('BTCUSDT', '1h', 5),
        board: sim.market.leaderboard('volume', '7d', 3),
      });
    };
    expect(snapshot(42)).toBe(snapshot(42));
    expect(snapshot(42)).not.toBe(snapshot(43));
  });

  it('walks one step per elapsed second regardless of how advance() calls are split', () => {
    const one = simulator(3);
    const many = simulator(3);
    one.tick(10_000);
    one.market.advance();
    for (let i = 0; i < 10; i++) {
      many.tick(1_000);
      many.market.advance();
    }
    expect(many.market.markPrice('BTCUSDT')).toBe(one.market.markPrice('BTCUSDT'));
    expect(one.market.markPrice('BTCUSDT')).not.toBe(simulator(3).market.markPrice('BTCUSDT'));
  });

  it('notifies listeners from setMarkPrice and advance, and stops after unsubscribe', () => {
    const { market, tick } = simulator(5);
    const seen: Array<[string, string]> = [];
    const off = market.onMarkPrice((symbol, mark) => seen.push([symbol, mark]));
    market.setMarkPrice('BTCUSDT', '65000.00');
    expect(seen).toEqual([['BTCUSDT', '65000']]);
    expect(market.markPrice('BTCUSDT')).toBe('65000');
    tick(3_000);
    market.advance();
    expect(seen.length).toBeGreaterThan(100);
    const btc = seen.filter(([symbol]) => symbol === 'BTCUSDT').at(-1)?.[1];
    expect(btc).toBe(market.markPrice('BTCUSDT'));
    off();
    const count = seen.length;
    market.setMarkPrice('ETHUSDT', '3000');
    expect(seen).toHaveLength(count);
  });

  it('keeps the mark frozen with volatility 0, and rejects bad input', () => {
    const { market, tick } = simulator(5, START, 0);
    const before = market.markPrice('BTCUSDT');
    tick(60_000);
    market.advance();
    expect(market.markPrice('BTCUSDT')).toBe(before);
    expect(() => market.setMarkPrice('BTCUSDT', '-1')).toThrow(TypeError);
    expect(() => market.setMarkPrice('BTCUSDT', '1e5')).toThrow(TypeError);
    expect(() => market.markPrice('NOPEUSDT')).toThrow(/Unknown symbol/);
  });
});

describe('MarketSimulator: derived data', () => {
  it('builds a sorted order book around the mark with the requested depth', () => {
    const { market } = simulator(11);
    market.setMarkPrice('BTCUSDT', '65000');
    const { bids, asks } = market.depth('BTCUSDT', 25);
    expect(bids).toHaveLength(25);
    expect(asks).toHaveLength(25);
    expect(bids[0]?.[0]).toBe('64999.9');
    expect(asks[0]?.[0]).toBe('65000.1');
    for (let i = 1; i < 25; i++) {
      expect(decCmp(bids[i]![0], bids[i - 1]![0])).toBe(-1);
      expect(decCmp(asks[i]![0], asks[i - 1]![0])).toBe(1);
    }
    for (const [price, qty] of [...bids, ...asks]) {
      expect(price).toMatch(DECIMAL);
      expect(decCmp(qty, '0')).toBe(1);
    }
    // An off-tick mark sits between the best bid and ask.
    market.setMarkPrice('BTCUSDT', '65000.05');
    const book = market.depth('BTCUSDT', 1);
    expect(book.bids[0]?.[0]).toBe('65000');
    expect(book.asks[0]?.[0]).toBe('65000.1');
  });

  it('returns public trades with consecutive ids, oldest first, never in the future, stable once seen', () => {
    const { market, tick } = simulator(12);
    const first = market.trades('BTCUSDT', 20);
    expect(first).toHaveLength(20);
    for (let i = 1; i < first.length; i++) {
      expect(first[i]!.id).toBe(first[i - 1]!.id + 1);
      expect(first[i]!.time).toBeGreaterThanOrEqual(first[i - 1]!.time);
    }
    expect(first.at(-1)!.time).toBeLessThanOrEqual(START);
    market.setMarkPrice('BTCUSDT', '70000');
    tick(2_000);
    const later = market.trades('BTCUSDT', 30);
    expect(later.at(-1)!.id).toBeGreaterThan(first.at(-1)!.id);
    // Trades already seen keep their price although the mark moved.
    const again = later.find((trade) => trade.id === first.at(-1)!.id);
    expect(again).toEqual(first.at(-1));
    expect(Number(later.at(-1)!.price)).toBeGreaterThan(69_000);
  });

  it('computes a ticker whose priceChange is exactly lastPrice − open', () => {
    const { market } = simulator(13);
    const ticker = market.ticker('ETHUSDT');
    expect(ticker.symbol).toBe('ETHUSDT');
    expect(ticker.lastPrice).toBe(market.markPrice('ETHUSDT'));
    const open = decSub(ticker.lastPrice, ticker.priceChange);
    expect(ticker.priceChangePercent).toBe(decDiv(decMul(ticker.priceChange, '100'), open, 3));
    expect(decCmp(ticker.highPrice, ticker.lastPrice)).toBeGreaterThanOrEqual(0);
    expect(decCmp(ticker.lowPrice, ticker.lastPrice)).toBeLessThanOrEqual(0);
    expect(decCmp(ticker.highPrice, open)).toBeGreaterThanOrEqual(0);
    expect(decCmp(ticker.lowPrice, open)).toBeLessThanOrEqual(0);
    const percent = Number(decDiv(decSub(ticker.lastPrice, open), open, 8)) * 100;
    expect(Number(ticker.priceChangePercent)).toBeCloseTo(percent, 2);
    for (const key of ['volume', 'quoteVolume', 'highPrice', 'lowPrice'] as const) expect(ticker[key]).toMatch(DECIMAL);
    // An off-tick mark set by a test still lies within the day's range.
    market.setMarkPrice('ETHUSDT', '3500.004');
    const offTick = market.ticker('ETHUSDT');
    expect(offTick.lastPrice).toBe('3500.004');
    expect(decCmp(offTick.highPrice, '3500.004')).toBeGreaterThanOrEqual(0);
    expect(decCmp(offTick.lowPrice, '3500.004')).toBeLessThanOrEqual(0);
  });

  it('keeps funding null for the first 60 s, then caches a rate; setFundingRate pins a value', () => {
    const { market, tick } = simulator(14);
    expect(market.fundingRate('BTCUSDT')).toBeNull();
    tick(59_000);
    expect(market.fundingRate('BTCUSDT')).toBeNull();
    tick(1_000);
    const rate = market.fundingRate('BTCUSDT');
    expect(rate).toMatch(/^-?\d+(\.\d+)?$/);
    market.setFundingRate('ETHUSDT', '0.00015');
    expect(market.fundingRate('ETHUSDT')).toBe('0.00015');
    market.setFundingRate('BTCUSDT', null);
    expect(market.fundingRate('BTCUSDT')).toBeNull();
  });

  it.each(KLINE_INTERVALS)('builds %s klines aligned to interval boundaries with consistent OHLC', (interval) => {
    const { market } = simulator(15);
    const candles = market.klines('BTCUSDT', interval, 30);
    expect(candles).toHaveLength(30);
    for (let i = 0; i < candles.length; i++) {
      const [openTime, open, high, low, close, volume, closeTime, quoteVolume, trades, takerBase, takerQuote, ignored] =
        candles[i]!;
      expect(candles[i]).toHaveLength(12);
      const date = new Date(openTime);
      expect(date.getUTCSeconds()).toBe(0);
      if (interval === '1M') expect(date.getUTCDate()).toBe(1);
      if (interval === '1w') expect(date.getUTCDay()).toBe(1);
      if (interval.endsWith('d') || interval === '1w' || interval === '1M') expect(date.getUTCHours()).toBe(0);
      if (i > 0) {
        expect(openTime).toBe(candles[i - 1]![6] + 1);
        expect(open).toBe(candles[i - 1]![4]);
      }
      expect(closeTime).toBeGreaterThan(openTime);
      for (const price of [open, close]) {
        expect(decCmp(low, price)).toBeLessThanOrEqual(0);
        expect(decCmp(price, high)).toBeLessThanOrEqual(0);
      }
      expect(decCmp(low, '0')).toBe(1);
      for (const value of [volume, quoteVolume, takerBase, takerQuote]) expect(value).toMatch(DECIMAL);
      expect(decCmp(takerBase, volume)).toBeLessThanOrEqual(0);
      expect(Number.isInteger(trades)).toBe(true);
      expect(typeof ignored).toBe('string');
    }
    const newest = candles.at(-1)!;
    expect(newest[0]).toBeLessThanOrEqual(START);
    expect(newest[6]).toBeGreaterThanOrEqual(START);
    expect(newest[4]).toBe(market.markPrice('BTCUSDT'));
  });

  it('ranks leaderboards best-first with the per-type fields and at most 100 rows', () => {
    const { market } = simulator(16);
    const volume = market.leaderboard('volume', 'all', 100) as Array<Record<string, unknown>>;
    expect(volume).toHaveLength(100);
    volume.forEach((row, i) => {
      expect(row.rank).toBe(i + 1);
      expect(row.walletAddress).toMatch(/^0x[0-9a-f]{40}$/);
      expect(typeof row.accountId).toBe('string');
      expect(row.volume).toMatch(DECIMAL);
      if (i > 0) expect(decCmp(String(row.volume), String(volume[i - 1]!.volume))).toBeLessThanOrEqual(0);
    });
    const referrals = market.leaderboard('referrals', '7d', 5) as Array<Record<string, unknown>>;
    expect(Object.keys(referrals[0]!).sort()).toEqual(['rank', 'referralCount', 'userId', 'walletAddress']);
    expect(Number.isInteger(referrals[0]!.referralCount)).toBe(true);
    const commission = market.leaderboard('commission', '30d', 5) as Array<Record<string, unknown>>;
    expect(Object.keys(commission[0]!).sort()).toEqual(['rank', 'totalCommission', 'userId', 'walletAddress']);
  });

  it('serves the token registry with a stable content hash and the platform switches', () => {
    const { market } = simulator(17);
    const a = market.platformTokens();
    expect(a.hash).toMatch(/^[0-9a-f]{16,64}$/);
    expect(simulator(18).market.platformTokens().hash).toBe(a.hash);
    expect(a.tokens.find((t) => t.chainId === 1 && t.asset === 'USDT')?.decimals).toBe(6);
    expect(market.platformStatus()).toEqual({ referral: true, trading: true, deposits: true, withdrawals: true });
    market.setPlatformStatus({ trading: false });
    expect(market.platformStatus().trading).toBe(false);
  });

  it('produces a firehose payload for each channel', () => {
    const { market } = simulator(19);
    const depth = market.marketPayload('BTCUSDT', 'depth') as { bids: unknown[]; asks: unknown[] };
    expect(depth.bids).toHaveLength(10);
    expect(market.marketPayload('BTCUSDT', 'trades')).toMatchObject({ symbol: 'BTCUSDT', id: expect.any(Number) });
    expect(market.marketPayload('BTCUSDT', 'ticker')).toMatchObject({ symbol: 'BTCUSDT' });
    const kline = market.marketPayload('BTCUSDT', 'kline') as { interval: string; candle: unknown[] };
    expect(kline.interval).toBe('1m');
    expect(kline.candle).toHaveLength(12);
  });
});
