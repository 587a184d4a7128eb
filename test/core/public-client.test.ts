import { ConfigurationError, createPublicClient } from 'futures-sdk';
import { balance } from 'futures-sdk/account';
import { klines, ticker24hr } from 'futures-sdk/market';
import { createExchange } from 'futures-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ex = createExchange({ seed: 11, volatility: 0 });
let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ex.setMarkPrice('BTCUSDT', '61000');
  ({ url, close } = await ex.listen());
});
afterAll(() => close());

describe('createPublicClient', () => {
  it('reads market data on the wire, with no key and no signature', async () => {
    const market = createPublicClient({ baseUrl: url });
    const { tickers } = await ticker24hr(market, { symbol: 'BTCUSDT' });
    expect(tickers[0]?.symbol).toBe('BTCUSDT');
    const candles = await klines(market, { symbol: 'BTCUSDT', interval: '1m', limit: 5 });
    expect(candles.data.length).toBeGreaterThan(0);
    const sent = ex.requests.slice(-2);
    expect(sent.map((r) => r.path)).toEqual(['/v2/ticker/24hr', '/v2/klines']);
    for (const request of sent) {
      expect(request.headers['x-api-key']).toBeUndefined();
      expect(request.query['signature']).toBeUndefined();
    }
  });

  it('refuses a signed endpoint before any network, and bad options at construction', async () => {
    const market = createPublicClient({ baseUrl: url });
    const before = ex.requests.length;
    await expect(balance(market as never)).rejects.toBeInstanceOf(ConfigurationError);
    expect(ex.requests.length).toBe(before);
    expect(() => createPublicClient({ baseUrl: 'http://api.example.com' })).toThrow(ConfigurationError);
    expect(() => createPublicClient({ baseUrl: url, timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => createPublicClient(undefined as never)).toThrow(ConfigurationError);
  });
});
