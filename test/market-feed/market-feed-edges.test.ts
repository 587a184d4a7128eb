// The market feed (issue 23) used as a hostile user would: unsubscribing and closing from inside listeners and
// during in-flight polls, bad arguments, a misbehaving stream, a misbehaving server, thousands of subscription
// cycles, and the kill switch while the feed polls.

import { EventEmitter } from 'node:events';
import {
  ConfigurationError,
  createPublicClient,
  FuturesClient,
  type FuturesError,
  type Kline,
  type PublicTrade,
} from 'futures-sdk';
import { createMarketFeed, type MarketFeed } from 'futures-sdk/market';
import { createExchange, ManualClock } from 'futures-sdk/testing';
import { describe, expect, it } from 'vitest';
import { until } from '../events/helpers.ts';
import { cleanups, quiet, rig } from './rig.ts';

function feedOf(client: Parameters<typeof createMarketFeed>[0], options: Parameters<typeof createMarketFeed>[1]) {
  const feed = createMarketFeed(client, options);
  cleanups.push(() => feed.close());
  const errors: FuturesError[] = [];
  feed.on('error', (error) => errors.push(error));
  return { feed, errors };
}

/** Real-time pause (lets sockets and microtasks run). */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Collects unhandled rejections while `body` runs (and a little after). */
async function noUnhandledRejection(body: () => Promise<void>): Promise<void> {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  try {
    await body();
    await pause(50);
  } finally {
    process.off('unhandledRejection', onRejection);
  }
  expect(rejections).toEqual([]);
}

