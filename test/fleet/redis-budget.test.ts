import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SlotGrant } from '../../src/index.ts';
import { createRedisFleet, type RedisFleet } from '../../src/redis/index.ts';
import { type RedisServer, startRedis, waitForUptime } from '../helpers/redis.ts';

let redis: RedisServer;
const members: RedisFleet[] = [];
let nsCounter = 0;

beforeAll(async () => {
  redis = await startRedis();
  // A fresh Redis withholds slots for one window (it may have lost slots counted before a restart).
  await waitForUptime(redis, 2_000);
});
afterEach(async () => {
  await Promise.all(members.splice(0).map((m) => m.close()));
});
afterAll(async () => {
  await redis?.stop();
});

/** `n` members of a fresh namespace. */
async function fleet(n: number): Promise<RedisFleet[]> {
  const namespace = `budget-test-${process.pid}-${++nsCounter}`;
  const joined = await Promise.all(
    Array.from({ length: n }, () =>
      createRedisFleet({ url: redis.url, namespace, maxMembers: n, leaseTtlMs: 600, laneRestMs: 400 }),
    ),
  );
  members.push(...joined);
  return joined;
}

const granted = (grants: SlotGrant[]) => grants.filter((g) => g.granted).length;
const ms = (n: number) => new Promise((r) => setTimeout(r, n));

describe('createRedisFleet shared budget', () => {
  it('grants exactly `limit` slots per window among all members taking at once', async () => {
    const [a, b, c] = (await fleet(3)) as [RedisFleet, RedisFleet, RedisFleet];
    const budget = { limit: 5, windowMs: 1_500 };
    const grants = await Promise.all(
      [a, b, c].flatMap((m) => Array.from({ length: 6 }, () => m.budget.tryTake('orders', budget))),
    );
    expect(granted(grants)).toBe(5);
    const denied = grants.filter((g): g is Extract<SlotGrant, { granted: false }> => !g.granted);
    expect(denied.every((g) => g.retryInMs > 0 && g.retryInMs <= 1_500)).toBe(true);
    // Tickets are unique.
    const tickets = grants.flatMap((g) => (g.granted ? [g.ticket] : []));
    expect(new Set(tickets).size).toBe(5);
    // Other buckets have their own window.
    expect(await a.budget.tryTake('default', budget)).toMatchObject({ granted: true });

    // The answers arrive: the slots count a window from now, and whoever asks is told how long that is.
    await Promise.all(tickets.map((ticket) => a.budget.settle('orders', ticket, 'counted')));
    const full = await b.budget.tryTake('orders', budget);
    expect(full).toMatchObject({ granted: false });
    if (full.granted) return;
    expect(full.retryInMs).toBeGreaterThan(1_300);
    expect(full.retryInMs).toBeLessThanOrEqual(1_500);
    await ms(full.retryInMs + 20);
    expect(await b.budget.tryTake('orders', budget)).toMatchObject({ granted: true });
  });

  it('a slot still in flight holds its place past the window until it is settled', async () => {
    const [a, b] = (await fleet(2)) as [RedisFleet, RedisFleet];
    const budget = { limit: 1, windowMs: 500 };
    const take = await a.budget.tryTake('close', budget);
    if (!take.granted) throw new Error('expected a slot');
    await ms(700); // no answer yet: the request may still reach the server at any moment
    const waiting = await b.budget.tryTake('close', budget);
    expect(waiting).toMatchObject({ granted: false });
    if (!waiting.granted) expect(waiting.retryInMs).toBeLessThanOrEqual(100); // asks again soon
    await a.budget.settle('close', take.ticket, 'refunded'); // a 429: the server did not count it
    expect(await b.budget.tryTake('close', budget)).toMatchObject({ granted: true });
  });

  it('a refunded slot is free at once for any member', async () => {
    const [a, b] = (await fleet(2)) as [RedisFleet, RedisFleet];
    const budget = { limit: 2, windowMs: 2_000 }; // Redis has been up for 2 s: no restart guard
    const first = await a.budget.tryTake('orders', budget);
    await a.budget.tryTake('orders', budget);
    expect(await b.budget.tryTake('orders', budget)).toMatchObject({ granted: false });
    if (!first.granted) throw new Error('expected a slot');
    await a.budget.settle('orders', first.ticket, 'refunded');
    expect(await b.budget.tryTake('orders', budget)).toMatchObject({ granted: true });
    expect(await b.budget.tryTake('orders', budget)).toMatchObject({ granted: false });
  });

  it("a counted slot is re-stamped at settle time: it holds its place a full window from the response's arrival", async () => {
    const [a, b] = (await fleet(2)) as [RedisFleet, RedisFleet];
    const budget = { limit: 1, windowMs: 1_000 };
    const take = await a.budget.tryTake('orders', budget);
    if (!take.granted) throw new Error('expected a slot');
    await ms(600); // the "response" arrives 600 ms after the slot was taken
    await a.budget.settle('orders', take.ticket, 'counted');
    const settledAt = performance.now();
    await ms(500); // 1100 ms after the take: past the take's window, inside the settle's
    const denied = await b.budget.tryTake('orders', budget);
    expect(denied).toMatchObject({ granted: false });
    if (denied.granted) return;
    expect(denied.retryInMs).toBeGreaterThan(300);
    expect(denied.retryInMs).toBeLessThanOrEqual(600);
    await ms(Math.max(0, settledAt + 1_000 - performance.now()) + 20);
    expect(await b.budget.tryTake('orders', budget)).toMatchObject({ granted: true });
  });

  it("a 429 pause holds every member's bucket, is never shortened, and ends on time", async () => {
    const [a, b] = (await fleet(2)) as [RedisFleet, RedisFleet];
    const budget = { limit: 100, windowMs: 1_000 };
    await a.budget.pause('orders', 800);
    await a.budget.pause('orders', 100); // a shorter pause does not cut the longer one
    const paused = await b.budget.tryTake('orders', budget);
    expect(paused).toMatchObject({ granted: false, paused: true });
    if (!paused.granted) expect(paused.retryInMs).toBeGreaterThan(600);
    expect(await b.budget.tryTake('default', budget)).toMatchObject({ granted: true });
    // The unlimited `public` bucket is paused too.
    expect(await b.budget.tryTake('orders', { limit: Number.POSITIVE_INFINITY, windowMs: 1_000 })).toMatchObject({
      granted: false,
    });
    await ms(850);
    expect(await b.budget.tryTake('orders', budget)).toMatchObject({ granted: true });
  });

  it('an unlimited bucket grants without counting', async () => {
    const [a] = (await fleet(1)) as [RedisFleet];
    const grants = await Promise.all(
      Array.from({ length: 50 }, () =>
        a.budget.tryTake('public', { limit: Number.POSITIVE_INFINITY, windowMs: 1_000 }),
      ),
    );
    expect(granted(grants)).toBe(50);
  });

  it('slot keys expire with their window', async () => {
    const [a] = (await fleet(1)) as [RedisFleet];
    const take = await a.budget.tryTake('batch', { limit: 3, windowMs: 300 });
    if (!take.granted) throw new Error('expected a slot');
    await a.budget.settle('batch', take.ticket, 'counted');
    await a.budget.pause('batch', 200);
    const pattern = `futures-sdk:{budget-test-${process.pid}-${nsCounter}}:*`;
    expect(redis.cli('--scan', '--pattern', pattern)).toMatch(/counted:batch/);
    await ms(700); // the longest: the sequence key, two windows
    expect(redis.cli('--scan', '--pattern', pattern)).not.toMatch(/counted:batch|flight:batch|pause:batch|seq/);
  });
});
