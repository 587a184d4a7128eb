import { KLINE_INTERVALS } from 'futures-sdk';
import { describe, expect, it } from 'vitest';
import { setup } from './_helpers.ts';

/** Public market data over `ex.fetch`, through the SDK's own parsers (market-routes.test.ts covers the router). */

const get = async (rig: ReturnType<typeof setup>, path: string, headers: Record<string, string> = {}) => {
  const res = await rig.ex.fetch(`${rig.ex.baseUrl}${path}`, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
};

describe('public market data over ex.fetch', () => {
  it('symbols (about 144), 24 h tickers, depth, trades: no key, no signature, parsed by the SDK', async () => {
    const rig = setup();
    const { symbols } = await rig.client.market.symbols();
    expect(symbols.length).toBeGreaterThanOrEqual(140);
    expect(symbols.length).toBeLessThanOrEqual(150);
    const all = await rig.client.market.ticker24hr();
    expect(all.tickers).toHaveLength(symbols.length);
    const one = await rig.client.market.ticker24hr({ symbol: 'BTCUSDT' });
    expect(one.tickers).toEqual([expect.objectContaining({ symbol: 'BTCUSDT', lastPrice: '60000' })]);
    const depth = await rig.client.market.depth({ symbol: 'BTCUSDT', limit: 5 });
    expect(depth.bids).toHaveLength(5);
    expect(depth.asks).toHaveLength(5);
    expect(depth).not.toHaveProperty('lastUpdateId');
    const { trades } = await rig.client.market.trades({ symbol: 'BTCUSDT' });
    expect(trades).toHaveLength(20);
    expect(Number.isInteger(trades[0]!.id) && Number.isInteger(trades[0]!.time)).toBe(true);
    // None of these carried a key or a signature.
    expect(
      rig.ex.requests.every((r) => r.headers['x-api-key'] === undefined && r.query['signature'] === undefined),
    ).toBe(true);
  });

  it('mark prices follow a seeded walk advanced by the server clock; setMarkPrice overrides', async () => {
    const walk = () => {
      const rig = setup({ volatility: 0.001 });
      rig.ex.advance(60_000);
      return rig;
    };
    const a = walk();
    const b = walk();
    const [ta] = (await a.client.market.ticker24hr({ symbol: 'BTCUSDT' })).tickers;
    const [tb] = (await b.client.market.ticker24hr({ symbol: 'BTCUSDT' })).tickers;
    expect(ta!.lastPrice).toBe(tb!.lastPrice);
    expect(ta!.lastPrice).not.toBe('60000');
    a.ex.setMarkPrice('BTCUSDT', '12345.6');
    expect((await a.client.market.ticker24hr({ symbol: 'BTCUSDT' })).tickers[0]!.lastPrice).toBe('12345.6');
  });

  it('funding rate is null until cached, then a decimal string', async () => {
    const rig = setup();
    expect(await rig.client.market.fundingRate({ symbol: 'BTCUSDT' })).toEqual({
      ok: true,
      symbol: 'BTCUSDT',
      fundingRate: null,
    });
    rig.ex.advance(60_000);
    expect((await rig.client.market.fundingRate({ symbol: 'BTCUSDT' })).fundingRate).toMatch(/^-?\d+\.\d+$/);
  });

  it('klines for every documented interval: 12-element candles, newest limit, time range ignored', async () => {
    const rig = setup();
    for (const interval of KLINE_INTERVALS) {
      const { data } = await rig.client.market.klines({ symbol: 'ETHUSDT', interval, limit: 3 });
      expect(data, interval).toHaveLength(3);
      expect(data[0], interval).toHaveLength(12);
    }
    const ranged = await get(rig, '/v2/klines?symbol=ETHUSDT&interval=1h&limit=2&startTime=0&endTime=1');
    const plain = await get(rig, '/v2/klines?symbol=ETHUSDT&interval=1h&limit=2');
    expect(ranged.body.data).toEqual(plain.body.data);
    expect((await get(rig, '/v2/klines?symbol=ETHUSDT&interval=1h')).body.data).toHaveLength(300);
  });

  it('leaderboard: the three types and the three periods; old period names answer 400', async () => {
    const rig = setup();
    for (const type of ['volume', 'referrals', 'commission'] as const) {
      for (const period of ['7d', '30d', 'all'] as const) {
        const res = await rig.client.market.leaderboard({ type, period, limit: 3 });
        expect(res).toMatchObject({ ok: true, type, period });
        expect(res.data).toHaveLength(3);
      }
    }
    const volume = await rig.client.market.leaderboard({ type: 'volume' });
    expect(volume.data[0]).toMatchObject({ rank: 1, walletAddress: expect.any(String), accountId: expect.any(String) });
    for (const period of ['daily', 'weekly', 'monthly']) {
      const res = await get(rig, `/v2/leaderboard?type=volume&period=${period}`);
      expect(res.status).toBe(400);
      expect(res.body.errorId).toBeTypeOf('string');
    }
  });

  it('platform tokens with ETag and Cache-Control; platform status; /health', async () => {
    const rig = setup();
    const tokens = await get(rig, '/v2/platform/tokens');
    expect(tokens.headers.get('cache-control')).toBe('public, max-age=300');
    expect(tokens.headers.get('etag')).toContain(tokens.body.hash);
    expect((await rig.client.market.platformTokens()).tokens[0]).toMatchObject({ chainId: expect.any(Number) });
    expect((await rig.client.market.platformStatus()).features).toEqual({
      referral: expect.any(Boolean),
      trading: expect.any(Boolean),
      deposits: expect.any(Boolean),
      withdrawals: expect.any(Boolean),
    });
    expect(await rig.client.market.health()).toMatchObject({ ok: true, service: expect.any(String) });
  });
});
