/**
 * A fleet member in its own Node process, for the multi-process fleet tests. Run by `spawnFleetChild` (below);
 * speaks JSON lines: it prints events on stdout and takes commands on stdin.
 *
 * Modes (first argument, JSON):
 * - `{ mode: 'hold', fleet }`: joins and prints `{ event: 'joined', index }`; then answers `lane` with
 *   `{ event: 'lane', index }` or `{ event: 'lane-error', name }`, and `close` with `{ event: 'closed' }` (exits).
 * - `{ mode: 'take', fleet, bucket, budget, startAt, durationMs, concurrency }`: joins, waits for `startAt`
 *   (epoch ms), then runs `concurrency` loops of `tryTake` for `durationMs`, never settling, and prints
 *   `{ event: 'took', grants: [[sentAt, receivedAt], …], denied, errors }`: the local times around every grant.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { BucketName } from '../../src/_internal/rate-limiter.ts';
import type { BucketBudget } from '../../src/fleet/types.ts';
import type { RedisFleetOptions } from '../../src/redis/index.ts';

export type ChildCommand =
  | { mode: 'hold'; fleet: RedisFleetOptions }
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
  | { event: 'failed'; name: string; message: string };

export interface FleetChild {
  readonly process: ChildProcess;
  /** Resolves with the next event of that kind (or rejects if the child reports `failed` or exits first). */
  next<E extends ChildEvent['event']>(event: E): Promise<Extract<ChildEvent, { event: E }>>;
  send(command: 'lane' | 'close'): void;
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
            if (grant.granted) grants.push([sentAt, Date.now()]);
            else {
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
