// The market feed (issue 23) when its stream closes for good (`close` with `willReconnect: false`): every streamed
// source is polled over REST from then on, trades not repeated and candles merged; later subscriptions poll.

import { EventEmitter } from 'node:events';
import { FuturesClient, type Kline, type Logger } from 'futures-sdk';
import { createMarketFeed } from 'futures-sdk/market';
import { createExchange, ManualClock } from 'futures-sdk/testing';
import { describe, expect, it } from 'vitest';
import { until } from '../events/helpers.ts';
import { cleanups, count, round, served } from './rig.ts';

/**
 * A feed on a live account stream (its WebSocket on a second listener of the same simulator, which `closeWs` shuts)
 * following BTCUSDT's ticker, depth, trades and 1m candles, until each got a firehose update.
 */
async function streamedFeed() {
  const ex = createExchange({ seed: 23, volatility: 0 });
  const rest = await ex.listen();
  const ws = await ex.listen();
  cleanups.push(
    () => rest.close(),
    () => ws.close(),
  );
  const { accountId } = ex.createAccount({ balances: { USDT: '1000' } });
  const clock = new ManualClock({ start: Date.now() });
  const infos: string[] = [];
  const logger: Logger = { debug() {}, info: (message) => infos.push(message), warn() {}, error() {} };
  const client = new FuturesClient({ baseUrl: rest.url, clock, logger });
  const stream = client.stream({ url: ws.wsUrl, token: () => ex.issueJwt(accountId), reconnect: false });
  cleanups.push(() => stream.close());
  const feed = createMarketFeed(client, { stream, intervalMs: 1_000, klinesLimit: 30 });
  cleanups.push(() => feed.close());
  const errors: unknown[] = [];
  feed.on('error', (error) => errors.push(error));
  const got = { ticker: 0, depth: 0, trades: [] as number[], klines: [] as Kline[][] };
  feed.ticker('BTCUSDT', () => got.ticker++);
  feed.depth('BTCUSDT', () => got.depth++);
  feed.trades('BTCUSDT', (trades) => got.trades.push(...trades.map((t) => t.id)));
  feed.klines('BTCUSDT', '1m', (candles) => got.klines.push(candles));
  clock.advance(0);
  await until(() => got.ticker > 0 && got.depth > 0 && got.trades.length > 0 && got.klines.length >= 2, 10_000);
  // From the firehose: no REST request but the candle history.
  expect(count(served(ex, 0))).toEqual({ '/v2/klines': 1 });
  return { ex, ws, clock, stream, feed, got, errors, infos };
}

async function fallsBackToPolling(
  rig: Awaited<ReturnType<typeof streamedFeed>>,
  closeStream: () => Promise<unknown>,
): Promise<void> {
  const { ex, clock, stream, feed, got, errors, infos } = rig;
  await closeStream();
  await until(() => stream.state === 'closed');
  const before = { ticker: got.ticker, depth: got.depth, trades: got.trades.length, klines: got.klines.length };
  // The round due at once: each source read over REST, the candles in full (none skipped while streamed).
  let from = await round(ex, clock, 0);
  expect(count(served(ex, from))).toEqual({
    '/v2/ticker/24hr?one': 1,
    '/v2/depth': 1,
    '/v2/trades': 1,
    '/v2/klines': 1,
  });
  expect(ex.requests.at(-1)?.query['limit']).toBe('30');
  // A subscription made now polls from the start (its history at once); then every interval, candles two at a time.
  const eth: Kline[][] = [];
  feed.klines('ETHUSDT', '1m', (candles) => eth.push(candles));
  from = await round(ex, clock, 0);
  expect(ex.requests.slice(from).map((r) => [r.path, r.query['symbol'], r.query['limit']])).toEqual([
    ['/v2/klines', 'ETHUSDT', '30'],
  ]);
  from = await round(ex, clock, 1_000);
  expect(count(served(ex, from))).toEqual({
    '/v2/ticker/24hr?one': 1,
    '/v2/depth': 1,
    '/v2/trades': 1,
    '/v2/klines': 2,
  });
  const limits = ex.requests.slice(from).filter((r) => r.path === '/v2/klines');
  expect(limits.map((r) => r.query['limit'])).toEqual(['2', '2']);
  expect(eth).toHaveLength(2);
  expect(got.ticker).toBe(before.ticker + 2);
  expect(got.depth).toBe(before.depth + 2);
  expect(got.klines.length).toBe(before.klines + 2);
  // Trades: never one twice; candles: merged by open time, at most klinesLimit, none repeated.
  expect(new Set(got.trades).size).toBe(got.trades.length);
  expect(got.trades).toEqual([...got.trades].sort((a, b) => a - b));
  const candles = got.klines.at(-1)!;
  expect(candles.length).toBeLessThanOrEqual(30);
  expect(new Set(candles.map((c) => c[0])).size).toBe(candles.length);
  expect(candles.map((c) => c[0])).toEqual(candles.map((c) => c[0]).sort((a, b) => a - b));
  expect(infos.filter((m) => m.includes('market feed'))).toHaveLength(1);
  expect(errors).toEqual([]);
  // Closing the feed: no timer, no request.
  feed.close();
  expect(clock.pending).toBe(0);
  from = ex.requests.length;
  clock.advance(10_000);
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(ex.requests.length).toBe(from);
}

