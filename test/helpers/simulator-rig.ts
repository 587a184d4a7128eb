import { FuturesClient, type FuturesClientOptions } from 'futures-sdk';
import { createExchange } from 'futures-sdk/testing';
import { FakeClock } from './clock.ts';

/**
 * A simulated exchange with a still BTCUSDT mark at 60000, a funded account, a TRADE key and a client on a
 * FakeClock shared with the exchange (so backoff waits are recorded, not slept).
 */
export function simulatorRig(extra: Partial<FuturesClientOptions> = {}) {
  const clock = new FakeClock();
  const ex = createExchange({ seed: 1, volatility: 0, now: () => clock.now() });
  ex.setMarkPrice('BTCUSDT', '60000');
  const { accountId } = ex.createAccount({ balances: { USDT: '100000' } });
  const creds = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  const client = new FuturesClient({ baseUrl: ex.baseUrl, ...creds, fetch: ex.fetch, clock, ...extra });
  return { ex, clock, client, accountId };
}

/** A LIMIT buy far below the rig's mark, so it rests. */
export const limitBuy = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '50000' } as const;
