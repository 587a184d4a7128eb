/**
 * A real `redis-server` (Debian's package) on 127.0.0.1, on a free port, without persistence, for the fleet tests
 * and bench. `kill()` stops it abruptly (SIGKILL, like a crash) and `restart()` starts a fresh one on the same
 * port, with an empty dataset.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createConnection } from 'node:net';
import { freePort } from './ports.ts';

export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** SIGKILL, like a crash: nothing is saved (there is no persistence anyway). */
  kill(): Promise<void>;
  /** Starts a fresh server on the same port (after `kill`). */
  restart(): Promise<void>;
  /** Sends a signal to the server process (`SIGSTOP` freezes it with its data, `SIGCONT` resumes it). */
  signal(signal: NodeJS.Signals): void;
  /** Runs `redis-cli` against it and returns its output (for assertions on keys). */
  cli(...args: string[]): string;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
}

/** Whether `redis-server` is installed (`apt-get install -y redis-server`). */
export function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let answer = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    if (await ping(port)) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error('redis-server did not start within 10 s');
}

/**
 * Starts `redis-server` on a free 127.0.0.1 port. Fails with the install command when it is missing (CI installs
 * it in .ci/run).
 */
export async function startRedis(): Promise<RedisServer> {
  if (!hasRedisServer()) {
    throw new Error('redis-server is not installed: apt-get update && apt-get install -y redis-server');
  }
  const port = await freePort();
  let child = await launch(port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async restart() {
      child = await launch(port);
    },
    signal(signal) {
      child.kill(signal);
    },
    cli(...args) {
      return execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8' });
    },
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

/**
 * Waits until the server has been up for at least `ms` as the fleet's scripts see it: the fleet withholds
 * slots for a window and newcomers' lanes for a lease + rest after Redis starts, in case it lost live state.
 */
export async function waitForUptime(redis: RedisServer, ms: number): Promise<void> {
  for (;;) {
    // As the fleet's scripts read it: one second less than Redis reports (see src/redis/scripts.ts).
    const uptime = (Number(/uptime_in_seconds:(\d+)/.exec(redis.cli('INFO', 'server'))?.[1] ?? 0) - 1) * 1000;
    if (uptime >= ms) return;
    await new Promise((r) => setTimeout(r, Math.min(250, ms - uptime)));
  }
}