describe('MarketFeed edges: listeners that unsubscribe, close or subscribe', () => {
  it('a listener unsubscribing another listener of the same source: that one is not called afterwards', async () => {
    const { ex, clock, client } = await rig();
    const { feed, errors } = feedOf(client, { intervalMs: 1_000 });
    const calls: string[] = [];
    let stopB = () => {};
    feed.depth('BTCUSDT', () => {
      calls.push('a');
      stopB();
    });
    stopB = feed.depth('BTCUSDT', () => calls.push('b'));
    clock.advance(0);
    await quiet(ex, clock);
    clock.advance(1_000);
    await quiet(ex, clock);
    expect(calls).toEqual(['a', 'a']);
    expect(errors).toEqual([]);
  });

  it('close() inside a listener: no other listener is called, nothing is reported, no timer is left', async () => {
    const { ex, clock, client } = await rig();
    const { feed, errors } = feedOf(client, { intervalMs: 1_000 });
    const calls: string[] = [];
    feed.ticker('BTCUSDT', () => {
      calls.push('closer');
      feed.close();
      feed.close(); // twice: harmless
    });
    feed.ticker('BTCUSDT', () => calls.push('other'));
    feed.ticker('NOPEUSDT', () => calls.push('nope')); // missing from the ticker list: would be reported
    feed.ticker('ETHUSDT', () => calls.push('eth'));
    clock.advance(0);
    await quiet(ex);
    clock.advance(10_000);
    await quiet(ex);
    expect(calls).toEqual(['closer']);
    expect(errors).toEqual([]);
    expect(clock.pending).toBe(0);
    expect(ex.requests).toHaveLength(1);
  });

  it('close() right after a late subscription: the last value queued for it is not delivered', async () => {
    const { ex, clock, client } = await rig();
    const { feed } = feedOf(client, { intervalMs: 1_000 });
    const calls: string[] = [];
    feed.ticker('BTCUSDT', () => calls.push('first'));
    clock.advance(0);
    await quiet(ex);
    feed.ticker('BTCUSDT', () => calls.push('late'));
    feed.close();
    await pause(20);
    expect(calls).toEqual(['first']);
  });

  it('subscribing inside a listener: the same source gives its last value, a new one is polled', async () => {
    const { ex, clock, client } = await rig();
    const { feed, errors } = feedOf(client, { intervalMs: 1_000 });
    const calls: string[] = [];
    let once = true;
    feed.ticker('BTCUSDT', (t) => {
      calls.push(`a ${t.symbol}`);
      if (!once) return;
      once = false;
      feed.ticker('BTCUSDT', (u) => calls.push(`b ${u.symbol}`));
      feed.depth('ETHUSDT', (book) => calls.push(`depth ${book.symbol}`));
    });
    clock.advance(0);
    await quiet(ex, clock);
    clock.advance(0); // the new source is due at once, after the round
    await quiet(ex, clock);
    expect(calls).toEqual(['a BTCUSDT', 'b BTCUSDT', 'depth ETHUSDT']);
    clock.advance(1_000);
    await quiet(ex, clock);
    expect(calls.slice(3).sort()).toEqual(['a BTCUSDT', 'b BTCUSDT', 'depth ETHUSDT']);
    expect(errors).toEqual([]);
  });

  it('close() while a request is in flight: no listener call afterwards, no timer, no unhandled rejection', async () => {
    await noUnhandledRejection(async () => {
      const { ex, clock, client, sent } = await rig();
      const { feed, errors } = feedOf(client, { intervalMs: 1_000 });
      ex.faults.add({ path: '/v2/depth', delayMs: 200 });
      const calls: string[] = [];
      feed.depth('BTCUSDT', () => calls.push('depth'));
      feed.trades('BTCUSDT', () => calls.push('trades'));
      clock.advance(0);
      await until(() => sent.length === 1);
      feed.close();
      await pause(300);
      clock.advance(10_000);
      await quiet(ex);
      expect(calls).toEqual([]);
      expect(errors).toEqual([]);
      expect(clock.pending).toBe(0);
      expect(sent).toEqual(['/v2/depth']);
    });
  });

  it('unsubscribing during an in-flight poll (twice): its answer is dropped, the source stops', async () => {
    const { ex, clock, client, sent } = await rig();
    const { feed, errors } = feedOf(client, { intervalMs: 1_000 });
    ex.faults.add({ path: '/v2/depth', delayMs: 150 });
    const calls: string[] = [];
    const stop = feed.depth('BTCUSDT', () => calls.push('depth'));
    clock.advance(0);
    await until(() => sent.length === 1);
    stop();
    stop();
    await pause(250);
    clock.advance(10_000);
    await quiet(ex);
    expect(calls).toEqual([]);
    expect(errors).toEqual([]);
    expect(clock.pending).toBe(0);
    expect(sent).toEqual(['/v2/depth']);
  });

  it('thousands of subscribe/unsubscribe cycles leave no timer, listener or request behind', async () => {
    const { ex, clock, client } = await rig();
    const stream = new EventEmitter();
    const { feed } = feedOf(client, { intervalMs: 1_000 });
    const streamed = feedOf(client, { stream, intervalMs: 1_000 }).feed;
    const channels = (f: MarketFeed, symbol: string) => [
      f.ticker(symbol, () => {}),
      f.depth(symbol, () => {}),
      f.trades(symbol, () => {}),
      f.klines(symbol, '5m', () => {}),
    ];
    for (let i = 0; i < 5_000; i++) {
      for (const stop of [...channels(feed, 'BTCUSDT'), ...channels(streamed, `S${i}USDT`)]) stop();
      expect(clock.pending).toBe(0);
    }
    expect(stream.listenerCount('market')).toBe(1);
    expect(stream.listenerCount('reconnected')).toBe(1);
    clock.advance(10_000);
    await quiet(ex);
    expect(ex.requests).toHaveLength(0);
  });
});

describe('MarketFeed edges: arguments', () => {
  it('a bad symbol, interval or listener throws at once, before any source starts', async () => {
    const { ex, clock, client } = await rig();
    const { feed, errors } = feedOf(client, { intervalMs: 1_000 });
    const bad: Array<() => unknown> = [
      () => feed.ticker('btcusdt', () => {}),
      () => feed.depth('BTC/USDT', () => {}),
      () => feed.trades(' BTCUSDT', () => {}),
      () => feed.klines('BTC-USDT', '1m', () => {}),
      () => feed.ticker(42 as unknown as string, () => {}),
      () => feed.ticker(undefined as unknown as string, () => {}),
      () => feed.klines('BTCUSDT', '2h ' as '2h', () => {}),
      () => feed.klines('BTCUSDT', undefined as unknown as '1m', () => {}),
      () => feed.trades('BTCUSDT', 'fn' as unknown as () => void),
      () => feed.on('error', null as unknown as () => void),
    ];
    for (const call of bad) expect(call).toThrow(ConfigurationError);
    expect(clock.pending).toBe(0);
    clock.advance(10_000);
    await quiet(ex);
    expect(ex.requests).toHaveLength(0);
    expect(errors).toEqual([]);
  });

  it('intervalMs 0, negative, NaN, Infinity, ≥ 2^31 or not a number, klinesLimit not a safe integer ≥ 1: ConfigurationError', async () => {
    const { client } = await rig();
    for (const intervalMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '1000' as unknown as number]) {
      expect(() => createMarketFeed(client, { intervalMs })).toThrow(ConfigurationError);
    }
    for (const klinesLimit of [0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => createMarketFeed(client, { klinesLimit })).toThrow(ConfigurationError);
    }
    expect(() => createMarketFeed({} as never)).toThrow(ConfigurationError);
    createMarketFeed(client, { intervalMs: 2 ** 31 - 1 }).close();
  });
});

