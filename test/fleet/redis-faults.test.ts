import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetUnavailableError } from '../../src/index.ts';
import { createRedisFleet, type RedisFleet } from '../../src/redis/index.ts';
import { type RedisServer, startRedis, waitForUptime } from '../helpers/redis.ts';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
  await waitForUptime(redis, 4_000);
});
afterAll(async () => {
  await redis?.stop();
});

const ms = (n: number) => new Promise((r) => setTimeout(r, n));

async function elapsedOf<T>(promise: Promise<T>): Promise<{ ms: number; result: PromiseSettledResult<T> }> {
  const start = performance.now();
  const [result] = await Promise.allSettled([promise]);
  return { ms: performance.now() - start, result: result as PromiseSettledResult<T> };
}

describe('createRedisFleet when Redis dies and comes back', () => {
  it('keeps trading on a static share through a short outage, re-registers its lane, and over-grants nothing after the restart', async () => {
    const options = {
      url: redis.url,
      namespace: 'faults',
      maxMembers: 2,
      leaseTtlMs: 3_000,
      laneRestMs: 500,
      commandTimeoutMs: 300,
    };
    const budget = { limit: 3, windowMs: 1_500 };
    const member = await createRedisFleet(options);
    let newcomer: RedisFleet | undefined;
    const grantTimes: number[] = [];
    const take = async () => {
      const grant = await member.budget.tryTake('orders', budget);
      if (grant.granted) {
        grantTimes.push(performance.now());
        await member.budget.settle('orders', grant.ticket, 'counted');
      }
      return grant;
    };
    try {
      expect((await member.lane()).index).toBe(0);
      for (let i = 0; i < 2; i++) expect(await take()).toMatchObject({ granted: true });

      await redis.kill();
      // Redis unreachable, the lease still runs: the member's static share of what Redis said was left (3 − 2).
      const down = await elapsedOf(take());
      expect(down.result).toMatchObject({ status: 'fulfilled', value: { granted: true } });
      expect(down.ms).toBeLessThan(1_000);
      expect(await take()).toMatchObject({ granted: false });
      // settle and pause never reject (nothing unsafe can follow from their failure).
      await expect(member.budget.settle('orders', '1500:1:1', 'counted')).resolves.toBeUndefined();
      await expect(member.budget.pause('orders', 1_000)).resolves.toBeUndefined();
      expect((await member.lane()).index).toBe(0);

      await ms(500);
      await redis.restart(); // empty: every lease and slot is forgotten
      const restartedAt = performance.now();

      // The restarted Redis has no record of the slots taken before: the member stays on its static share (at
      // most 3 in any window) until Redis has been up a full window, then shares through Redis again.
      const takes = (async () => {
        while (performance.now() - restartedAt < 3_000) {
          try {
            const grant = await take();
            if (!grant.granted) await ms(Math.min(grant.retryInMs, 100));
          } catch (error) {
            expect(error).toBeInstanceOf(FleetUnavailableError); // while reconnecting
            await ms(50);
          }
        }
      })();
      // A newcomer cannot lease a lane until leaseTtlMs + laneRestMs after the restart: a lease from before the
      // crash may still be live. Meanwhile the member re-registers its own lane.
      newcomer = await createRedisFleet({ ...options, joinTimeoutMs: 10_000 });
      const newcomerAt = performance.now();
      await takes;
      expect(newcomerAt - restartedAt).toBeGreaterThanOrEqual(3_400);
      expect((await newcomer.lane()).index).toBe(1);
      expect((await member.lane()).index).toBe(0); // long past its pre-crash lease: re-registered on the new Redis
      const most = Math.max(...grantTimes.map((t) => grantTimes.filter((u) => u >= t && u < t + 1_450).length));
      expect(most).toBeLessThanOrEqual(budget.limit);
      expect(grantTimes.length).toBeGreaterThanOrEqual(6);
    } finally {
      await newcomer?.close();
      await member.close();
    }
  });

  it('a member that cannot reach Redis for longer than its lease stops signing, then rejoins', async () => {
    const options = {
      url: redis.url,
      namespace: 'faults-long',
      maxMembers: 1,
      leaseTtlMs: 600,
      laneRestMs: 300,
      commandTimeoutMs: 200,
    };
    await waitForUptime(redis, 1_000);
    const member = await createRedisFleet(options);
    try {
      expect((await member.lane()).index).toBe(0);
      await redis.kill();
      await ms(700);
      await expect(member.lane()).rejects.toThrow(FleetUnavailableError);
      await expect(member.lane()).rejects.toThrow(/nothing was signed or sent/);
      await redis.restart();
      // After the restart its lane record is gone and its own lease has lapsed: it leases afresh, which a
      // restarted Redis allows once leaseTtlMs + laneRestMs have passed.
      const deadline = performance.now() + 5_000;
      let lane: number | undefined;
      while (lane === undefined && performance.now() < deadline) {
        try {
          lane = (await member.lane()).index;
        } catch {
          await ms(100);
        }
      }
      expect(lane).toBe(0);
    } finally {
      await member.close();
    }
  });

  it('with a caller-owned client that queues commands while disconnected, calls still fail within commandTimeoutMs', async () => {
    await waitForUptime(redis, 2_000);
    const client = new Redis(redis.url); // default options: offline queue on, reconnects forever
    client.on('error', () => {});
    const member = await createRedisFleet({
      client,
      namespace: 'faults-own-client',
      maxMembers: 1,
      leaseTtlMs: 600,
      laneRestMs: 300,
      commandTimeoutMs: 250,
    });
    try {
      await redis.kill();
      await ms(700); // past the lease: no static share any more
      const down = await elapsedOf(Promise.resolve(member.budget.tryTake('orders', { limit: 5, windowMs: 1_000 })));
      expect(down.result.status).toBe('rejected');
      if (down.result.status === 'rejected') {
        expect(down.result.reason).toBeInstanceOf(FleetUnavailableError);
        expect(String(down.result.reason)).toMatch(/did not answer within 250 ms/);
      }
      expect(down.ms).toBeGreaterThanOrEqual(240);
      expect(down.ms).toBeLessThan(800);
      await redis.restart();
      await member.close();
      // close() leaves a client it did not open alone.
      await expect(client.ping()).resolves.toBe('PONG');
    } finally {
      await member.close();
      client.disconnect();
    }
  });
});
