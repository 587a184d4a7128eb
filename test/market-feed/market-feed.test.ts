// The market feed (issue 23) on a real socket against the simulator: shared sources, batching, the stream as a
// source, unsubscribe, errors with backoff, listener isolation, and trading calls before the feed's polls.

import { EventEmitter } from 'node:events';
import {
  ConfigurationError,
  createPublicClient,
  FuturesClient,
  type FuturesError,
  type Kline,
  ListenerError,
  type PublicTrade,
  type Ticker,
} from 'futures-sdk';
import { createMarketFeed, type MarketDepth, ticker24hr } from 'futures-sdk/market';
import { createExchange } from 'futures-sdk/testing';
import { describe, expect, it } from 'vitest';
import { until } from '../events/helpers.ts';
import { cleanups, count, quiet, rig, served, streamRig } from './rig.ts';

const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'];

describe('MarketFeed (polling)', () => {
  it('N widgets on M symbols: one request per channel (and symbol) per interval, one ticker request for all', async () => {
    const { ex, clock, client } = await rig();
    const feed = createMarketFeed(client, { intervalMs: 1_000, klinesLimit: 50 });
    cleanups.push(() => feed.close());
    const WIDGETS = 4;
    const got = { ticker: 0, depth: 0, trades: 0, klines: 0 };
    for (let w = 0; w < WIDGETS; w++) {
      for (const symbol of SYMBOLS) {
        feed.ticker(symbol, (t: Ticker) => {
          expect(t.symbol).toBe(symbol);
          got.ticker++;
        });
        feed.depth(symbol, (book: MarketDepth) => {
          expect(book.symbol).toBe(symbol);
          got.depth++;
        });
        feed.trades(symbol, (trades: PublicTrade[]) => {
          got.trades += trades.length > 0 ? 1 : 0;
        });
        feed.klines(symbol, '1m', (candles: Kline[]) => {
          expect(candles.length).toBeLessThanOrEqual(50);
          got.klines++;
        });
      }
    }
    const rounds: Array<Record<string, number>> = [];
    for (let round = 0; round < 4; round++) {
      const from = ex.requests.length;
      clock.advance(round === 0 ? 0 : 1_000);
      await quiet(ex, clock);
      rounds.push(count(served(ex, from)));
    }
    const perInterval = { '/v2/ticker/24hr': 1, '/v2/depth': 3, '/v2/trades': 3, '/v2/klines': 3 };
    for (const round of rounds) expect(round).toEqual(perInterval);
    // 4 widgets × 3 symbols × 4 channels = 48 subscriptions, 10 requests a round (not 48).
    expect(got.ticker).toBe(4 * WIDGETS * SYMBOLS.length);
    expect(got.depth).toBe(4 * WIDGETS * SYMBOLS.length);
    expect(got.klines).toBe(4 * WIDGETS * SYMBOLS.length);
    expect(got.trades).toBeGreaterThanOrEqual(WIDGETS * SYMBOLS.length);
    // After the history, candles are read two at a time.
    const limits = ex.requests.filter((r) => r.path === '/v2/klines').map((r) => r.query['limit']);
    expect(limits.slice(0, 3)).toEqual(['50', '50', '50']);
    expect(new Set(limits.slice(3))).toEqual(new Set(['2']));
  });

  it('one ticker symbol asks for that symbol only; a late widget gets the last value at once', async () => {
    const { ex, clock, client } = await rig();
    const feed = createMarketFeed(client, { intervalMs: 1_000 });
    cleanups.push(() => feed.close());
    const first: string[] = [];
    feed.ticker('BTCUSDT', (t) => first.push(t.lastPrice));
    clock.advance(0);
    await quiet(ex);
    expect(served(ex)).toEqual(['/v2/ticker/24hr?one']);
    const late: string[] = [];
    feed.ticker('BTCUSDT', (t) => late.push(t.lastPrice));
    await until(() => late.length === 1);
    expect(late).toEqual(first);
    expect(served(ex)).toHaveLength(1);
  });

  it('the last unsubscribe stops polling; unsubscribing twice is harmless', async () => {
    const { ex, clock, client } = await rig();
    const feed = createMarketFeed(client, { intervalMs: 1_000 });
    cleanups.push(() => feed.close());
    const a: MarketDepth[] = [];
    const b: MarketDepth[] = [];
    const stopA = feed.depth('ETHUSDT', (book) => a.push(book));
    const stopB = feed.depth('ETHUSDT', (book) => b.push(book));
    clock.advance(0);
    await quiet(ex);
    stopA();
    stopA(); // must not drop B's share of the source
    clock.advance(1_000);
    await quiet(ex);
    expect(served(ex)).toEqual(['/v2/depth', '/v2/depth']);
    expect([a.length, b.length]).toEqual([1, 2]);
    stopB();
    stopB();
    expect(clock.pending).toBe(0);
    clock.advance(10_000);
    await quiet(ex);
    expect(served(ex)).toEqual(['/v2/depth', '/v2/depth']);
    // Two widgets with the same function are two subscriptions.
    const shared = () => {};
    const stop1 = feed.trades('ETHUSDT', shared);
    feed.trades('ETHUSDT', shared);
    stop1();
    clock.advance(0);
    await quiet(ex);
    expect(served(ex)).toEqual(['/v2/depth', '/v2/depth', '/v2/trades']);
  });

  it('a failed poll is an error event, backs off (2×, 4× the interval) and recovers; other channels go on', async () => {
    const { ex, clock, client } = await rig({ retry: false });
    const feed = createMarketFeed(client, { intervalMs: 1_000 });
    cleanups.push(() => feed.close());
    const errors: FuturesError[] = [];
    feed.on('error', (error) => errors.push(error));
    ex.faults.add({ path: '/v2/depth', status: 503, times: 2 });
    const books: MarketDepth[] = [];
    let tickers = 0;
    feed.depth('BTCUSDT', (book) => books.push(book));
    feed.ticker('BTCUSDT', () => tickers++);
    const depthAt: number[] = [];
    const start = clock.now();
    for (let t = 0; t <= 8_000; t += 1_000) {
      const from = ex.requests.length;
      clock.advance(t === 0 ? 0 : 1_000);
      await quiet(ex);
      if (served(ex, from).includes('/v2/depth')) depthAt.push(clock.now() - start);
    }
    expect(depthAt).toEqual([0, 2_000, 6_000, 7_000, 8_000]);
    expect(errors.map((e) => e.name)).toEqual(['ServerError', 'ServerError']);
    expect(books).toHaveLength(3);
    expect(tickers).toBe(9);
  });

  it('a throwing listener is reported as a ListenerError and harms no other listener', async () => {
    const { ex, clock, client } = await rig();
    const feed = createMarketFeed(client, { intervalMs: 1_000 });
    cleanups.push(() => feed.close());
    const errors: FuturesError[] = [];
    feed.on('error', (error) => errors.push(error));
    feed.on('error', () => {
      throw new Error('a broken error listener is only logged');
    });
    const good: string[] = [];
    feed.ticker('BTCUSDT', () => {
      throw new Error('widget bug');
    });
    feed.ticker('BTCUSDT', (t) => good.push(t.symbol));
    feed.ticker('ETHUSDT', (t) => good.push(t.symbol));
    for (let round = 0; round < 2; round++) {
      clock.advance(round === 0 ? 0 : 1_000);
      await quiet(ex);
    }
    expect(good.sort()).toEqual(['BTCUSDT', 'BTCUSDT', 'ETHUSDT', 'ETHUSDT']);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toBeInstanceOf(ListenerError);
    expect(errors[0]).toMatchObject({ source: 'feed', event: 'ticker' });
    expect(errors[0]!.message).toContain('widget bug');
  });

  it('a ticker symbol added mid-interval is read at once with the others, then all share one request', async () => {
    const { ex, clock, client } = await rig();
    const feed = createMarketFeed(client, { intervalMs: 1_000 });
    cleanups.push(() => feed.close());
    const seen: string[] = [];
    feed.ticker('BTCUSDT', (t) => seen.push(t.symbol));
    clock.advance(0);
    await quiet(ex);
    clock.advance(500);
    feed.ticker('ETHUSDT', (t) => seen.push(t.symbol));
    clock.advance(0);
    await quiet(ex);
    const from = ex.requests.length;
    for (let i = 0; i < 3; i++) {
      clock.advance(1_000);
      await quiet(ex);
    }
    expect(served(ex).slice(0, from)).toEqual(['/v2/ticker/24hr?one', '/v2/ticker/24hr']);
    expect(served(ex, from)).toEqual(['/v2/ticker/24hr', '/v2/ticker/24hr', '/v2/ticker/24hr']);
    expect(seen.filter((s) => s === 'ETHUSDT')).toHaveLength(4);
  });

  it('a symbol the server has no ticker for is reported once; the others go on', async () => {
    const { ex, clock, client } = await rig();
    const feed = createMarketFeed(client, { intervalMs: 1_000 });
    cleanups.push(() => feed.close());
    const errors: FuturesError[] = [];
    feed.on('error', (error) => errors.push(error));
    let tickers = 0;
    feed.ticker('BTCUSDT', () => tickers++);
    feed.ticker('NOPEUSDT', () => tickers++);
    for (let round = 0; round < 3; round++) {
      clock.advance(round === 0 ? 0 : 1_000);
      await quiet(ex);
    }
    expect(tickers).toBe(3);
    expect(errors.map((e) => e.message)).toEqual(['The server has no 24-hour ticker for NOPEUSDT']);
  });

  it('close() stops every source; bad arguments throw ConfigurationError', async () => {
    const { ex, clock, client } = await rig();
    expect(() => createMarketFeed(client, { intervalMs: 0 })).toThrow(ConfigurationError);
    expect(() => createMarketFeed(client, { klinesLimit: 0 })).toThrow(ConfigurationError);
    const feed = createMarketFeed(client, { intervalMs: 1_000 });
    expect(() => feed.ticker('', () => {})).toThrow(ConfigurationError);
    expect(() => feed.klines('BTCUSDT', '2m' as '1m', () => {})).toThrow(ConfigurationError);
    feed.trades('BTCUSDT', () => {});
    feed.klines('BTCUSDT', '5m', () => {});
    clock.advance(0);
    await quiet(ex);
    feed.close();
    expect(clock.pending).toBe(0);
    clock.advance(10_000);
    await quiet(ex);
    expect(served(ex)).toEqual(['/v2/trades', '/v2/klines']);
    feed.depth('BTCUSDT', () => {})();
    expect(clock.pending).toBe(0);
  });
});

