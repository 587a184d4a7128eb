// The built kit (dist/, from `npm run build`) as a user's project resolves it: copied into a scratch
// node_modules/futures-sdk with its runtime dependencies, first without the optional peers msw and ws, then with
// them. Skipped when dist/ has not been built (CI builds before it tests).
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const built = existsSync(join(root, 'dist/testing/index.js')) && existsSync(join(root, 'dist/testing/msw.js'));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

function link(dir: string, name: string): void {
  const target = join(dir, 'node_modules', name);
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(join(root, 'node_modules', name), target, 'dir');
}

/** A scratch project with the built package installed; `peers` adds msw and ws. */
function scratchProject(peers: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), `kit-${peers ? 'peers' : 'bare'}-`));
  writeFileSync(join(dir, 'package.json'), '{ "name": "scratch", "private": true, "type": "module" }\n');
  const installed = join(dir, 'node_modules/futures-sdk');
  mkdirSync(installed, { recursive: true });
  cpSync(join(root, 'package.json'), join(installed, 'package.json'));
  cpSync(join(root, 'dist'), join(installed, 'dist'), { recursive: true, filter: (src) => !src.endsWith('.map') });
  for (const name of Object.keys(pkg.dependencies)) link(dir, name);
  if (peers) for (const name of ['msw', 'ws']) link(dir, name);
  return dir;
}

/** Runs a script in `dir`; resolves with its output once the process exits by itself (rejects after 15 s). */
function run(dir: string, file: string, code: string): Promise<{ code: number | null; out: string }> {
  writeFileSync(join(dir, file), code);
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [file], { cwd: dir, timeout: 15_000 }, (error, stdout, stderr) => {
      if (error?.killed) reject(new Error(`did not exit by itself:\n${stdout}${stderr}`));
      else resolve({ code: child.exitCode, out: `${stdout}${stderr}` });
    });
  });
}

const coreScript = `
import { FuturesClient } from 'futures-sdk';
import { createExchange } from 'futures-sdk/testing';
const ex = createExchange({ seed: 1 });
const { accountId } = ex.createAccount({ balances: { USDT: '1000' } });
const client = new FuturesClient({ baseUrl: ex.baseUrl, ...ex.createApiKey(accountId), fetch: ex.fetch });
const { positions } = await client.account.positions();
console.log('core ok', positions.length);
`;

describe.skipIf(!built)('the built kit without its optional peers (msw, ws)', () => {
  let dir = '';
  beforeAll(() => {
    dir = scratchProject(false);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('futures-sdk/testing runs with no BroadcastChannel and no peers, and the process exits by itself', async () => {
    const result = await run(dir, 'core.mjs', `delete globalThis.BroadcastChannel;\n${coreScript}`);
    expect(result).toEqual({ code: 0, out: 'core ok 0\n' });
  });

  it('each missing peer is one sentence with the install command (ESM)', async () => {
    const result = await run(
      dir,
      'peers.mjs',
      `${coreScript}
const say = (error) => console.log(error.message);
try { ex.handlers(); } catch (error) { say(error); }
await import('futures-sdk/testing/msw').catch(say);
await ex.listen().catch(say);
`,
    );
    expect(result.code).toBe(0);
    expect(result.out.split('\n')).toEqual([
      'core ok 0',
      expect.stringContaining(
        "ex.handlers() needs the MSW adapter: import { handlers } from 'futures-sdk/testing/msw'",
      ),
      'futures-sdk/testing: futures-sdk/testing/msw needs the optional peer dependency "msw", which is not installed. Install it: npm install --save-dev msw',
      'futures-sdk/testing: listen() (the account WebSocket) needs the optional peer dependency "ws", which is not installed. Install it: npm install --save-dev ws',
      '',
    ]);
  });

  it('the same through require (CommonJS)', async () => {
    const result = await run(
      dir,
      'peers.cjs',
      `const { createExchange } = require('futures-sdk/testing');
const ex = createExchange({ seed: 1 });
ex.fetch(ex.baseUrl + '/health').then((r) => console.log('health', r.status));
try { require('futures-sdk/testing/msw'); } catch (error) { console.log(error.message); }
`,
    );
    expect(result).toEqual({
      code: 0,
      out:
        'futures-sdk/testing: futures-sdk/testing/msw needs the optional peer dependency "msw", which is not installed. Install it: npm install --save-dev msw\n' +
        'health 200\n',
    });
  });

  it('a browser bundle of the kit has no Node built-in and no msw, and its listen() rejects in one sentence', async () => {
    const result = await build({
      stdin: {
        contents: `import { createExchange } from 'futures-sdk/testing';
const ex = createExchange({ seed: 1 });
const health = await ex.fetch(ex.baseUrl + '/health');
const refused = await ex.listen().then(() => 'listening', (error) => error.message);
console.log(health.status, refused);`,
        resolveDir: dir,
        loader: 'js',
      },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.text ?? '';
    expect(code).not.toMatch(/["']node:|["']http["']|["']msw["']|["']ws["']|BroadcastChannel/);
    const ran = await run(dir, 'bundle.mjs', `delete globalThis.BroadcastChannel;\n${code}`);
    expect(ran.code).toBe(0);
    expect(ran.out).toContain('200 futures-sdk/testing: listen() starts a Node.js HTTP server');
  });
});

describe.skipIf(!built)('the built kit with msw and ws installed', () => {
  let dir = '';
  beforeAll(() => {
    dir = scratchProject(true);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('MSW handlers (ESM), ex.listen({ cors: true }), and the process exits by itself', async () => {
    const result = await run(
      dir,
      'with-peers.mjs',
      `import { createExchange } from 'futures-sdk/testing';
import { handlers } from 'futures-sdk/testing/msw';
import { setupServer } from 'msw/node';
const warnings = [];
process.on('warning', (w) => warnings.push(w.name));
const server = setupServer();
server.listen();
for (let i = 0; i < 20; i++) {
  const ex = createExchange({ seed: i });
  server.resetHandlers(...(i % 2 ? handlers(ex) : ex.handlers()));
  if ((await fetch(ex.baseUrl + '/health')).status !== 200) throw new Error('msw');
}
server.close();
const ex = createExchange({ seed: 1 });
const live = await ex.listen({ cors: true });
const preflight = await fetch(live.url + '/v2/orders', {
  method: 'OPTIONS',
  headers: { Origin: 'http://127.0.0.1:1', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-api-key,content-type' },
});
console.log('preflight', preflight.status, preflight.headers.get('access-control-allow-headers'));
await live.close();
console.log('warnings', warnings.length);
`,
    );
    expect(result).toEqual({ code: 0, out: 'preflight 204 x-api-key,content-type\nwarnings 0\n' });
  });

  it('MSW handlers through require (CommonJS, msw loaded with require(esm))', async () => {
    const result = await run(
      dir,
      'with-peers.cjs',
      `const { createExchange } = require('futures-sdk/testing');
const { handlers } = require('futures-sdk/testing/msw');
const ex = createExchange({ seed: 1 });
console.log(handlers(ex).length, ex.handlers().length);
`,
    );
    expect(result).toEqual({ code: 0, out: '2 2\n' });
  });
});