describe('MarketFeed: the stream closes for good', () => {
  it('stream.close(): ticker, depth, trades and 1m candles are polled over REST instead; later ones too', async () => {
    const rig = await streamedFeed();
    await fallsBackToPolling(rig, async () => rig.stream.close());
  });

  it('the server goes away and the stream may not reconnect: the same fall-back to polling', async () => {
    const rig = await streamedFeed();
    await fallsBackToPolling(rig, () => rig.ws.close());
  });

  it('the server refuses the login (4001, unauthorized): what the feed follows is polled over REST', async () => {
    const ex = createExchange({ seed: 23, volatility: 0 });
    const server = await ex.listen();
    cleanups.push(() => server.close());
    const clock = new ManualClock({ start: Date.now() });
    const client = new FuturesClient({ baseUrl: server.url, clock });
    const stream = client.stream({ url: server.wsUrl, token: () => 'not-a-jwt' });
    cleanups.push(() => stream.close());
    const feed = createMarketFeed(client, { stream, intervalMs: 1_000 });
    cleanups.push(() => feed.close());
    stream.on('error', () => {}); // the AuthenticationError
    const got = { ticker: 0, trades: 0 };
    feed.ticker('BTCUSDT', () => got.ticker++);
    feed.trades('BTCUSDT', () => got.trades++);
    await until(() => stream.state === 'unauthorized');
    for (const ms of [0, 1_000]) await round(ex, clock, ms);
    expect(count(served(ex, 0))).toEqual({ '/v2/ticker/24hr?one': 2, '/v2/trades': 2 });
    expect(got.ticker).toBe(2);
    feed.close();
    expect(clock.pending).toBe(0);
  });

  it('a close that will reconnect changes nothing; after feed.close() a terminal close restarts nothing', async () => {
    const ex = createExchange({ seed: 23, volatility: 0 });
    const server = await ex.listen();
    cleanups.push(() => server.close());
    const clock = new ManualClock({ start: Date.now() });
    const stream = new EventEmitter();
    const feed = createMarketFeed(new FuturesClient({ baseUrl: server.url, clock }), { stream, intervalMs: 1_000 });
    cleanups.push(() => feed.close());
    feed.ticker('BTCUSDT', () => {});
    stream.emit('close', { code: 1006, reason: 'gone', willReconnect: true });
    stream.emit('close'); // a broken source: no info, not taken for a terminal close
    clock.advance(5_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ex.requests).toHaveLength(0);
    expect(clock.pending).toBe(0);
    feed.close();
    expect(stream.listenerCount('close') + stream.listenerCount('market')).toBe(0);
    stream.emit('close', { code: 1000, reason: 'client closed', willReconnect: false });
    expect(clock.pending).toBe(0);
  });
});
