// Polled trades are never silently missed: a poll that finds only new trades reads back further; a gap even that
// cannot close is an `error` event. The simulator makes one BTCUSDT trade every 250 ms of server time, with
// consecutive ids; server and client share one manual clock.

import { createPublicClient, type FuturesError } from 'futures-sdk';
import { createMarketFeed } from 'futures-sdk/market';
import { createExchange, ManualClock } from 'futures-sdk/testing';
import { describe, expect, it } from 'vitest';
import { cleanups, round } from './rig.ts';

async function tradesFeed(intervalMs: number) {
  const clock = new ManualClock({ start: Date.UTC(2026, 10, 28, 10, 0, 0) });
  const ex = createExchange({ seed: 23, volatility: 0, clock });
  const server = await ex.listen();
  cleanups.push(() => server.close());
  const feed = createMarketFeed(createPublicClient({ baseUrl: server.url, clock }), { intervalMs });
  cleanups.push(() => feed.close());
  const ids: number[] = [];
  const errors: FuturesError[] = [];
  feed.on('error', (error) => errors.push(error));
  feed.trades('BTCUSDT', (trades) => ids.push(...trades.map((trade) => trade.id)));
  await round(ex, clock, 0);
  return { ex, clock, ids, errors };
}

const consecutive = (ids: number[]) => ids.every((id, index) => index === 0 || id === ids[index - 1]! + 1);

describe('MarketFeed trades over REST', () => {
  it('at a 30 s interval (120 trades between polls): every trade once, in order, none missed', async () => {
    const { ex, clock, ids, errors } = await tradesFeed(30_000);
    for (let poll = 0; poll < 3; poll++) await round(ex, clock, 30_000);
    expect(ids.length).toBe(20 + 3 * 120);
    expect(consecutive(ids)).toBe(true);
    // The first read, then per poll: the last 20 (all new), and 1000 read back.
    expect(ex.requests.map((r) => r.query['limit'])).toEqual(['20', '20', '1000', '20', '1000', '20', '1000']);
    expect(errors).toEqual([]);
  });

  it('at the default pace (8 trades between polls): one request per poll, nothing read back', async () => {
    const { ex, clock, ids } = await tradesFeed(2_000);
    for (let poll = 0; poll < 5; poll++) await round(ex, clock, 2_000);
    expect(ids.length).toBe(20 + 5 * 8);
    expect(consecutive(ids)).toBe(true);
    expect(ex.requests.map((r) => r.query['limit'])).toEqual(Array(6).fill('20'));
  });

  it('a gap longer than 1000 trades is an error event naming the ids between which trades may be missed', async () => {
    const { ex, clock, ids, errors } = await tradesFeed(600_000);
    const lastBefore = ids.at(-1)!;
    await round(ex, clock, 600_000); // 2400 trades
    expect(ids.length).toBe(20 + 1_000);
    expect(consecutive(ids.slice(20))).toBe(true);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe(
      `market feed: trades of BTCUSDT after id ${lastBefore} and before id ${ids[20]} may be missed`,
    );
  });
});