describe('MarketFeed edges: a misbehaving stream', () => {
  it('malformed messages, other symbols and repeated reconnections: errors as events, bounded REST', async () => {
    const { ex, clock, client } = await rig();
    const stream = new EventEmitter();
    const { feed, errors } = feedOf(client, { stream, intervalMs: 1_000, klinesLimit: 5 });
    const got = { ticker: 0, trades: [] as PublicTrade[][], klines: [] as Kline[][] };
    feed.ticker('BTCUSDT', () => got.ticker++);
    feed.trades('BTCUSDT', (t) => got.trades.push(t));
    feed.klines('BTCUSDT', '1m', (k) => got.klines.push(k));
    clock.advance(0);
    await quiet(ex);
    const malformed: unknown[] = [
      null,
      undefined,
      42,
      'ticker',
      {},
      { symbol: 'BTCUSDT' },
      { symbol: 'BTCUSDT', channel: 'ticker' },
      { symbol: 'BTCUSDT', channel: 'ticker', data: null },
      { symbol: 'BTCUSDT', channel: 'kline', data: null },
      { symbol: 'BTCUSDT', channel: 'kline', data: { interval: '1m', candle: 'x' } },
      { symbol: 'BTCUSDT', channel: 'trades', data: [{ id: 'x' }] },
      { symbol: null, channel: 'ticker', data: {} },
      { symbol: 'ETHUSDT', channel: 'ticker', data: { garbage: true } }, // a symbol nobody follows: ignored
    ];
    for (const message of malformed) expect(() => stream.emit('market', message)).not.toThrow();
    expect(got.ticker).toBe(0);
    expect(errors.length).toBeGreaterThanOrEqual(5);
    for (const error of errors) expect(error.message).toMatch(/BTCUSDT@(ticker|kline|trades)/);
    // Fifty reconnections in a row: one REST read of trades and of candles, not fifty.
    const from = ex.requests.length;
    for (let i = 0; i < 50; i++) stream.emit('reconnected');
    for (const ms of [0, 1_000]) {
      clock.advance(ms);
      await quiet(ex);
    }
    expect(
      ex.requests
        .slice(from)
        .map((r) => r.path)
        .sort(),
    ).toEqual(['/v2/klines', '/v2/trades']);
    clock.advance(10_000);
    await quiet(ex);
    expect(ex.requests).toHaveLength(from + 2);
    expect(clock.pending).toBe(0);
  });

  it('a widget added when a message is being handled gets the newest value, never an older one after it', async () => {
    const { ex, clock, client } = await rig();
    const stream = new EventEmitter();
    const { feed, errors } = feedOf(client, { stream, intervalMs: 1_000 });
    const ticker = (lastPrice: string) => ({ ...(ex.market.marketPayload('BTCUSDT', 'ticker') as object), lastPrice });
    feed.ticker('BTCUSDT', () => {});
    stream.emit('market', { symbol: 'BTCUSDT', channel: 'ticker', data: ticker('1') });
    const late: string[] = [];
    // The page's own handler, before the feed's, adds a widget for the symbol it sees.
    stream.prependListener('market', () => feed.ticker('BTCUSDT', (t) => late.push(t.lastPrice)));
    stream.emit('market', { symbol: 'BTCUSDT', channel: 'ticker', data: ticker('2') });
    await pause(10);
    expect(late.at(-1)).toBe('2');
    expect(errors).toEqual([]);
    clock.advance(0);
  });

  it('a reconnection while the history read is in flight: read once more afterwards, then stops', async () => {
    const { ex, clock, client, sent } = await rig();
    const stream = new EventEmitter();
    const { feed, errors } = feedOf(client, { stream, intervalMs: 1_000, klinesLimit: 5 });
    ex.faults.add({ path: '/v2/klines', delayMs: 150 });
    feed.klines('BTCUSDT', '1m', () => {});
    clock.advance(0);
    await until(() => sent.length === 1);
    stream.emit('reconnected'); // what the stream sent before the in-flight answer was made may be lost
    await pause(250);
    clock.advance(1_000);
    await quiet(ex);
    clock.advance(10_000);
    await quiet(ex);
    expect(sent).toEqual(['/v2/klines', '/v2/klines']);
    expect(errors).toEqual([]);
  });
});

