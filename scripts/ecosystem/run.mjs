// Ecosystem matrix: the packed tarball installed in a scratch project, as users get it, and exercised in every
// runtime and bundler we support — Node 22.12 and 24, Bun, Deno, workerd; Vite, webpack 5, Rollup and esbuild
// for the browser (the client, and the simulator behind MSW's worker); TypeScript 5.9, 6 and 7 consumers under
// every module resolution with skipLibCheck off. Every tool comes from the npm registry.
//
//   npm run test:ecosystem                  # prints the matrix; exits 1 if any cell fails
//   npm run test:ecosystem -- --write-docs  # also rewrites docs/runtimes.md from the results
//   npm run test:ecosystem -- --only=deno,vite   # a subset (names as printed in the first column)
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const execFileAsync = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
const fixtures = new URL('./fixtures/', import.meta.url).pathname;
const args = process.argv.slice(2);
const writeDocs = args.includes('--write-docs');
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const keep = args.includes('--keep');

/** Where the simulator's MSW handlers come from (see docs/testing.md). */
const MSW = { entry: 'futures-sdk/testing/msw', import: 'handlers', handlers: 'handlers(ex)' };

const TOOLS = {
  'node-22': 'node@22.12.0',
  msw: 'msw@^3.0.5',
  ws: 'ws@^8.18.0',
  bun: 'bun@^1.4.0',
  deno: 'deno@^2.9.0',
  workerd: 'workerd@^1.20261117.1',
  vite: 'vite@^8.3.0',
  webpack: 'webpack@^5.112.0',
  rollup: 'rollup@^4.68.0',
  '@rollup/plugin-node-resolve': '@rollup/plugin-node-resolve@^16.0.0',
  '@rollup/plugin-commonjs': '@rollup/plugin-commonjs@^28.0.0',
  esbuild: 'esbuild@^0.28.0',
  ts59: 'ts59@npm:typescript@~5.9.0',
  ts6: 'ts6@npm:typescript@~6.0.0',
  ts7: 'ts7@npm:typescript@~7.0.0',
  '@types/node': '@types/node@^24.0.0',
};

const dir = mkdtempSync(join(tmpdir(), 'futures-sdk-ecosystem-'));
const bin = (name) => join(dir, 'node_modules/.bin', name);
const results = [];

function log(line) {
  process.stdout.write(`${line}\n`);
}

