import { describe, expect, it } from 'vitest';
import type { SimRequest } from '../../src/testing/_types.ts';
import { handleMarketRoute } from '../../src/testing/http/routes/market.ts';
import { MarketSimulator } from '../../src/testing/market/simulator.ts';

const START = Date.UTC(2026, 3, 26, 12, 0, 0);

function setup() {
  let now = START;
  const market = new MarketSimulator({ seed: 1, now: () => now });
  const get = (pathAndQuery: string, init: { method?: string; headers?: Record<string, string> } = {}) => {
    const url = new URL(pathAndQuery, 'https://futures.sim');
    const req: SimRequest = {
      method: init.method ?? 'GET',
      path: decodeURIComponent(url.pathname),
      rawPath: url.pathname,
      query: url.searchParams,
      headers: new Headers(init.headers),
      body: undefined,
      remoteAddress: '127.0.0.1',
    };
    return handleMarketRoute(market, req);
  };
  const body = (pathAndQuery: string) => get(pathAndQuery)?.body as Record<string, unknown>;
  return {
    market,
    get,
    body,
    tick(ms: number) {
      now += ms;
    },
  };
}

function expect400(response: ReturnType<ReturnType<typeof setup>['get']>, error: RegExp) {
  expect(response?.status).toBe(400);
  const body = response?.body as { ok: boolean; error: string };
  expect(body.ok).toBe(false);
  expect(body.error).toMatch(error);
}

