/**
 * Real Debian daemons (nginx, tinyproxy) as child processes of a test file: each on a free 127.0.0.1 port, with
 * its own temporary directory for configuration, logs and pid file (nothing under /etc, /var or /run), stopped by
 * the caller in `afterAll`.
 *
 * A missing binary skips the test file with a message (`apt-get install -y nginx tinyproxy`) on a developer's
 * machine; in CI (`CI` set, as .ci/run does) it fails instead, because .ci/run installs both.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from '../helpers/ports.ts';

export { freePort };

/** Where a daemon's binary is, or why its tests are skipped. */
export interface Binary {
  readonly name: string;
  /** Absolute path, when installed. */
  readonly path: string | undefined;
  /** True only when the binary is missing and `CI` is not set: the file's `describe` is skipped. */
  readonly skip: boolean;
  /** The suffix for the `describe` title: empty, or why it is skipped. */
  readonly note: string;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds `name` on PATH or in the sbin/bin directories Debian installs to (nginx lives in /usr/sbin, which a
 * non-root PATH often lacks).
 */
export function findBinary(name: string): Binary {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
  // TEST_INFRA_PRETEND_MISSING=nginx,tinyproxy: how a machine without them behaves (skip, or fail in CI).
  const pretendMissing = (process.env.TEST_INFRA_PRETEND_MISSING ?? '').split(',').includes(name);
  const path = dirs
    .filter(() => !pretendMissing)
    .filter(Boolean)
    .map((dir) => join(dir, name))
    .find(executable);
  if (path) return { name, path, skip: false, note: '' };
  const install = `apt-get install -y ${name}`;
  if (process.env.CI) return { name, path: undefined, skip: false, note: ` (${name} missing: ${install})` };
  console.warn(`test/infra: ${name} is not installed, so its tests are skipped (${install}; in CI they fail)`);
  return { name, path: undefined, skip: true, note: ` (skipped: ${name} is not installed; ${install})` };
}

/** The binary's path, or an error naming the package (in CI, where a missing binary fails the file). */
export function requireBinary(binary: Binary): string {
  if (binary.path) return binary.path;
  throw new Error(`${binary.name} is not installed: apt-get update && apt-get install -y ${binary.name}`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => done(true));
  });
}

/** A daemon started by {@link startDaemon}. */
export interface Daemon {
  readonly dir: string;
  readonly process: ChildProcess;
  /** What the process wrote on stdout and stderr so far. */
  output(): string;
  /** A file of its temporary directory, as text ('' while it does not exist). */
  read(file: string): string;
  /** SIGTERM, SIGKILL after 3 s; then the temporary directory is removed. Safe to call twice. */
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Starts `path args…` in the foreground with a fresh temporary directory (`write` puts its configuration there
 * first) and waits until every port in `ports` accepts connections (10 s at most, and not past the process's
 * exit: then its output is in the error).
 */
export async function startDaemon(options: {
  label: string;
  path: string;
  args: (dir: string) => string[];
  write: (dir: string) => void;
  ports: number[];
}): Promise<Daemon> {
  const dir = mkdtempSync(join(tmpdir(), `futures-sdk-${options.label}-`));
  options.write(dir);
  const child = spawn(options.path, options.args(dir), { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  let spawnError: Error | undefined;
  child.on('error', (error) => {
    spawnError = error;
  });
  const read = (file: string): string => {
    try {
      return readFileSync(join(dir, file), 'utf8');
    } catch {
      return '';
    }
  };
  let stopped = false;
  const daemon: Daemon = {
    dir,
    process: child,
    output: () => output,
    read,
    async stop() {
      if (stopped) return;
      stopped = true;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited(child);
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (spawnError || child.exitCode !== null || child.signalCode !== null) {
      await daemon.stop();
      throw new Error(
        `${options.label} exited before listening (${spawnError?.message ?? `code ${child.exitCode}`}): ${output}`,
      );
    }
    const up = await Promise.all(options.ports.map(accepts));
    if (up.every(Boolean)) return daemon;
    if (Date.now() > deadline) {
      await daemon.stop();
      throw new Error(`${options.label} did not listen on ${options.ports.join(', ')} within 10 s: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