describe('MarketFeed with a stream', () => {
  it('gives listeners the shapes polling gives; a malformed message is an error event; other intervals are polled', async () => {
    const { ex, clock, client } = await rig();
    const stream = new EventEmitter() as EventEmitter & { want(symbol: string): void };
    const wanted: string[] = [];
    stream.want = (symbol) => wanted.push(symbol);
    const feed = createMarketFeed(client, { stream, intervalMs: 1_000, klinesLimit: 5 });
    cleanups.push(() => feed.close());
    const polled = createMarketFeed(client, { intervalMs: 1_000 });
    cleanups.push(() => polled.close());
    const errors: FuturesError[] = [];
    feed.on('error', (error) => errors.push(error));
    const got = {
      ticker: [] as Ticker[],
      depth: [] as MarketDepth[],
      trades: [] as PublicTrade[][],
      m1: [] as Kline[][],
      m5: 0,
    };
    const rest = { ticker: [] as Ticker[], depth: [] as MarketDepth[] };
    feed.ticker('BTCUSDT', (t) => got.ticker.push(t));
    feed.depth('BTCUSDT', (b) => got.depth.push(b));
    feed.trades('BTCUSDT', (t) => got.trades.push(t));
    feed.klines('BTCUSDT', '1m', (k) => got.m1.push(k));
    feed.klines('BTCUSDT', '5m', () => got.m5++);
    polled.ticker('BTCUSDT', (t) => rest.ticker.push(t));
    polled.depth('BTCUSDT', (b) => rest.depth.push(b));
    expect(wanted).toEqual(['BTCUSDT', 'BTCUSDT', 'BTCUSDT', 'BTCUSDT']);
    clock.advance(0);
    await quiet(ex);
    // REST: the two candle histories for the stream feed, the ticker and depth of the polling one.
    expect(served(ex).sort()).toEqual(['/v2/depth', '/v2/klines', '/v2/klines', '/v2/ticker/24hr?one']);
    const market = (channel: string, data: unknown) => stream.emit('market', { symbol: 'BTCUSDT', channel, data });
    for (const channel of ['ticker', 'depth', 'trades', 'kline'] as const) {
      market(channel, ex.market.marketPayload('BTCUSDT', channel));
    }
    market('trades', ex.market.marketPayload('BTCUSDT', 'trades')); // the same trade again: not delivered twice
    market('depth', { bids: 'none', asks: [] });
    market('orderbook', {}); // a channel the feed does not know: ignored
    stream.emit('market', { symbol: 'ETHUSDT', channel: 'ticker', data: {} }); // a symbol nobody follows
    clock.advance(1_000);
    await quiet(ex);
    // Again: the 5m candles, and the polling feed's ticker and depth; nothing else for the stream feed.
    expect(served(ex, 4).sort()).toEqual(['/v2/depth', '/v2/klines', '/v2/ticker/24hr?one']);
    expect(ex.requests.slice(4).find((r) => r.path === '/v2/klines')?.query).toMatchObject({ interval: '5m' });
    expect(Object.keys(got.ticker[0]!).sort()).toEqual(Object.keys(rest.ticker[0]!).sort());
    expect(Object.keys(got.depth[0]!).sort()).toEqual(Object.keys(rest.depth[0]!).sort());
    expect(got.trades).toHaveLength(1);
    expect(got.trades[0]).toHaveLength(1);
    expect(got.m1).toHaveLength(2);
    expect(got.m1[1]!.length).toBeLessThanOrEqual(5);
    expect(got.m5).toBe(2);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain('BTCUSDT@depth');
  });

  it('after a reconnection, reads trades and candles over REST once (what the stream sent meanwhile is lost)', async () => {
    const { ex, clock, client } = await rig();
    const stream = new EventEmitter();
    const feed = createMarketFeed(client, { stream, intervalMs: 1_000, klinesLimit: 7 });
    cleanups.push(() => feed.close());
    const trades: PublicTrade[][] = [];
    feed.ticker('BTCUSDT', () => {});
    feed.trades('BTCUSDT', (t) => trades.push(t));
    feed.klines('BTCUSDT', '1m', () => {});
    clock.advance(0);
    await quiet(ex);
    expect(served(ex)).toEqual(['/v2/klines']);
    stream.emit('reconnected');
    clock.advance(0);
    await quiet(ex);
    clock.advance(5_000);
    await quiet(ex);
    expect(served(ex)).toEqual(['/v2/klines', '/v2/trades', '/v2/klines']);
    expect(ex.requests.map((r) => r.query['limit'])).toEqual(['7', '20', '7']);
    expect(trades).toHaveLength(1);
  });

  it('takes ticker, depth, trades and 1m candles from the firehose: no REST but the candle history', async () => {
    const { ex, client, stream } = await streamRig();
    const feed = client.marketFeed({ stream, intervalMs: 60_000, klinesLimit: 30 });
    cleanups.push(() => feed.close());
    const seen = {
      ticker: [] as Ticker[],
      depth: [] as MarketDepth[],
      trades: [] as PublicTrade[],
      klines: [] as Kline[][],
    };
    const errors: FuturesError[] = [];
    feed.on('error', (error) => errors.push(error));
    for (let w = 0; w < 3; w++) {
      feed.ticker('BTCUSDT', (t) => w === 0 && seen.ticker.push(t));
      feed.depth('BTCUSDT', (b) => w === 0 && seen.depth.push(b));
      feed.trades('BTCUSDT', (t) => w === 0 && seen.trades.push(...t));
      feed.klines('BTCUSDT', '1m', (k) => w === 0 && seen.klines.push(k));
    }
    await until(
      () => seen.ticker.length >= 1 && seen.depth.length >= 1 && seen.trades.length >= 1 && seen.klines.length >= 2,
      10_000,
    );
    expect(served(ex)).toEqual(['/v2/klines']);
    expect(ex.requests[0]!.query['limit']).toBe('30');
    expect(seen.ticker[0]).toMatchObject({ symbol: 'BTCUSDT', lastPrice: expect.any(String) });
    expect(Object.keys(seen.depth[0]!).sort()).toEqual(['asks', 'bids', 'symbol']);
    expect(seen.klines.at(-1)!.length).toBeGreaterThanOrEqual(30);
    expect(errors).toEqual([]);
  });
});