describe('MarketFeed edges: error listeners', () => {
  it('no error listener: a failing poll and a throwing listener crash nothing and leave no unhandled rejection', async () => {
    await noUnhandledRejection(async () => {
      const { ex, clock, client } = await rig({ retry: false });
      const feed = createMarketFeed(client, { intervalMs: 1_000 });
      cleanups.push(() => feed.close());
      ex.faults.add({ path: '/v2/depth', status: 500, times: 2 });
      let books = 0;
      feed.depth('BTCUSDT', () => {
        books++;
        throw new Error('widget bug');
      });
      for (let i = 0; i < 8; i++) {
        clock.advance(i === 0 ? 0 : 1_000);
        await quiet(ex, clock);
      }
      expect(books).toBeGreaterThanOrEqual(2);
    });
  });

  it('an error listener that throws, unsubscribes itself or closes the feed harms nothing', async () => {
    const { ex, clock, client } = await rig({ retry: false });
    const feed = createMarketFeed(client, { intervalMs: 1_000 });
    cleanups.push(() => feed.close());
    ex.faults.add({ path: '/v2/depth', status: 500, times: 3 });
    const seen: string[] = [];
    const selfRemoving = () => {
      seen.push('self');
      feed.off('error', selfRemoving);
    };
    feed.on('error', () => {
      throw new Error('broken error listener');
    });
    feed.on('error', selfRemoving);
    feed.on('error', () => seen.push('kept'));
    feed.depth('BTCUSDT', () => seen.push('book'));
    for (let i = 0; i < 20; i++) {
      clock.advance(i === 0 ? 0 : 1_000);
      await quiet(ex, clock);
    }
    expect(seen.slice(0, 5)).toEqual(['self', 'kept', 'kept', 'kept', 'book']);
    expect(seen.slice(5).every((s) => s === 'book')).toBe(true);
    feed.on('error', () => feed.close());
    ex.faults.add({ path: '/v2/depth', status: 500 });
    clock.advance(1_000);
    await quiet(ex);
    const requests = ex.requests.length;
    clock.advance(60_000);
    await quiet(ex);
    expect(clock.pending).toBe(0);
    expect(ex.requests).toHaveLength(requests);
  });
});

describe('MarketFeed edges: a misbehaving server', () => {
  it('garbage answers (non-JSON, wrong shape, truncated): error events, backoff, recovery', async () => {
    const { ex, clock, client } = await rig({ retry: false });
    const { feed, errors } = feedOf(client, { intervalMs: 1_000 });
    ex.faults.add({ path: '/v2/depth', status: 200, rawBody: '<html>oops</html>' });
    ex.faults.add({ path: '/v2/depth', status: 200, body: { ok: true, bids: 'none' } });
    ex.faults.add({ path: '/v2/depth', truncate: true });
    let books = 0;
    feed.depth('BTCUSDT', () => books++);
    for (let i = 0; i < 16 && books === 0; i++) {
      clock.advance(i === 0 ? 0 : 1_000);
      await quiet(ex, clock);
    }
    expect(errors).toHaveLength(3);
    expect(books).toBe(1);
  });

  it('429 with Retry-After: the feed waits it out and recovers', async () => {
    const { ex, clock, client } = await rig();
    const { feed, errors } = feedOf(client, { intervalMs: 1_000 });
    ex.faults.add({ path: '/v2/ticker/24hr', status: 429, headers: { 'Retry-After': '1' } });
    let tickers = 0;
    feed.ticker('BTCUSDT', () => tickers++);
    clock.advance(0);
    await until(() => tickers === 1, 5_000);
    expect(errors).toEqual([]);
  });

  it('a hung request ends at the client’s timeoutMs: an error event, then the feed recovers', async () => {
    const { ex, clock, client } = await rig({ retry: false, timeoutMs: 200 });
    const { feed, errors } = feedOf(client, { intervalMs: 1_000 });
    ex.faults.add({ path: '/v2/depth', delayMs: 60_000 });
    let books = 0;
    let tickers = 0;
    feed.depth('BTCUSDT', () => books++);
    feed.ticker('BTCUSDT', () => tickers++);
    clock.advance(0);
    await until(() => errors.length === 1, 5_000);
    expect(errors[0]!.name).toBe('TimeoutError');
    for (let i = 0; i < 3; i++) {
      clock.advance(1_000);
      await quiet(ex, clock);
    }
    expect(books).toBeGreaterThanOrEqual(1);
    expect(tickers).toBeGreaterThanOrEqual(3);
  });
});

