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
  it('fails fast while Redis is down, keeps its lane through a short outage, and over-grants nothing after the restart', async () => {
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
    try {
      expect((await member.lane()).index).toBe(0);
      const grantTimes: number[] = [];
      for (let i = 0; i < 2; i++) {
        expect(await member.budget.tryTake('orders', budget)).toMatchObject({ granted: true });
        grantTimes.push(performance.now());
      }

      await redis.kill();
      const down = await elapsedOf(Promise.resolve(member.budget.tryTake('orders', budget)));
      expect(down.result.status).toBe('rejected');
      if (down.result.status === 'rejected') expect(down.result.reason).toBeInstanceOf(FleetUnavailableError);
      expect(down.ms).toBeLessThan(1_000);
      // settle and pause never reject (nothing unsafe can follow from their failure).
      await expect(member.budget.settle('orders', '1500:1:1', 'counted')).resolves.toBeUndefined();
      await expect(member.budget.pause('orders', 1_000)).resolves.toBeUndefined();
      // The lease still runs: signing stays allowed.
      expect((await member.lane()).index).toBe(0);

      await ms(500);
      await redis.restart(); // empty: every lease and slot is forgotten
      const restartedAt = performance.now();

      // The restarted Redis has no record of the two slots taken before the crash: it must not hand out three
      // new ones inside their window. No slot at all until Redis has been up for a full window.
      let firstGrantAt: number | undefined;
      let burst: Array<{ granted: boolean }> = [];
      const takes = (async () => {
        while (firstGrantAt === undefined) {
          try {
            const grant = await member.budget.tryTake('orders', budget);
            if (grant.granted) {
              firstGrantAt = performance.now();
              grantTimes.push(firstGrantAt);
            } else await ms(Math.min(grant.retryInMs, 100));
          } catch (error) {
            expect(error).toBeInstanceOf(FleetUnavailableError); // while reconnecting
            await ms(50);
          }
        }
        // From then on the window holds as usual: two more in this window, no third.
        burst = await Promise.all(Array.from({ length: 5 }, () => member.budget.tryTake('orders', budget)));
      })();
      // A newcomer cannot lease a lane until leaseTtlMs + laneRestMs after the restart: a lease from before the
      // crash may still be live. Meanwhile the member keeps (takes back) its own lane.
      newcomer = await createRedisFleet({ ...options, joinTimeoutMs: 10_000 });
      const newcomerAt = performance.now();
      await takes;
      expect(newcomerAt - restartedAt).toBeGreaterThanOrEqual(3_400);
      expect((await newcomer.lane()).index).toBe(1);
      expect((await member.lane()).index).toBe(0); // long past its pre-crash lease: it was renewed on the new Redis

      expect(firstGrantAt! - restartedAt).toBeGreaterThanOrEqual(1_400);
      expect(firstGrantAt! - grantTimes[1]!).toBeGreaterThanOrEqual(budget.windowMs);
      expect(burst.filter((g) => g.granted)).toHaveLength(2);
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
