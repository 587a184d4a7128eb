/**
 * A fleet member in its own Node process, for the multi-process fleet tests. Run by `spawnFleetChild` (below);
 * speaks JSON lines: it prints events on stdout and takes commands on stdin.
 *
 * Modes (first argument, JSON):
 * - `{ mode: 'hold', fleet }`: joins and prints `{ event: 'joined', index }`; then answers `lane` with
 *   `{ event: 'lane', index }` or `{ event: 'lane-error', name }`, and `close` with `{ event: 'closed' }` (exits).
 * - `{ mode: 'take', fleet, bucket, budget, startAt, durationMs, concurrency }`: joins, waits for `startAt`
 *   (epoch ms), then runs `concurrency` loops of `tryTake` for `durationMs`, settling each grant `'counted'` at
 *   once, and prints `{ event: 'took', grants: [[sentAt, settledAt], …], denied, errors }`: the local times
 *   around every slot (its request would have reached the server somewhere in between).
 * - `{ mode: 'orders', baseUrl, apiKey, apiSecret, member, count }`: a real `FuturesClient` with a fleet
 *   (`member`: none, `staticFleet({ index, size })` or `createRedisFleet(options)`); prints `{ event: 'ready' }`,
 *   waits for `go` on stdin, places `count` resting LIMIT orders at once (the client paces them), and prints
 *   `{ event: 'placed', placed, failures, lastAt, laneCalls }` (`laneCalls`: how often the client asked the fleet
 *   for its lane; 0 means this build's client ignores the `fleet` option).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { BucketName } from '../../src/_internal/rate-limiter.ts';
import type { BucketBudget } from '../../src/fleet/types.ts';
import type { RedisFleetOptions } from '../../src/redis/index.ts';

/** Which fleet an `orders` child's client uses. */
export type ChildMember =
  | { kind: 'none' }
  | { kind: 'static'; index: number; size: number }
  | { kind: 'redis'; options: RedisFleetOptions };

export type ChildCommand =
  | { mode: 'hold'; fleet: RedisFleetOptions }
  | { mode: 'orders'; baseUrl: string; apiKey: string; apiSecret: string; member: ChildMember; count: number }
  | {
      mode: 'take';
      fleet: RedisFleetOptions;
      bucket: BucketName;
      budget: BucketBudget;
      startAt: number;
      durationMs: number;
      concurrency: number;
    };

export type ChildEvent =
  | { event: 'joined'; index: number }
  | { event: 'lane'; index: number }
  | { event: 'lane-error'; name: string }
  | { event: 'closed' }
  | { event: 'took'; grants: Array<[number, number]>; denied: number; errors: number }
  | { event: 'ready' }
  | {
      event: 'placed';
      placed: number;
      /** Error name (and the server's error string, if any) → count. */
      failures: Record<string, number>;
      /** Epoch ms when the last call settled. */
      lastAt: number;
      laneCalls: number;
    }
  | { event: 'unsupported'; reason: string }
  | { event: 'failed'; name: string; message: string };

export interface FleetChild {
  readonly process: ChildProcess;
  /** Resolves with the next event of that kind (or rejects if the child reports `failed` or exits first). */
  next<E extends ChildEvent['event']>(event: E): Promise<Extract<ChildEvent, { event: E }>>;
  send(command: 'lane' | 'close' | 'go'): void;
  kill(): Promise<void>;
}

const SELF = fileURLToPath(import.meta.url);