describe('MarketFeed edges: the kill switch while the feed polls', () => {
  it('cancelAll and closePosition go out at once while the feed’s round is slow and its bucket is paused', async () => {
    const ex = createExchange({ seed: 23, volatility: 0 });
    ex.setMarkPrice('BTCUSDT', '60000');
    const server = await ex.listen();
    cleanups.push(() => server.close());
    const { accountId } = ex.createAccount({ balances: { USDT: '100000' } });
    const creds = ex.createApiKey(accountId, { permissions: ['TRADE'] });
    const client = new FuturesClient({ baseUrl: server.url, ...creds });
    await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
    await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '50000' });
    const positionId = (await client.account.positions()).positions[0]!.id;
    const feed = client.marketFeed({ intervalMs: 100 });
    cleanups.push(() => feed.close());
    // The public bucket paused for 30 s by the feed's first request, the rest of its round slow.
    ex.faults.add({ path: '/v2/ticker/24hr', status: 429, headers: { 'Retry-After': '30' } });
    ex.faults.add({ path: '/v2/depth', delayMs: 2_000, times: 100 });
    feed.ticker('BTCUSDT', () => {});
    for (const symbol of ex.market.symbols.slice(0, 5)) feed.depth(symbol, () => {});
    await until(() => ex.requests.some((r) => r.path === '/v2/ticker/24hr'));
    await pause(50);
    const started = performance.now();
    await client.orders.cancelAll({ symbol: 'BTCUSDT' });
    await client.orders.closePosition({ positionId });
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('MarketFeed edges: candles', () => {
  async function sharedClockRig() {
    const clock = new ManualClock({ start: Date.UTC(2026, 10, 28, 10, 0, 30) });
    const ex = createExchange({ seed: 23, clock });
    const server = await ex.listen();
    cleanups.push(() => server.close());
    const client = createPublicClient({ baseUrl: server.url, clock, retry: false });
    return { ex, clock, client };
  }
  const gaps = (candles: Kline[]) =>
    candles.slice(1).filter((candle, i) => candle[0] - candles[i]![0] !== 60_000).length;

  it('an interval longer than the candles’: no candle is skipped', async () => {
    const { ex, clock, client } = await sharedClockRig();
    const { feed, errors } = feedOf(client, { intervalMs: 150_000, klinesLimit: 20 });
    let held: Kline[] = [];
    feed.klines('BTCUSDT', '1m', (candles) => {
      held = candles;
    });
    for (let i = 0; i < 4; i++) {
      clock.advance(i === 0 ? 0 : 150_000);
      await quiet(ex, clock);
    }
    expect(errors).toEqual([]);
    expect(held).toHaveLength(20);
    expect(gaps(held)).toBe(0);
  });

  it('after minutes of failed polls: no candle is skipped', async () => {
    const { ex, clock, client } = await sharedClockRig();
    const { feed, errors } = feedOf(client, { intervalMs: 5_000, klinesLimit: 60 });
    let held: Kline[] = [];
    feed.klines('BTCUSDT', '1m', (candles) => {
      held = candles;
    });
    clock.advance(0);
    await quiet(ex, clock);
    ex.faults.add({ path: '/v2/klines', status: 503, times: 6 });
    while (errors.length < 6) {
      clock.advanceToNext();
      await quiet(ex, clock);
    }
    for (let i = 0; i < 3; i++) {
      clock.advanceToNext();
      await quiet(ex, clock);
    }
    expect(clock.now() - Date.UTC(2026, 10, 28, 10, 0, 30)).toBeGreaterThan(180_000);
    expect(gaps(held)).toBe(0);
  });
});

describe('MarketFeed edges: more hostility', () => {
  it('a 429 with an hour’s Retry-After: an error event soon, not a round blocked for an hour; the user’s call too', async () => {
    const { ex, clock, client } = await rig({ timeoutMs: 500 });
    const { feed, errors } = feedOf(client, { intervalMs: 1_000 });
    ex.faults.add({ path: '/v2/depth', status: 429, headers: { 'Retry-After': '3600' } });
    feed.depth('BTCUSDT', () => {});
    feed.trades('BTCUSDT', () => {});
    clock.advance(0);
    await until(() => errors.length >= 1, 5_000);
    expect(errors[0]!.name).toBe('RateLimitError');
  });

  it('listeners throwing null, undefined, a string or a hostile Proxy: each a ListenerError, the others still called', async () => {
    const { ex, clock, client } = await rig();
    const { feed, errors } = feedOf(client, { intervalMs: 1_000 });
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        getPrototypeOf() {
          throw new Error('trap');
        },
      },
    );
    let good = 0;
    for (const thrown of [null, undefined, 'text', hostile]) {
      feed.ticker('BTCUSDT', () => {
        throw thrown;
      });
    }
    feed.ticker('BTCUSDT', () => good++);
    clock.advance(0);
    await quiet(ex, clock);
    expect(good).toBe(1);
    expect(errors.map((e) => e.name)).toEqual(['ListenerError', 'ListenerError', 'ListenerError', 'ListenerError']);
  });

  it('options null: the defaults (not a TypeError)', async () => {
    const { client } = await rig();
    createMarketFeed(client, null).close();
  });
});

