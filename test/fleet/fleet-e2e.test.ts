/**
 * End-to-end fleet tests: several processes, each a real FuturesClient with a fleet, on ONE API key against ONE
 * simulator (`ex.listen()`), checked on the server's side: every order placed, no `401 Signature replay
 * detected`, no 429.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExchange, type ListeningExchange } from '../../src/testing/index.ts';
import { type ChildMember, type FleetChild, spawnFleetChild } from '../helpers/fleet-child.ts';
import { type RedisServer, startRedis, waitForUptime } from '../helpers/redis.ts';

const PROCESSES = 3;
const ORDERS_EACH = 40;

let redis: RedisServer | undefined;
let server: ListeningExchange | undefined;
const ex = createExchange({ seed: 1, volatility: 0 });
ex.setMarkPrice('BTCUSDT', '60000');

beforeAll(async () => {
  redis = await startRedis();
  server = await ex.listen();
  // A fresh Redis admits members after leaseTtlMs + laneRestMs (1 s here) and counts slots after a lease: it
  // cannot tell a first start from a restart whose members have yet to hand back their slots.
  await waitForUptime(redis, 1_000);
}, 30_000);
afterAll(async () => {
  await server?.close();
  await redis?.stop();
});

/** Runs PROCESSES children on a fresh key, each placing ORDERS_EACH orders at once; returns what the server saw. */
async function run(member: (index: number) => ChildMember) {
  const { accountId } = ex.createAccount({ balances: { USDT: '10000000' } });
  const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  const children: FleetChild[] = Array.from({ length: PROCESSES }, (_, i) =>
    spawnFleetChild({ mode: 'orders', baseUrl: server!.url, apiKey, apiSecret, member: member(i), count: ORDERS_EACH }),
  );
  try {
    await Promise.all(children.map((c) => c.next('ready')));
    for (const c of children) c.send('go');
    const results = await Promise.all(children.map((c) => c.next('placed')));
    const requests = ex.requests.filter((r) => r.headers['x-api-key'] === apiKey && r.path === '/v2/orders');
    return {
      placed: results.reduce((n, r) => n + r.placed, 0),
      failures: results.map((r) => r.failures),
      laneCalls: results.map((r) => r.laneCalls),
      status401: requests.filter((r) => r.status === 401).length,
      status429: requests.filter((r) => r.status === 429).length,
      accepted: requests.filter((r) => r.status === 200).length,
    };
  } finally {
    await Promise.all(children.map((c) => c.kill()));
  }
}

describe('fleet end to end', () => {
  it('three processes with a Redis fleet on one key: every order placed, no replay 401, no 429', async () => {
    const namespace = `e2e-${process.pid}`;
    const seen = await run(() => ({
      kind: 'redis',
      options: { url: redis!.url, namespace, maxMembers: PROCESSES, leaseTtlMs: 600, laneRestMs: 400 },
    }));
    expect(seen.laneCalls.every((n) => n >= ORDERS_EACH)).toBe(true);
    expect(seen.failures).toEqual([{}, {}, {}]);
    expect(seen).toMatchObject({ placed: PROCESSES * ORDERS_EACH, accepted: PROCESSES * ORDERS_EACH });
    expect(seen).toMatchObject({ status401: 0, status429: 0 });
  });

  it('three processes with staticFleet on one key: every order placed, no replay 401, no 429', async () => {
    const seen = await run((index) => ({ kind: 'static', index, size: PROCESSES }));
    expect(seen.laneCalls.every((n) => n >= ORDERS_EACH)).toBe(true);
    expect(seen.failures).toEqual([{}, {}, {}]);
    expect(seen).toMatchObject({ placed: PROCESSES * ORDERS_EACH, accepted: PROCESSES * ORDERS_EACH });
    expect(seen).toMatchObject({ status401: 0, status429: 0 });
  });
});
