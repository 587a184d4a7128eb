import { afterEach, describe, expect, it } from 'vitest';
import { FuturesClient } from '../../src/client.ts';
import { AuthenticationError } from '../../src/errors/api-error.ts';
import type { FuturesError } from '../../src/errors/futures-error.ts';
import type { AccountStream, MarketMessage, OrderEventData, PositionUpdateData } from '../../src/events/stream.ts';
import { createExchange, type ListeningExchange } from '../../src/testing/index.ts';
import { until } from './helpers.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const ex = createExchange({ seed: 3, volatility: 0 });
  const { accountId } = ex.createAccount({ balances: { USDT: '1000000' } });
  const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  ex.setMarkPrice('BTCUSDT', '65000');
  const server: ListeningExchange = await ex.listen();
  cleanups.push(() => server.close());
  const client = new FuturesClient({ baseUrl: server.url, apiKey, apiSecret });
  return { ex, accountId, server, client };
}

function track(stream: AccountStream) {
  cleanups.push(() => stream.close());
  const seen = {
    market: [] as MarketMessage[],
    orders: [] as OrderEventData[],
    positions: [] as PositionUpdateData[],
    snapshots: 0,
    errors: [] as FuturesError[],
  };
  stream.on('market', (m) => seen.market.push(m));
  stream.on('order_new', (o) => seen.orders.push(o));
  stream.on('position_update', (p) => seen.positions.push(p));
  stream.on('full_snapshot', () => seen.snapshots++);
  stream.on('error', (e) => seen.errors.push(e));
  return seen;
}

describe('AccountStream against the simulator (listen)', () => {
  it('receives the snapshot, account events, and only the market data asked for', async () => {
    const { ex, accountId, server, client } = await setup();
    const stream = client.stream({
      url: server.wsUrl,
      token: () => Promise.resolve(ex.issueJwt(accountId)),
      symbols: ['BTCUSDT'],
    });
    const seen = track(stream);
    await until(() => seen.snapshots >= 1 && seen.market.length >= 2);
    await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
    await until(() => seen.orders.length === 1 && seen.positions.length >= 1);
    expect(seen.positions.at(-1)).toMatchObject({ symbol: 'BTCUSDT', quantity: '0.01' });
    expect(new Set(seen.market.map((m) => m.symbol))).toEqual(new Set(['BTCUSDT']));
    expect(stream.stats.dropped).toBeGreaterThan(seen.market.length);
    expect(seen.errors).toEqual([]);
  });

  it('a refused JWT ends the stream as unauthorized', async () => {
    const { server, client } = await setup();
    const stream = client.stream({ url: server.wsUrl, token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.bm9wZQ' });
    const seen = track(stream);
    await until(() => stream.state === 'unauthorized');
    expect(seen.errors).toHaveLength(1);
    expect(seen.errors[0]).toBeInstanceOf(AuthenticationError);
    expect(seen.errors[0]!.message).not.toContain('eyJ');
  });
});