async function run(cmd, argv, { cwd = dir, timeoutMs = 120_000, env } = {}) {
  const { stdout, stderr } = await execFileAsync(cmd, argv, {
    cwd,
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: 32 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  return `${stdout}${stderr}`;
}

async function cell(group, name, fn) {
  if (only && !only.includes(name) && !only.includes(group)) return;
  const started = Date.now();
  try {
    const detail = (await fn()) ?? '';
    results.push({ group, name, ok: true, detail, ms: Date.now() - started });
    log(`ok   ${group} / ${name}${detail ? ` — ${detail}` : ''} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (err) {
    const text = String(err?.stdout ?? '') + String(err?.stderr ?? '') || String(err?.message ?? err);
    const detail = text.trim().split('\n').slice(-12).join('\n');
    results.push({ group, name, ok: false, detail: detail.split('\n').at(-1) ?? '', ms: Date.now() - started });
    log(`FAIL ${group} / ${name}\n${detail.replace(/^/gm, '     ')}`);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function sizeOf(files) {
  let raw = 0;
  let gz = 0;
  for (const file of files) {
    const bytes = readFileSync(file);
    raw += bytes.length;
    gz += gzipSync(bytes, { level: 9 }).length;
  }
  return `${(raw / 1024).toFixed(1)} KB, ${(gz / 1024).toFixed(1)} KB gzip`;
}

function jsFiles(folder) {
  const out = [];
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.m?js$/.test(entry.name)) out.push(join(entry.parentPath, entry.name));
  }
  return out;
}

function assertNoNodeBuiltins(files) {
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const hit = text.match(/(?:from|import\(|require\()\s*["'](?:node:[a-z_/]+|http|https|net|fs|crypto)["']/);
    if (hit) throw new Error(`${file} imports a Node built-in: ${hit[0]}`);
  }
}

// ── Setup ───────────────────────────────────────────────────────────────────────────────────────────────────

async function setup() {
  const tarball = process.env.FUTURES_SDK_TARBALL;
  if (tarball) copyFileSync(tarball, join(dir, 'futures-sdk.tgz'));
  else {
    const out = await run('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: root });
    // The tarball's name is the line npm prints for it; prepack's build may print warnings around it.
    const name = out
      .trim()
      .split('\n')
      .findLast((line) => /^futures-sdk-.*\.tgz$/.test(line.trim()))
      ?.trim();
    if (!name) throw new Error(`npm pack printed no tarball name:\n${out}`);
    copyFileSync(join(dir, name), join(dir, 'futures-sdk.tgz'));
  }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`);
  const started = Date.now();
  await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', './futures-sdk.tgz', ...Object.values(TOOLS)],
    { timeoutMs: 600_000 },
  );
  log(`installed the tarball and ${Object.keys(TOOLS).length} tools in ${((Date.now() - started) / 1000).toFixed(0)} s (${dir})`);
  for (const file of readdirSync(fixtures)) {
    if (file.endsWith('.mjs') || file.endsWith('.cjs') || file.endsWith('.js')) copyFileSync(join(fixtures, file), join(dir, file));
  }
  const msw = readFileSync(join(dir, 'browser-msw.js'), 'utf8')
    .replace('__MSW_IMPORT__', MSW.import)
    .replace('__MSW_ENTRY__', MSW.entry)
    .replace('...__MSW_HANDLERS__', `...${MSW.handlers}`);
  writeFileSync(join(dir, 'browser-msw.js'), msw);
}

// ── Runtimes ────────────────────────────────────────────────────────────────────────────────────────────────

async function runtimes() {
  for (const [name, node] of [
    ['node-22.12', bin('node')],
    ['node-24', process.execPath],
  ]) {
    await cell('runtime', name, async () => {
      const version = (await run(node, ['--version'])).trim();
      await run(node, ['smoke.mjs'], { timeoutMs: 60_000 });
      await run(node, ['smoke.cjs'], { timeoutMs: 60_000 });
      return `${version}: import and require`;
    });
  }
  await cell('runtime', 'bun', async () => {
    const version = (await run(bin('bun'), ['--version'])).trim();
    await run(bin('bun'), ['smoke.mjs'], { timeoutMs: 60_000 });
    return `bun ${version}`;
  });
  await cell('runtime', 'deno', async () => {
    const version = (await run(bin('deno'), ['--version'])).split('\n')[0].trim();
    // The timeout is the check that the process exits by itself (nothing keeps it alive after the script).
    await run(bin('deno'), ['run', '--allow-read', '--allow-env', '--no-prompt', 'smoke.mjs'], {
      timeoutMs: 60_000,
      env: { DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(dir, '.deno') },
    });
    return `${version}; exits by itself`;
  });
  await cell('runtime', 'workerd', async () => {
    const { build } = await import(join(dir, 'node_modules/esbuild/lib/main.js'));
    await build({
      entryPoints: [join(dir, 'worker.mjs')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      conditions: ['workerd', 'worker', 'browser'],
      outfile: join(dir, 'worker-dist/worker.js'),
      logLevel: 'error',
      nodePaths: [join(dir, 'node_modules')],
    });
    assertNoNodeBuiltins([join(dir, 'worker-dist/worker.js')]);
    const port = await freePort();
    writeFileSync(
      join(dir, 'worker-dist/config.capnp'),
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2025-09-01",
);
`,
    );
    const child = spawn(bin('workerd'), ['serve', 'config.capnp'], { cwd: join(dir, 'worker-dist'), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    try {
      const deadline = Date.now() + 30_000;
      for (;;) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(10_000) });
          const body = await res.json();
          if (!body.ok) throw Object.assign(new Error(`worker answered ${JSON.stringify(body)}`), { final: true });
          break;
        } catch (err) {
          if (err.final || Date.now() > deadline) throw new Error(`${err.message}\n${output}`);
          await new Promise((r) => setTimeout(r, 250));
        }
      }
    } finally {
      child.kill('SIGKILL');
    }
    const version = (await run(bin('workerd'), ['--version'])).trim();
    return `${version}, no nodejs_compat`;
  });
}

// ── Browser bundlers ────────────────────────────────────────────────────────────────────────────────────────

const ENTRIES = { client: 'browser-client.js', msw: 'browser-msw.js' };

async function bundlers() {
  for (const [kind, entry] of Object.entries(ENTRIES)) {
    await cell('bundler', `esbuild-${kind}`, async () => {
      const out = join(dir, `out-esbuild-${kind}`);
      await run(bin('esbuild'), [entry, '--bundle', '--minify', '--platform=browser', '--format=esm', `--outdir=${out}`, '--log-level=error']);
      assertNoNodeBuiltins(jsFiles(out));
      return sizeOf(jsFiles(out));
    });
    await cell('bundler', `vite-${kind}`, async () => {
      const project = join(dir, `vite-${kind}`);
      mkdirSync(project, { recursive: true });
      copyFileSync(join(dir, entry), join(project, 'main.js'));
      writeFileSync(join(project, 'index.html'), '<!doctype html><script type="module" src="./main.js"></script>\n');
      const text = await run(bin('vite'), ['build', '--logLevel', 'warn', '--outDir', 'dist'], { cwd: project });
      if (/externalized for browser compatibility|\[plugin vite:resolve\]/.test(text)) throw new Error(text);
      const files = jsFiles(join(project, 'dist'));
      assertNoNodeBuiltins(files);
      return sizeOf(files);
    });
    await cell('bundler', `webpack-${kind}`, async () => {
      const out = join(dir, `out-webpack-${kind}`);
      writeFileSync(
        join(dir, `webpack-${kind}.config.cjs`),
        `module.exports = { mode: 'production', target: 'web', entry: './${entry}', output: { path: ${JSON.stringify(out)}, filename: 'main.js' }, performance: { hints: false } };\n`,
      );
      const script = `
        const webpack = require('webpack');
        webpack(require('./webpack-${kind}.config.cjs'), (err, stats) => {
          if (err) { console.error(err); process.exit(1); }
          if (stats.hasErrors() || stats.hasWarnings()) { console.error(stats.toString('errors-warnings')); process.exit(1); }
        });`;
      writeFileSync(join(dir, `webpack-${kind}.cjs`), script);
      await run(process.execPath, [`webpack-${kind}.cjs`]);
      const files = jsFiles(out);
      assertNoNodeBuiltins(files);
      return sizeOf(files);
    });
    await cell('bundler', `rollup-${kind}`, async () => {
      const out = join(dir, `out-rollup-${kind}`);
      // The client must build with node-resolve alone; msw's own dependencies include CommonJS modules, so the
      // MSW setup also gets the commonjs plugin, as msw documents for Rollup users.
      const plugins =
        kind === 'client'
          ? "[resolve({ browser: true })]"
          : "[resolve({ browser: true }), commonjs()]";
      writeFileSync(
        join(dir, `rollup-${kind}.config.mjs`),
        `import resolve from '@rollup/plugin-node-resolve';
import commonjs from '@rollup/plugin-commonjs';
export default {
  input: './${entry}',
  output: { dir: ${JSON.stringify(out)}, format: 'es' },
  plugins: ${plugins},
  // Only what would break the bundle at run time fails the cell (zod's misplaced /*#__PURE__*/ notes do not).
  onwarn(warning, warn) { if (['UNRESOLVED_IMPORT', 'MISSING_EXPORT'].includes(warning.code)) throw new Error(warning.message); warn(warning); },
};
`,
      );
      await run(bin('rollup'), ['-c', `rollup-${kind}.config.mjs`, '--silent']);
      const files = jsFiles(out);
      assertNoNodeBuiltins(files);
      return `${sizeOf(files)} (not minified)`;
    });
  }
}

// ── TypeScript consumers ────────────────────────────────────────────────────────────────────────────────────

const RESOLUTIONS = {
  node10: { type: 'commonjs', compilerOptions: { module: 'commonjs', moduleResolution: 'node10' } },
  'node16-esm': { type: 'module', compilerOptions: { module: 'node16', moduleResolution: 'node16' } },
  'node16-cjs': { type: 'commonjs', compilerOptions: { module: 'node16', moduleResolution: 'node16' } },
  nodenext: { type: 'module', compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' } },
  bundler: { type: 'module', compilerOptions: { module: 'esnext', moduleResolution: 'bundler' } },
};

async function typescript() {
  for (const ts of ['ts59', 'ts6', 'ts7']) {
    await cell('typescript', ts, async () => {
      const tsc = join(dir, 'node_modules', ts, 'bin', 'tsc');
      const version = (await run(process.execPath, [tsc, '--version'])).trim();
      const failures = [];
      const modes = Object.entries(RESOLUTIONS).filter(([mode]) => mode !== 'node10' || ts !== 'ts7');
      for (const [mode, { type, compilerOptions }] of modes) {
        const project = join(dir, `${ts}-${mode}`);
        mkdirSync(project, { recursive: true });
        writeFileSync(join(project, 'package.json'), JSON.stringify({ name: `c-${mode}`, private: true, type }));
        copyFileSync(join(fixtures, 'ts/consumer.ts'), join(project, 'consumer.ts'));
        const tsconfig = {
          compilerOptions: {
            ...compilerOptions,
            // node10 is deprecated in TypeScript 6 and removed in 7 (so 7 is not run with it).
            ...(mode === 'node10' && ts === 'ts6' ? { ignoreDeprecations: '6.0' } : {}),
            esModuleInterop: true,
            target: 'es2022',
            lib: ['es2023', 'dom', 'dom.iterable'],
            types: ['node'],
            typeRoots: [join(dir, 'node_modules/@types')],
            strict: true,
            exactOptionalPropertyTypes: true,
            skipLibCheck: false,
            noEmit: true,
          },
          files: ['consumer.ts'],
        };
        writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
        try {
          await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project });
        } catch (err) {
          failures.push(`${mode}: ${String(err.stdout ?? err.message).trim().split('\n').slice(0, 6).join(' | ')}`);
        }
      }
      if (failures.length) throw new Error(`${version}\n${failures.join('\n')}`);
      return `${version}: ${modes.map(([mode]) => mode).join(', ')}`;
    });
  }
}

// ── Report ──────────────────────────────────────────────────────────────────────────────────────────────────

function writeRuntimesDoc() {
  const row = (r) => `| ${r.group} | ${r.name} | ${r.ok ? 'works' : '**fails**'} | ${r.detail.replace(/\|/g, '\\|')} |`;
  const text = `# Supported runtimes and bundlers

Generated by \`npm run test:ecosystem -- --write-docs\` (scripts/ecosystem/run.mjs), which CI runs on every
change: the packed tarball is installed in a scratch project and exercised in each runtime, built with each
bundler for the browser (the client, and the simulator behind MSW's service worker), and type-checked by
each TypeScript version under node10, node16 (ESM and CommonJS), nodenext and bundler resolution with
\`skipLibCheck: false\`. Sizes are of the built output (gzip -9).

| kind | where | status | detail |
|---|---|---|---|
${results.map(row).join('\n')}

Node-only parts: \`futures-sdk/redis\` and the simulator's loopback server (\`futures-sdk/testing/server\`).
Everything else uses only web-platform APIs (fetch, WebSocket, AbortSignal, TextEncoder) and needs no polyfill.
`;
  writeFileSync(join(root, 'docs/runtimes.md'), text);
  log('wrote docs/runtimes.md');
}

try {
  await setup();
  await runtimes();
  await bundlers();
  await typescript();
} catch (err) {
  results.push({ group: 'setup', name: 'setup', ok: false, detail: String(err?.message ?? err) });
  log(`FAIL setup: ${err?.stack ?? err}`);
} finally {
  if (!keep) rmSync(dir, { recursive: true, force: true });
}
const failed = results.filter((r) => !r.ok).length;
if (writeDocs && !only) writeRuntimesDoc();
log(`ecosystem: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
