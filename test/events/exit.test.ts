/**
 * The strongest proof that close()/stop() leave nothing behind: a separate Node process that used a stream or a
 * watcher with real timers (long heartbeat, long backoff, pinging, polling) must exit on its own once they are
 * closed. A leaked timer or socket would keep it alive for a minute; the test gives it a few seconds.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startWsServer, type WsRig } from './helpers.ts';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

let rig: WsRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** Runs `code` (TypeScript) in a fresh Node process; resolves with its exit code (null if killed) and output. */
async function runScript(code: string, args: string[] = [], limitMs = 8_000) {
  const dir = mkdtempSync(join(tmpdir(), 'events-exit-'));
  const script = join(dir, 'script.ts');
  writeFileSync(script, code);
  try {
    // transform-types: the SDK's sources use parameter properties, which plain type stripping refuses.
    const child = spawn(process.execPath, ['--experimental-transform-types', '--no-warnings', script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: process.cwd(),
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      output += String(chunk);
    });
    const startedAt = Date.now();
    const code_ = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill();
        resolve(null);
      }, limitMs);
      child.once('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    return { code: code_, output, ms: Date.now() - startedAt };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('process lifetime', () => {
  it('a process exits on its own after stream.close(), whatever state each stream was in', async () => {
    rig = await startWsServer({
      onConnection: ({ socket, url }) => {
        if (url.searchParams.has('drop')) socket.close(1011, 'overloaded');
        else socket.send('{"event":"order_new","data":{"id":"o1"}}');
      },
    });
    const result = await runScript(
      `import { AccountStream } from ${JSON.stringify(join(SRC, 'events/stream.ts'))};
const url = process.argv[2];
const once = (stream, event, accept = () => true) =>
  new Promise((resolve) => stream.on(event, (...args) => accept(...args) && resolve(args)));

// Open, pinging every second, watchdog armed for a minute (default globalThis.WebSocket).
const live = new AccountStream({ url, token: 'jwt', pingIntervalMs: 1_000, heartbeatTimeoutMs: 60_000 });
await once(live, 'order_new');

// Dropped by the server, waiting a minute to reconnect; the token provider is async.
const waiting = new AccountStream({
  url: url + '?drop=1',
  token: async () => 'jwt',
  reconnect: { baseDelayMs: 60_000, maxDelayMs: 60_000 },
});
await once(waiting, 'reconnecting');

// Closed from inside its own 'reconnecting' listener (the reconnect timer must not survive that).
const selfClosing = new AccountStream({ url: url + '?drop=1', token: 'jwt', reconnect: { baseDelayMs: 60_000 } });
selfClosing.on('reconnecting', () => void selfClosing.close());
await once(selfClosing, 'close', (info) => info.willReconnect === false);

// Closed before it ever connected.
const never = new AccountStream({ url, token: 'jwt' });

await Promise.all([live.close(), waiting.close(), never.close()]);
console.log('closed', live.state, waiting.state, selfClosing.state, never.state);
`,
      [rig.url],
    );
    expect(result.output).toContain('closed closed closed closed closed');
    expect(result.code).toBe(0);
  });

  it('a process exits on its own after watcher.stop(), even with a poll in flight', async () => {
    const result = await runScript(
      `import { FuturesClient } from ${JSON.stringify(join(SRC, 'client.ts'))};
import { createExchange } from ${JSON.stringify(join(SRC, 'testing/index.ts'))};
const ex = createExchange({ seed: 1, volatility: 0 });
const { accountId } = ex.createAccount({ balances: { USDT: '100000' } });
const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
const client = new FuturesClient({ baseUrl: ex.baseUrl, apiKey, apiSecret, fetch: ex.fetch });

// Polling every 50 ms; stopped after three polls.
const polling = client.watch({ symbols: ['BTCUSDT'], intervalMs: 50 });
let polls = 0;
await new Promise((resolve) => polling.on('poll', () => ++polls === 3 && resolve()));

// Stopped while its first poll hangs on a slow server (60 s): stop() must abort it.
ex.faults.add({ path: '/v2/positions', delayMs: 60_000 });
const stuck = client.watch({ intervalMs: 60_000 });
await new Promise((resolve) => setTimeout(resolve, 100));

// Backing off after errors (the next poll would be minutes away).
ex.faults.add({ path: '/v2/positions', status: 503, times: 10 });
const failing = new FuturesClient({ baseUrl: ex.baseUrl, apiKey, apiSecret, fetch: ex.fetch, retry: false })
  .watch({ intervalMs: 60_000 });
await new Promise((resolve) => failing.once('error', resolve));

polling.stop();
stuck.stop();
failing.stop();
console.log('stopped', polls, polling.isRunning, stuck.isRunning, failing.isRunning);
`,
    );
    expect(result.output).toMatch(/stopped \d+ false false false/);
    expect(result.code).toBe(0);
  });
});
