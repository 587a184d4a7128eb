import { FuturesClient } from 'futures-sdk';
import { createExchange } from 'futures-sdk/testing';
import { handlers } from 'futures-sdk/testing/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

// Your bot (normally imported from your own code): puts a reduce-only stop under every open long.
async function protectLongs(client: FuturesClient, stopPrice: string): Promise<number> {
  const { positions } = await client.account.positions();
  let placed = 0;
  for (const position of positions) {
    if (position.quantity.startsWith('-')) continue;
    await client.orders.create({
      symbol: position.symbol,
      side: 'SELL',
      type: 'STOP_MARKET',
      quantity: position.quantity,
      stopPrice,
      reduceOnly: true,
    });
    placed++;
  }
  return placed;
}

// One exchange for the file; its URL is the one your bot is configured with.
const ex = createExchange({ seed: 42, baseUrl: 'https://api.example.com', volatility: 0 });
const server = setupServer(...handlers(ex));
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => ex.faults.clear());
afterAll(() => server.close());

it('protects a long with a stop that closes it when the mark falls', async () => {
  const { accountId } = ex.createAccount({ balances: { USDT: '10000' } });
  const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  // No `fetch` option: the client uses the global fetch, which MSW intercepts.
  const client = new FuturesClient({ baseUrl: 'https://api.example.com', apiKey, apiSecret });
  ex.setMarkPrice('BTCUSDT', '60000');
  await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });

  expect(await protectLongs(client, '57000')).toBe(1);
  const posted = ex.requests.filter((r) => r.method === 'POST' && r.path === '/v2/orders');
  expect(posted.at(-1)?.body).toMatchObject({ type: 'STOP_MARKET', stopPrice: '57000', reduceOnly: true });

  ex.setMarkPrice('BTCUSDT', '56900'); // the stop triggers and fills as a taker
  const { positions } = await client.account.positions({ status: 'CLOSED' });
  expect(positions).toEqual([expect.objectContaining({ symbol: 'BTCUSDT', closeReason: 'STOP_LOSS' })]);
  expect(ex.account(accountId).venuePositions).toEqual([]);
});

it('survives a 503 from the exchange (the client retries it)', async () => {
  const { accountId } = ex.createAccount({ balances: { USDT: '10000' } });
  const client = new FuturesClient({ baseUrl: 'https://api.example.com', ...ex.createApiKey(accountId) });
  ex.faults.add({ method: 'GET', path: '/v2/positions', status: 503, times: 1 });
  await expect(protectLongs(client, '57000')).resolves.toBe(0);
  const calls = ex.requests.filter((r) => r.path === '/v2/positions');
  expect(calls.slice(-2).map((r) => r.status)).toEqual([503, 200]);
});
