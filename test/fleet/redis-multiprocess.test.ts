import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisFleet, type RedisFleet, type RedisFleetOptions } from '../../src/redis/index.ts';
import { type FleetChild, spawnFleetChild } from '../helpers/fleet-child.ts';
import { type RedisServer, startRedis, waitForUptime } from '../helpers/redis.ts';

// Real child Node processes, each its own fleet member with its own Redis connection.

let redis: RedisServer;
const children: FleetChild[] = [];
const members: RedisFleet[] = [];
let nsCounter = 0;

beforeAll(async () => {
  redis = await startRedis();
  await waitForUptime(redis, 2_000);
});
afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => c.kill()));
  await Promise.all(members.splice(0).map((m) => m.close()));
});
afterAll(async () => {
  await redis?.stop();
});

function fleetOptions(extra: Partial<RedisFleetOptions> = {}): RedisFleetOptions {
  return {
    url: redis.url,
    namespace: `mp-test-${process.pid}-${++nsCounter}`,
    leaseTtlMs: 800,
    laneRestMs: 500,
    ...extra,
  };
}

function child(command: Parameters<typeof spawnFleetChild>[0]): FleetChild {
  const c = spawnFleetChild(command);
  children.push(c);
  return c;
}

/**
 * The largest number of grants that certainly fell inside one window: grants whose whole [sentAt, receivedAt]
 * interval lies within [t, t + windowMs) for some t. Redis granted each one somewhere in its interval.
 */
function mostCertainlyInOneWindow(grants: Array<[number, number]>, windowMs: number): number {
  let most = 0;
  for (const [start] of grants) {
    const inside = grants.filter(([s, r]) => s >= start && r < start + windowMs).length;
    most = Math.max(most, inside);
  }
  return most;
}

describe('createRedisFleet across processes', () => {
  it('gives distinct lanes to members in several processes joining at once', async () => {
    const options = fleetOptions({ maxMembers: 6 });
    const procs = Array.from({ length: 4 }, () => child({ mode: 'hold', fleet: options }));
    const local = await Promise.all([createRedisFleet(options), createRedisFleet(options)]);
    members.push(...local);
    const indices = [
      ...(await Promise.all(procs.map((p) => p.next('joined')))).map((e) => e.index),
      ...(await Promise.all(local.map((m) => m.lane()))).map((l) => l.index),
    ];
    expect(new Set(indices)).toEqual(new Set([0, 1, 2, 3, 4, 5]));
  });

  it('a crashed member frees its lane only after its lease plus the rest period', async () => {
    const options = fleetOptions({ maxMembers: 1 });
    const holder = child({ mode: 'hold', fleet: options });
    expect((await holder.next('joined')).index).toBe(0);
    holder.send('lane');
    expect(await holder.next('lane')).toEqual({ event: 'lane', index: 0 });

    await holder.kill(); // SIGKILL: no release
    const killedAt = performance.now();
    const successor = await createRedisFleet({ ...options, joinTimeoutMs: 5_000 });
    members.push(successor);
    const waited = performance.now() - killedAt;
    expect((await successor.lane()).index).toBe(0);
    // Its last renewal was at most a third of a lease before the kill, so the lease ran at least two thirds of
    // it past the kill, then the lane rested.
    expect(waited).toBeGreaterThanOrEqual((2 / 3) * 800 + 500 - 50);
    expect(waited).toBeLessThan(800 + 500 + 1_500);
  });

  it('a member that closes releases its lane to a member in another process after the rest period', async () => {
    const options = fleetOptions({ maxMembers: 1, leaseTtlMs: 4_000 });
    const holder = child({ mode: 'hold', fleet: options });
    await holder.next('joined');
    holder.send('close');
    await holder.next('closed');
    const closedAt = performance.now();
    const successor = await createRedisFleet({ ...options, joinTimeoutMs: 5_000 });
    members.push(successor);
    expect(performance.now() - closedAt).toBeLessThan(3_000); // the rest period, not the 4 s lease
    expect((await successor.lane()).index).toBe(0);
  });

  it('never grants more than the limit in any window to takers in three processes', async () => {
    const options = fleetOptions({ maxMembers: 3 });
    const budget = { limit: 20, windowMs: 1_000 };
    const startAt = Date.now() + 1_500; // every child has joined by then
    const procs = Array.from({ length: 3 }, () =>
      child({ mode: 'take', fleet: options, bucket: 'orders', budget, startAt, durationMs: 2_500, concurrency: 4 }),
    );
    const results = await Promise.all(procs.map((p) => p.next('took')));
    const grants = results.flatMap((r) => r.grants);
    expect(results.every((r) => r.errors === 0)).toBe(true);
    expect(mostCertainlyInOneWindow(grants, budget.windowMs)).toBeLessThanOrEqual(budget.limit);
    // Three windows started within 2.5 s: at most 60 in all (and the fleet used most of it).
    expect(grants.length).toBeLessThanOrEqual(60);
    expect(grants.length).toBeGreaterThanOrEqual(40);
    // Every process got a share: nobody is starved by the others' loops.
    expect(results.every((r) => r.grants.length > 0)).toBe(true);
  });
});
