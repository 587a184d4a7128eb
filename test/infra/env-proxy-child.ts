/**
 * A client in its own Node process, for the environment-proxy tests: the parent sets `NODE_USE_ENV_PROXY=1`,
 * `HTTP_PROXY`/`HTTPS_PROXY`/`NO_PROXY` and `NODE_EXTRA_CA_CERTS`, which Node reads only at start-up. The client
 * uses the global `fetch` (no `fetch`, no `fetchOptions`). Run by `runEnvProxyChild` (below), it prints one JSON
 * line: `{ results: [...] }`, one per call, each `{ ok: true }` or `{ ok: false, name, neverSent, outcomeUnknown,
 * code, message }`.
 *
 * Erasable TypeScript only: the child runs it with Node's type stripping.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface ChildRequest {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** What to call, in order: `balance` (a read), `create` (a resting LIMIT buy), `cancel:<id>`. */
  calls: string[];
  retry?: { limit: number; baseDelayMs?: number; maxDelayMs?: number } | false;
}

export type ChildResult =
  | { ok: true }
  | { ok: false; name: string; neverSent?: boolean; outcomeUnknown?: boolean; code?: string; message: string };

const SELF = fileURLToPath(import.meta.url);
const REPO_NODE = fileURLToPath(new URL('../../node_modules/.bin/node', import.meta.url));

/** Runs this file in a fresh Node (the repository's Node 24 when installed) with exactly `env` for proxies. */
export function runEnvProxyChild(
  request: ChildRequest,
  env: Record<string, string>,
  timeoutMs = 15_000,
): Promise<ChildResult[]> {
  const inherited = { ...process.env };
  // Nothing inherited may decide the route: only what the test sets.
  for (const name of Object.keys(inherited)) {
    if (/^(https?_proxy|no_proxy|all_proxy|node_use_env_proxy|node_extra_ca_certs|node_options)$/i.test(name)) {
      delete inherited[name];
    }
  }
  const node = existsSync(REPO_NODE) ? REPO_NODE : process.execPath;
  const child = spawn(node, ['--no-warnings', SELF, JSON.stringify(request)], {
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const line = stdout.split('\n').find((l) => l.startsWith('{"results"'));
      if (code === 0 && line) resolve((JSON.parse(line) as { results: ChildResult[] }).results);
      else reject(new Error(`env-proxy child exited (${signal ?? code}): ${stdout}${stderr}`));
    });
  });
}

// ── The child's side ────────────────────────────────────────────────────────────────────────────────────────

async function main(request: ChildRequest): Promise<void> {
  const { FuturesClient } = await import('../../src/index.ts');
  const client = new FuturesClient({
    baseUrl: request.baseUrl,
    apiKey: request.apiKey,
    apiSecret: request.apiSecret,
    timeoutMs: 10_000,
    ...(request.retry === undefined ? {} : { retry: request.retry }),
  });
  const results: ChildResult[] = [];
  for (const call of request.calls) {
    try {
      if (call === 'balance') await client.account.balance();
      else if (call === 'create') {
        await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '50000' });
      } else if (call.startsWith('cancel:')) await client.orders.cancel(call.slice('cancel:'.length));
      else throw new Error(`unknown call ${call}`);
      results.push({ ok: true });
    } catch (error) {
      const e = error as { name?: string; neverSent?: boolean; outcomeUnknown?: boolean; code?: string };
      results.push({
        ok: false,
        name: e.name ?? 'Error',
        ...(e.neverSent === undefined ? {} : { neverSent: e.neverSent }),
        ...(e.outcomeUnknown === undefined ? {} : { outcomeUnknown: e.outcomeUnknown }),
        ...(e.code === undefined ? {} : { code: e.code }),
        message: String(error),
      });
    }
  }
  process.stdout.write(`${JSON.stringify({ results })}\n`);
}

if (process.argv[1] === SELF && process.argv[2]) {
  main(JSON.parse(process.argv[2]) as ChildRequest).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    },
  );
}