/** Starts a child process running this file with `command`. */
export function spawnFleetChild(command: ChildCommand): FleetChild {
  const child = spawn(
    process.execPath,
    ['--experimental-transform-types', '--no-warnings', SELF, JSON.stringify(command)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const queue: ChildEvent[] = [];
  const waiters: Array<() => void> = [];
  let exited = false;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      queue.push(JSON.parse(line) as ChildEvent);
    } catch {
      return;
    }
    for (const w of waiters.splice(0)) w();
  });
  child.on('exit', () => {
    exited = true;
    for (const w of waiters.splice(0)) w();
  });
  return {
    process: child,
    async next(event) {
      for (;;) {
        const failed = queue.findIndex((e) => e.event === 'failed');
        if (failed >= 0) {
          const e = queue[failed] as Extract<ChildEvent, { event: 'failed' }>;
          throw new Error(`fleet child failed: ${e.name}: ${e.message}`);
        }
        const i = queue.findIndex((e) => e.event === event);
        if (i >= 0) return queue.splice(i, 1)[0] as never;
        if (exited) throw new Error(`fleet child exited before "${event}"`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    send(cmd) {
      child.stdin!.write(`${cmd}\n`);
    },
    async kill() {
      if (exited) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await gone;
    },
  };
}

// ── The child's side ────────────────────────────────────────────────────────────────────────────────────────

function emit(event: ChildEvent): void {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

async function main(command: ChildCommand): Promise<void> {
  if (command.mode === 'orders') return placeOrders(command);
  const { createRedisFleet } = await import('../../src/redis/index.ts');
  const fleet = await createRedisFleet(command.fleet);
  const joined = await fleet.lane();
  emit({ event: 'joined', index: joined.index });

  if (command.mode === 'take') {
    const { bucket, budget, startAt, durationMs, concurrency } = command;
    await new Promise((r) => setTimeout(r, Math.max(0, startAt - Date.now())));
    const grants: Array<[number, number]> = [];
    let denied = 0;
    let errors = 0;
    const endAt = startAt + durationMs;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (Date.now() < endAt) {
          const sentAt = Date.now();
          try {
            const grant = await fleet.budget.tryTake(bucket, budget);
            if (grant.granted) {
              // Answered at once: the "request" reached the server somewhere in [sentAt, now].
              await fleet.budget.settle(bucket, grant.ticket, 'counted');
              grants.push([sentAt, Date.now()]);
            } else {
              denied++;
              await new Promise((r) => setTimeout(r, Math.min(grant.retryInMs, Math.max(0, endAt - Date.now()))));
            }
          } catch {
            errors++;
          }
        }
      }),
    );
    emit({ event: 'took', grants, denied, errors });
    await fleet.close();
    process.exit(0);
  }

  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line === 'lane') {
      Promise.resolve()
        .then(() => fleet.lane())
        .then(
          (lane) => emit({ event: 'lane', index: lane.index }),
          (error: Error) => emit({ event: 'lane-error', name: error.name }),
        );
    } else if (line === 'close') {
      void fleet.close().then(() => {
        emit({ event: 'closed' });
        process.exit(0);
      });
    }
  });
}

if (process.argv[1] === SELF) {
  main(JSON.parse(process.argv[2] ?? '{}') as ChildCommand).catch((error: Error) => {
    emit({ event: 'failed', name: error.name, message: error.message });
    process.exit(1);
  });
}

function nextLine(): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin });
    rl.once('line', (line) => {
      rl.close();
      resolve(line);
    });
  });
}

async function placeOrders(command: Extract<ChildCommand, { mode: 'orders' }>): Promise<void> {
  const sdk = (await import('../../src/index.ts')) as typeof import('../../src/index.ts') & Record<string, unknown>;
  const { member } = command;
  let fleet: import('../../src/index.ts').Fleet | undefined;
  if (member.kind === 'static') {
    // staticFleet comes with the client's fleet wiring (another branch); say so instead of failing obscurely.
    const staticFleet = sdk.staticFleet as
      | ((o: { index: number; size: number }) => import('../../src/index.ts').Fleet)
      | undefined;
    if (typeof staticFleet !== 'function') {
      emit({ event: 'unsupported', reason: 'staticFleet is not exported by this build of futures-sdk' });
      process.exit(0);
    }
    fleet = staticFleet({ index: member.index, size: member.size });
  } else if (member.kind === 'redis') {
    const { createRedisFleet } = await import('../../src/redis/index.ts');
    fleet = await createRedisFleet(member.options);
  }
  let laneCalls = 0;
  const counted: import('../../src/index.ts').Fleet | undefined = fleet && {
    budget: fleet.budget,
    close: () => fleet.close(),
    lane(signal) {
      laneCalls++;
      return fleet.lane(signal);
    },
  };
  const client = new sdk.FuturesClient({
    baseUrl: command.baseUrl,
    apiKey: command.apiKey,
    apiSecret: command.apiSecret,
    // Typed loosely: builds without the `fleet` option simply ignore it (laneCalls then stays 0).
    ...(counted ? ({ fleet: counted } as object) : {}),
  });
  emit({ event: 'ready' });
  await nextLine();
  const failures: Record<string, number> = {};
  let placed = 0;
  let lastAt = Date.now();
  await Promise.all(
    Array.from({ length: command.count }, async () => {
      try {
        await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '50000' });
        placed++;
      } catch (error) {
        const e = error as { name?: string; error?: unknown };
        const key = `${e.name ?? 'Error'}${typeof e.error === 'string' ? `: ${e.error}` : ''}`;
        failures[key] = (failures[key] ?? 0) + 1;
      } finally {
        lastAt = Math.max(lastAt, Date.now());
      }
    }),
  );
  emit({ event: 'placed', placed, failures, lastAt, laneCalls });
  await fleet?.close();
  process.exit(0);
}
