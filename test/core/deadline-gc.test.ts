/**
 * Every attempt settles within its deadline, headers AND body, also when a garbage collection runs while the
 * body is stalled. Node's fetch links a Request's signal to the caller's controller weakly: after a GC an abort
 * no longer reaches a pending body read, so a call that relied on abort propagation stayed pending for good (30
 * of 30 such calls in the issue). The SDK must end the wait itself.
 *
 * The client runs in a child Node process started with `--expose-gc`, which calls `gc()` every 15 ms while its
 * calls wait on a server (in this process) that sends 200, the headers and half a JSON body, then stalls forever.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const SDK_ENTRY = fileURLToPath(new URL('../../src/index.ts', import.meta.url));
const DEADLINE_MS = 500;
/** A call still pending after this is reported as hung (a settled call takes about DEADLINE_MS). */
const HUNG_MS = 5_000;

interface StallServer {
  url: string;
  /** Requests that got their headers and half a body, then nothing. */
  stalled: string[];
  close(): Promise<void>;
}

async function startStallServer(): Promise<StallServer> {
  const stalled: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"ok":true,"order":{"id":"ord-1","sym');
      stalled.push(`${req.method} ${(req.url ?? '').split('?')[0]}`);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stalled,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The client side, run in the child. Prints one JSON line: every call's outcome. */
const CHILD = `
const [entry, baseUrl, trialsArg, batchArg, deadlineArg, hungArg] = process.argv.slice(2);
const { FuturesClient } = await import(entry);
const trials = Number(trialsArg);
const batch = Number(batchArg);
const deadlineMs = Number(deadlineArg);
const hungMs = Number(hungArg);
if (typeof globalThis.gc !== 'function') throw new Error('needs --expose-gc');
const collector = setInterval(() => globalThis.gc(), 15);

const client = new FuturesClient({
  baseUrl, apiKey: 'gc-test-key-0123456789', apiSecret: 'gc-test-secret-0123456789', retry: false, timeoutMs: 60_000,
});
const calls = {
  'orders.create': (options) =>
    client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '1000' }, options),
  'orders.cancel': (options) => client.orders.cancel('ord-1', {}, options),
  'account.balance': (options) => client.account.balance(undefined, options),
};
const results = [];
async function one(method, mode) {
  let options;
  if (mode === 'timeoutMs') options = { timeoutMs: deadlineMs };
  else {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), deadlineMs);
    options = { signal: controller.signal };
  }
  const started = performance.now();
  let watchdog;
  const hung = new Promise((resolve) => { watchdog = setTimeout(() => resolve({ hung: true }), hungMs); });
  const outcome = await Promise.race([
    calls[method](options).then(() => ({ resolved: true }), (error) => ({ error })),
    hung,
  ]);
  clearTimeout(watchdog);
  results.push({
    method,
    mode,
    settled: !outcome.hung,
    name: outcome.error ? outcome.error.name : outcome.resolved ? 'resolved' : 'pending',
    outcomeUnknown: outcome.error ? outcome.error.outcomeUnknown : undefined,
    ms: Math.round(performance.now() - started),
  });
}
for (let first = 0; first < trials; first += batch) {
  const round = [];
  for (let trial = first; trial < Math.min(trials, first + batch); trial++) {
    for (const method of Object.keys(calls)) round.push(one(method, 'timeoutMs'), one(method, 'signal'));
  }
  await Promise.all(round);
}
clearInterval(collector);
process.stdout.write(JSON.stringify(results) + '\\n');
process.exit(0);
`;

interface CallResult {
  method: string;
  mode: 'timeoutMs' | 'signal';
  settled: boolean;
  name: string;
  outcomeUnknown: boolean | undefined;
  ms: number;
}

async function runChild(baseUrl: string, trials: number, batch: number): Promise<CallResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'deadline-gc-'));
  const script = join(dir, 'client.mts');
  writeFileSync(script, CHILD);
  try {
    // transform-types: the SDK's sources use parameter properties, which plain type stripping refuses.
    const child = spawn(
      process.execPath,
      [
        '--expose-gc',
        '--experimental-transform-types',
        '--no-warnings',
        script,
        SDK_ENTRY,
        baseUrl,
        String(trials),
        String(batch),
        String(DEADLINE_MS),
        String(HUNG_MS),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const exitCode = await new Promise<number | null>((resolve) => {
      const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.once('exit', (code) => {
        clearTimeout(killer);
        resolve(code);
      });
    });
    if (exitCode !== 0) throw new Error(`child exited with ${exitCode}: ${stderr}`);
    return JSON.parse(stdout.trim()) as CallResult[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let server: StallServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a body that stalls after the headers, under forced garbage collection', () => {
  it('30 trials × create/cancel/balance × (timeoutMs 500 | a signal at 500 ms): every call settles with the right error', async () => {
    server = await startStallServer();
    const trials = 30;
    const results = await runChild(server.url, trials, 5);

    expect(results).toHaveLength(trials * 6);
    // Each call did reach the stall: headers and half a body arrived, the rest never came.
    expect(server.stalled).toHaveLength(trials * 6);

    const wrong = results.filter((r) => {
      const expectedName = r.mode === 'timeoutMs' ? 'TimeoutError' : 'AbortError';
      // A create or a cancel that reached the server may have been acted on; a read has no outcome to lose.
      const expectedUnknown = r.method !== 'account.balance';
      return !r.settled || r.name !== expectedName || r.outcomeUnknown !== expectedUnknown || r.ms > HUNG_MS;
    });
    expect(wrong).toEqual([]);
    // "Quickly": within the deadline plus scheduling slack, never a multiple of it.
    const slowest = Math.max(...results.map((r) => r.ms));
    expect(slowest).toBeLessThan(DEADLINE_MS * 4);
  }, 60_000);
});
