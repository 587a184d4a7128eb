import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, FleetUnavailableError } from '../../src/index.ts';
import { createRedisFleet, type RedisFleet, type RedisFleetOptions } from '../../src/redis/index.ts';
import { type RedisServer, startRedis, waitForUptime } from '../helpers/redis.ts';

let redis: RedisServer;
const members: RedisFleet[] = [];
const clients: Redis[] = [];
let nsCounter = 0;
const namespace = () => `lanes-test-${process.pid}-${++nsCounter}`;

beforeAll(async () => {
  redis = await startRedis();
  // A fresh Redis withholds newcomers' lanes for leaseTtlMs + laneRestMs (it may have lost live leases).
  await waitForUptime(redis, 2_000);
});
afterEach(async () => {
  await Promise.all(members.splice(0).map((m) => m.close()));
  for (const c of clients.splice(0)) c.disconnect();
});
afterAll(async () => {
  await redis?.stop();
});

async function join(options: Omit<RedisFleetOptions, 'url'> & { url?: string }): Promise<RedisFleet> {
  const member = await createRedisFleet({ url: redis.url, leaseTtlMs: 600, laneRestMs: 400, ...options });
  members.push(member);
  return member;
}

async function laneIndex(member: RedisFleet): Promise<number> {
  return (await member.lane()).index;
}

describe('createRedisFleet lanes', () => {
  it('gives members distinct lanes, also when they all join at the same moment', async () => {
    const ns = namespace();
    const joined = await Promise.all(Array.from({ length: 8 }, () => join({ namespace: ns, maxMembers: 8 })));
    const lanes = await Promise.all(joined.map((m) => m.lane()));
    expect(new Set(lanes.map((l) => l.index))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6, 7]));
    expect(lanes.every((l) => l.count === 8)).toBe(true);

    // A ninth finds every lane held and gives up at its join timeout.
    const started = performance.now();
    const ninth = join({ namespace: ns, maxMembers: 8, joinTimeoutMs: 300 });
    await expect(ninth).rejects.toThrow(FleetUnavailableError);
    await expect(ninth).rejects.toThrow(/is held or resting/);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('keeps lanes distinct across renewals over several lease periods', async () => {
    const ns = namespace();
    const joined = await Promise.all(Array.from({ length: 3 }, () => join({ namespace: ns, maxMembers: 3 })));
    const first = await Promise.all(joined.map(laneIndex));
    await new Promise((r) => setTimeout(r, 1_500)); // 2.5 leases of 600 ms
    expect(await Promise.all(joined.map(laneIndex))).toEqual(first);
    expect(new Set(first).size).toBe(3);
  });

  it('rejects a member whose settings differ from the namespace in use', async () => {
    const ns = namespace();
    await join({ namespace: ns, maxMembers: 3 });
    await expect(join({ namespace: ns, maxMembers: 4 })).rejects.toThrow(ConfigurationError);
    await expect(join({ namespace: ns, maxMembers: 3, leaseTtlMs: 900 })).rejects.toThrow(/leaseTtlMs 600/);
  });

  it('validates its options before connecting', async () => {
    await expect(createRedisFleet({ namespace: 'x' })).rejects.toThrow(ConfigurationError);
    await expect(createRedisFleet({ url: redis.url, namespace: 'has space' })).rejects.toThrow(/namespace/);
    await expect(createRedisFleet({ url: redis.url, namespace: 'a{b}' })).rejects.toThrow(/namespace/);
    await expect(createRedisFleet({ url: 'http://127.0.0.1', namespace: 'x' })).rejects.toThrow(/redis:\/\//);
    await expect(createRedisFleet({ url: redis.url, namespace: 'x', maxMembers: 0 })).rejects.toThrow(/maxMembers/);
  });

  it('close() releases the lane: it rests laneRestMs, then another member takes it', async () => {
    const ns = namespace();
    const options = { namespace: ns, maxMembers: 1, leaseTtlMs: 5_000, laneRestMs: 500 };
    const first = await join(options);
    expect(await laneIndex(first)).toBe(0);
    await expect(join({ ...options, joinTimeoutMs: 200 })).rejects.toThrow(FleetUnavailableError);

    await first.close();
    const closedAt = performance.now();
    await expect(first.lane()).rejects.toThrow(FleetUnavailableError);
    const second = await join({ ...options, joinTimeoutMs: 4_000 });
    const waited = performance.now() - closedAt;
    expect(await laneIndex(second)).toBe(0);
    expect(waited).toBeGreaterThanOrEqual(450); // rested (Redis measures; allow for the local clock's granularity)
    expect(waited).toBeLessThan(3_000); // well before the 5 s lease would have expired
  });

  it('a member cut off from Redis stops signing before its lease ends; only then, after the rest, is the lane taken', async () => {
    const ns = namespace();
    const options = { namespace: ns, maxMembers: 1, leaseTtlMs: 600, laneRestMs: 400 };
    const ownClient = new Redis(redis.url, { lazyConnect: true });
    clients.push(ownClient);
    const cutOff = await createRedisFleet({ ...options, client: ownClient });
    members.push(cutOff);
    expect(await laneIndex(cutOff)).toBe(0);

    ownClient.disconnect(); // renewals now fail; the lease in Redis runs out
    const cutAt = performance.now();
    let lastLaneAt = cutAt;
    let rejection: unknown;
    const watcher = (async () => {
      for (;;) {
        try {
          await cutOff.lane();
          lastLaneAt = performance.now();
        } catch (error) {
          rejection = error;
          return;
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    })();

    const newcomer = await join({ ...options, joinTimeoutMs: 5_000 });
    const takenAt = performance.now();
    await watcher;
    expect(rejection).toBeInstanceOf(FleetUnavailableError);
    expect(await laneIndex(newcomer)).toBe(0);
    // The cut-off member kept signing for less than its lease and stopped; the newcomer got the lane no sooner
    // than the rest period after that.
    expect(lastLaneAt - cutAt).toBeLessThan(600);
    expect(takenAt - lastLaneAt).toBeGreaterThanOrEqual(400);
  });

  it('namespaces are independent', async () => {
    const a = await join({ namespace: namespace(), maxMembers: 1 });
    const b = await join({ namespace: namespace(), maxMembers: 1 });
    expect([await laneIndex(a), await laneIndex(b)]).toEqual([0, 0]);
  });

  it('keeps nothing in Redis once every member left and its lane rested', async () => {
    const ns = namespace();
    const member = await join({ namespace: ns, maxMembers: 2, leaseTtlMs: 300, laneRestMs: 200 });
    await member.close();
    expect(redis.cli('--scan', '--pattern', `futures-sdk:{${ns}}:*`).trim()).not.toBe('');
    await new Promise((r) => setTimeout(r, 600));
    expect(redis.cli('--scan', '--pattern', `futures-sdk:{${ns}}:*`).trim()).toBe('');
  });
});