describe('handleMarketRoute', () => {
  it('ignores paths and methods that are not public market routes', () => {
    const { get } = setup();
    expect(get('/v2/orders')).toBeUndefined();
    expect(get('/v2/symbols', { method: 'POST' })).toBeUndefined();
    expect(get('/v2/symbolsx')).toBeUndefined();
  });

  it('GET /health and /v2/symbols', () => {
    const { get, market } = setup();
    expect(get('/health')).toEqual({ status: 200, body: { ok: true, service: 'futures-sim' } });
    expect(get('/v2/symbols')).toEqual({ status: 200, body: { ok: true, symbols: [...market.symbols] } });
  });

  it('GET /v2/ticker/24hr always answers an array; one element when filtered; 400 for an unknown symbol', () => {
    const { body, get, market } = setup();
    const all = body('/v2/ticker/24hr');
    expect(all.ok).toBe(true);
    expect(all).not.toHaveProperty('ticker');
    expect((all.tickers as unknown[]).length).toBe(market.symbols.length);
    const one = body('/v2/ticker/24hr?symbol=ETHUSDT');
    expect(one.tickers).toEqual([market.ticker('ETHUSDT')]);
    expect(Object.keys((one.tickers as object[])[0]!).sort()).toEqual([
      'highPrice',
      'lastPrice',
      'lowPrice',
      'priceChange',
      'priceChangePercent',
      'quoteVolume',
      'symbol',
      'volume',
    ]);
    expect400(get('/v2/ticker/24hr?symbol=NOPEUSDT'), /symbol/i);
    expect400(get('/v2/ticker/24hr?symbol='), /symbol/i);
  });

  it('GET /v2/depth: symbol required, limit default 100, no lastUpdateId', () => {
    const { body, get } = setup();
    expect400(get('/v2/depth'), /symbol is required/);
    expect400(get('/v2/depth?symbol=NOPEUSDT'), /symbol/i);
    const book = body('/v2/depth?symbol=BTCUSDT');
    expect(Object.keys(book).sort()).toEqual(['asks', 'bids', 'ok']);
    expect((book.bids as unknown[]).length).toBe(100);
    expect((body('/v2/depth?symbol=BTCUSDT&limit=5').asks as unknown[]).length).toBe(5);
    const [price, qty] = (book.bids as [unknown, unknown][])[0]!;
    expect(typeof price).toBe('string');
    expect(typeof qty).toBe('string');
    expect400(get('/v2/depth?symbol=BTCUSDT&limit=abc'), /limit/);
    expect400(get('/v2/depth?symbol=BTCUSDT&limit=0'), /limit/);
  });

  it('GET /v2/trades: symbol required, limit default 20, integer id and time', () => {
    const { body, get } = setup();
    expect400(get('/v2/trades'), /symbol is required/);
    const { trades } = body('/v2/trades?symbol=SOLUSDT') as { trades: Array<Record<string, unknown>> };
    expect(trades).toHaveLength(20);
    expect(trades[0]).toEqual({
      id: expect.any(Number),
      price: expect.stringMatching(/^\d+(\.\d+)?$/),
      qty: expect.stringMatching(/^\d+(\.\d+)?$/),
      time: expect.any(Number),
      isBuyerMaker: expect.any(Boolean),
    });
    expect((body('/v2/trades?symbol=SOLUSDT&limit=3').trades as unknown[]).length).toBe(3);
  });

  it('GET /v2/funding-rate: null until cached, then a decimal string', () => {
    const { body, get, tick } = setup();
    expect400(get('/v2/funding-rate'), /symbol is required/);
    expect(body('/v2/funding-rate?symbol=BTCUSDT')).toEqual({ ok: true, symbol: 'BTCUSDT', fundingRate: null });
    tick(61_000);
    expect(body('/v2/funding-rate?symbol=BTCUSDT').fundingRate).toMatch(/^-?\d+(\.\d+)?$/);
  });

  it('GET /v2/klines: interval required and validated, time range ignored, limit default 300', () => {
    const { body, get } = setup();
    expect400(get('/v2/klines?interval=1h'), /symbol is required/);
    expect400(get('/v2/klines?symbol=BTCUSDT'), /interval is required/);
    expect400(get('/v2/klines?symbol=BTCUSDT&interval=2m'), /interval/);
    expect400(get('/v2/klines?symbol=BTCUSDT&interval=1h&startTime=yesterday'), /startTime/);
    const full = body('/v2/klines?symbol=BTCUSDT&interval=1h');
    expect(Object.keys(full).sort()).toEqual(['data', 'ok']);
    expect((full.data as unknown[]).length).toBe(300);
    const ranged = body('/v2/klines?symbol=BTCUSDT&interval=1h&limit=3&startTime=0&endTime=1000');
    // The newest candles, whatever the requested range.
    expect(ranged.data).toEqual((full.data as unknown[]).slice(-3));
    expect((body('/v2/klines?symbol=BTCUSDT&interval=1M&limit=2').data as unknown[]).length).toBe(2);
  });

  it('GET /v2/leaderboard: type required, period 7d|30d|all (default all), limit ≤ 100 (default 20)', () => {
    const { body, get } = setup();
    expect400(get('/v2/leaderboard'), /type is required/);
    expect400(get('/v2/leaderboard?type=points'), /type/);
    for (const period of ['daily', 'weekly', 'monthly', '1d']) {
      expect400(get(`/v2/leaderboard?type=volume&period=${period}`), /period/);
    }
    expect400(get('/v2/leaderboard?type=volume&limit=101'), /limit/);
    const board = body('/v2/leaderboard?type=volume');
    expect(board).toMatchObject({ ok: true, type: 'volume', period: 'all' });
    expect((board.data as unknown[]).length).toBe(20);
    const referrals = body('/v2/leaderboard?type=referrals&period=7d&limit=100');
    expect(referrals.period).toBe('7d');
    expect((referrals.data as unknown[]).length).toBe(100);
    expect((referrals.data as Array<Record<string, unknown>>)[0]).toMatchObject({
      rank: 1,
      walletAddress: expect.any(String),
      userId: expect.any(String),
      referralCount: expect.any(Number),
    });
    expect((body('/v2/leaderboard?type=commission&period=30d').data as Array<object>)[0]).toHaveProperty(
      'totalCommission',
    );
  });

  it('GET /v2/platform/tokens: ETag + Cache-Control, and 304 without a body for a matching If-None-Match', () => {
    const { get, market } = setup();
    const first = get('/v2/platform/tokens');
    const { hash } = market.platformTokens();
    expect(first?.status).toBe(200);
    expect(first?.headers).toEqual({ ETag: `"${hash}"`, 'Cache-Control': 'public, max-age=300' });
    expect(first?.body).toMatchObject({ ok: true, hash, tokens: expect.any(Array) });
    const cached = get('/v2/platform/tokens', { headers: { 'If-None-Match': `"${hash}"` } });
    expect(cached?.status).toBe(304);
    expect(cached?.body).toBeUndefined();
    expect(cached?.headers?.ETag).toBe(`"${hash}"`);
    expect(get('/v2/platform/tokens', { headers: { 'If-None-Match': `W/"${hash}"` } })?.status).toBe(304);
    expect(get('/v2/platform/tokens', { headers: { 'If-None-Match': '"stale"' } })?.status).toBe(200);
  });

  it('GET /v2/platform/status reports the four feature switches', () => {
    const { body, market } = setup();
    expect(body('/v2/platform/status')).toEqual({
      ok: true,
      features: { referral: true, trading: true, deposits: true, withdrawals: true },
    });
    market.setPlatformStatus({ withdrawals: false });
    expect((body('/v2/platform/status').features as Record<string, boolean>).withdrawals).toBe(false);
  });
});
