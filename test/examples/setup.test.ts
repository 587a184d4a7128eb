import { createExchange } from 'futures-sdk/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compareDecimals, connect, shiftPrice } from '../../examples/_setup.ts';

// The examples' shared setup is what users copy first: its price helpers must be exact (no float drift) and
// connect() must pick the simulator or the configured API from the environment.

describe('shiftPrice', () => {
  it.each([
    ['64479.2', -5, '61255.2'],
    ['65000', 2, '66300'],
    ['1.1', 100, '2.2'],
    ['0.0123', 10, '0.0135'],
    ['0.5', -1, '0.4'], // truncated to the price's own decimals
    ['0.3', 0, '0.3'],
  ])('%s moved by %d %% is %s', (price, percent, expected) => {
    expect(shiftPrice(price, percent)).toBe(expected);
  });
});

describe('compareDecimals', () => {
  it.each([
    ['64000.5', '64000.50', 0],
    ['9.99', '10', -1],
    ['10', '9.99', 1],
    ['-1', '0.5', -1],
    // Beyond float precision: Number() would call these equal.
    ['100000000000000000.1', '100000000000000000.2', -1],
  ])('compares %s with %s as %d', (a, b, expected) => {
    expect(compareDecimals(a, b)).toBe(expected);
  });
});

describe('connect', () => {
  beforeEach(() => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    for (const name of ['FUTURES_BASE_URL', 'FUTURES_API_KEY', 'FUTURES_API_SECRET', 'FUTURES_SYMBOL']) {
      vi.stubEnv(name, '');
    }
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('without FUTURES_BASE_URL, trades on a funded simulated account', async () => {
    const { client, ex, accountId, symbol } = await connect();
    expect(ex).toBeDefined();
    expect(accountId).toBeDefined();
    expect(symbol).toBe('BTCUSDT');
    const { balances } = await client.account.balance();
    expect(balances.assets.find((a) => a.asset === 'USDT')?.availableBalance).toBe('10000');
  });

  it('with FUTURES_BASE_URL and keys, signs requests to that server', async () => {
    const remote = createExchange({ seed: 2 });
    const { accountId } = remote.createAccount({ balances: { USDT: '123' } });
    const { apiKey, apiSecret } = remote.createApiKey(accountId, { permissions: ['READ_ONLY'] });
    const server = await remote.listen();
    try {
      vi.stubEnv('FUTURES_BASE_URL', server.url);
      vi.stubEnv('FUTURES_API_KEY', apiKey);
      vi.stubEnv('FUTURES_API_SECRET', apiSecret);
      vi.stubEnv('FUTURES_SYMBOL', 'ETHUSDT');
      const { client, ex, symbol } = await connect();
      expect(ex).toBeUndefined();
      expect(symbol).toBe('ETHUSDT');
      const { balances } = await client.account.balance();
      expect(balances.assets[0]?.walletBalance).toBe('123');
      expect(remote.requests.at(-1)?.headers['x-api-key']).toBe(apiKey);
    } finally {
      await server.close();
    }
  });

  it('refuses FUTURES_BASE_URL without a key and secret', async () => {
    vi.stubEnv('FUTURES_BASE_URL', 'https://api.example.com');
    await expect(connect()).rejects.toThrow(/FUTURES_API_KEY and FUTURES_API_SECRET/);
  });
});
