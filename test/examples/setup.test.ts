import { createExchange } from 'futures-sdk/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connect, shiftPrice } from '../../examples/_setup.ts';

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

  it.each([
    ['64479.2', -5, '0.5', '61255'],
    ['64479.2', -5, '5', '61255'],
    ['3512.34', 1.5, '0.01', '3565.02'],
    ['0.123456', -0.01, '0.0001', '0.1234'],
  ])('%s moved by %d %% on a tick of %s is %s', (price, percent, tick, expected) => {
    expect(shiftPrice(price, percent, tick)).toBe(expected);
  });
});

describe('connect', () => {
  beforeEach(() => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    for (const name of ['BASE_URL', 'API_KEY', 'API_SECRET', 'SYMBOL', 'TICK_SIZE', 'STEP_SIZE']) {
      vi.stubEnv(`FUTURES_${name}`, '');
    }
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('without FUTURES_BASE_URL, trades on a funded simulated account', async () => {
    const { client, ex, accountId, symbol, tickSize, stepSize } = await connect();
    expect(ex).toBeDefined();
    expect(accountId).toBeDefined();
    expect(symbol).toBe('BTCUSDT');
    expect([tickSize, stepSize]).toEqual(['0.1', '0.001']);
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
      vi.stubEnv('FUTURES_TICK_SIZE', '0.01');
      const { client, ex, symbol, tickSize, stepSize } = await connect();
      expect(ex).toBeUndefined();
      expect(symbol).toBe('ETHUSDT');
      expect([tickSize, stepSize]).toEqual(['0.01', undefined]);
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