describe('MarketFeed edges: close() while a poll waits in a paused bucket', () => {
  it('the waiting call is dropped: no request, listener call or unhandled rejection once the pause ends', async () => {
    await noUnhandledRejection(async () => {
      const ex = createExchange({ seed: 23, volatility: 0 });
      const server = await ex.listen();
      cleanups.push(() => server.close());
      const sent: string[] = [];
      const client = createPublicClient({
        baseUrl: server.url,
        fetch: (url: string | URL | Request, init?: RequestInit) => {
          sent.push(new URL(String(url)).pathname);
          return fetch(url, init);
        },
      });
      const { feed, errors } = feedOf(client, { intervalMs: 60_000 });
      ex.faults.add({ path: '/v2/depth', status: 429, headers: { 'Retry-After': '1' } });
      let calls = 0;
      feed.depth('BTCUSDT', () => calls++);
      feed.trades('BTCUSDT', () => calls++);
      await until(() => ex.requests.length === 1);
      await pause(100);
      feed.close();
      await pause(1_500);
      expect(sent).toEqual(['/v2/depth']);
      expect(calls).toBe(0);
      expect(errors).toEqual([]);
    });
  });
});

describe('MarketFeed edges: listeners that mutate what they get', () => {
  it('each listener gets its own copy: a widget reversing candles or reformatting a ticker harms no other', async () => {
    const { ex, clock, client } = await rig();
    const { feed, errors } = feedOf(client, { intervalMs: 1_000, klinesLimit: 10 });
    feed.klines('BTCUSDT', '1m', (candles) => {
      candles.reverse(); // newest first, for a table
      candles[0]![4] = 'mutated';
    });
    feed.ticker('BTCUSDT', (t) => {
      t.lastPrice = `$${t.lastPrice}`;
    });
    const seen: { opens: number[]; closes: string[]; prices: string[] } = { opens: [], closes: [], prices: [] };
    feed.klines('BTCUSDT', '1m', (candles) => {
      seen.opens = candles.map((c) => c[0]);
      seen.closes = candles.map((c) => c[4]);
    });
    feed.ticker('BTCUSDT', (t) => seen.prices.push(t.lastPrice));
    clock.advance(0);
    await quiet(ex, clock);
    const late: string[] = [];
    feed.ticker('BTCUSDT', (t) => late.push(t.lastPrice));
    await until(() => late.length === 1);
    expect(seen.opens).toEqual([...seen.opens].sort((a, b) => a - b));
    expect(seen.closes).not.toContain('mutated');
    expect(seen.prices[0]).not.toMatch(/^\$/);
    expect(late[0]).not.toMatch(/^\$/);
    expect(errors).toEqual([]);
  });
});