describe('MarketFeed leaves the stream as it found it', () => {
  it('asks the stream once per streamed source, and gives each back on its last unsubscribe or on close()', async () => {
    const { client } = await rig();
    const stream = new EventEmitter() as EventEmitter & { want(s: string): void; unwant(s: string): void };
    const asked: string[] = [];
    stream.want = (symbol) => asked.push(`+${symbol}`);
    stream.unwant = (symbol) => asked.push(`-${symbol}`);
    const feed = createMarketFeed(client, { stream, intervalMs: 60_000, klinesLimit: 5 });
    cleanups.push(() => feed.close());
    const off = [feed.ticker('BTCUSDT', () => {}), feed.ticker('BTCUSDT', () => {}), feed.depth('ETHUSDT', () => {})];
    feed.klines('SOLUSDT', '5m', () => {}); // polled: the stream is not asked
    feed.trades('SOLUSDT', () => {});
    expect(asked).toEqual(['+BTCUSDT', '+ETHUSDT', '+SOLUSDT']);
    off[0]!();
    off[0]!(); // twice: harmless
    expect(asked).toHaveLength(3); // one BTCUSDT ticker listener is left
    off[1]!();
    off[2]!();
    expect(asked.slice(3)).toEqual(['-BTCUSDT', '-ETHUSDT']);
    feed.close();
    expect(asked.slice(5)).toEqual(['-SOLUSDT']);
  });

  it('on a real stream: an unsubscribed symbol is dropped unparsed again; the stream’s own symbols stay', async () => {
    const { client, stream } = await streamRig(['ETHUSDT']);
    const events: string[] = [];
    stream.on('market', (message) => events.push(message.symbol));
    const feed = client.marketFeed({ stream, intervalMs: 60_000 });
    cleanups.push(() => feed.close());
    const tickers: Ticker[] = [];
    const off = feed.ticker('BTCUSDT', (ticker) => tickers.push(ticker));
    await until(() => tickers.length >= 1 && events.includes('ETHUSDT'), 15_000);
    off();
    const btcBefore = events.filter((symbol) => symbol === 'BTCUSDT').length;
    const { dropped } = stream.stats;
    const ethBefore = events.filter((symbol) => symbol === 'ETHUSDT').length;
    await until(() => events.filter((symbol) => symbol === 'ETHUSDT').length >= ethBefore + 8, 15_000);
    expect(events.filter((symbol) => symbol === 'BTCUSDT').length).toBe(btcBefore);
    expect(stream.stats.dropped).toBeGreaterThan(dropped);
    expect(tickers.length).toBeGreaterThan(0);
  });
});

describe('MarketFeed pacing', () => {
  it('sends one request at a time, so a trading call goes out before the rest of a round', async () => {
    const ex = createExchange({ seed: 23, volatility: 0 });
    ex.setMarkPrice('BTCUSDT', '60000');
    const server = await ex.listen();
    cleanups.push(() => server.close());
    const { accountId } = ex.createAccount({ balances: { USDT: '100000' } });
    const creds = ex.createApiKey(accountId, { permissions: ['TRADE'] });
    let inFlight = 0;
    let maxFeedInFlight = 0;
    const client = new FuturesClient({
      baseUrl: server.url,
      ...creds,
      fetch: async (url: string | URL | Request, init?: RequestInit) => {
        const feedCall = !String(url).includes('/v2/orders');
        if (feedCall) maxFeedInFlight = Math.max(maxFeedInFlight, ++inFlight);
        try {
          return await fetch(url, init);
        } finally {
          if (feedCall) inFlight--;
        }
      },
    });
    ex.faults.add({ path: '/v2/depth', delayMs: 40, times: 100 });
    const feed = client.marketFeed({ intervalMs: 60_000 });
    cleanups.push(() => feed.close());
    const symbols = ex.market.symbols.slice(0, 10);
    for (const symbol of symbols) feed.depth(symbol, () => {});
    await until(() => ex.requests.length >= 2);
    await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '50000' });
    await until(() => ex.requests.filter((r) => r.path === '/v2/depth').length === symbols.length);
    const order = ex.requests.findIndex((r) => r.path === '/v2/orders');
    expect(order).toBeGreaterThan(0);
    expect(order).toBeLessThanOrEqual(3); // at most the one depth request on the wire went before it
    expect(maxFeedInFlight).toBe(1);
  });

  it('after a 429 pause, the client’s own market calls are served before the feed’s (background priority)', async () => {
    const ex = createExchange({ seed: 23, volatility: 0 });
    const server = await ex.listen();
    cleanups.push(() => server.close());
    const client = createPublicClient({ baseUrl: server.url });
    ex.faults.add({ path: '/v2/depth', status: 429, headers: { 'Retry-After': '1' } });
    const feed = createMarketFeed(client, { intervalMs: 60_000 });
    cleanups.push(() => feed.close());
    feed.depth('BTCUSDT', () => {});
    await until(() => ex.requests.length === 1);
    await ticker24hr(client, { symbol: 'BTCUSDT' });
    const paths = ex.requests.map((r) => r.path);
    await until(() => ex.requests.length === 3);
    expect(ex.requests.map((r) => r.path)).toEqual(['/v2/depth', '/v2/ticker/24hr', '/v2/depth']);
    expect(paths).toEqual(['/v2/depth', '/v2/ticker/24hr']);
  });
});
