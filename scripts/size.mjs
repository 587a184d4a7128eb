// Bundle-size check: what a browser app pays for futures-sdk (with its runtime dependencies), minified and gzipped
// (-9), bundled by esbuild and by Vite from the packed tarball (`npm pack`, installed as a consumer installs it:
// its `files`, `exports` and `sideEffects` apply). Fails when a budget is exceeded.
// Run after `npm run build`:  node scripts/size.mjs
// `bench/index.ts` imports `measureSizes` to print the same figures beside the speed ones.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('../', import.meta.url));

/**
 * Budgets are the issue 19 goals (each met is kept as the budget; one not met would be the measured size + ~3 % as a
 * regression guard, with docs/benchmarks.md saying what stands between it and its goal).
 */
export const SIZE_CASES = [
  {
    name: 'whole FuturesClient',
    code: "import { FuturesClient } from 'futures-sdk';\nexport const client = new FuturesClient({ baseUrl: 'https://api.example.com' });\n",
    goalKb: 42,
    budgetKb: 42,
  },
  {
    name: 'market page (createPublicClient + ticker24hr, klines)',
    code:
      "import { createPublicClient } from 'futures-sdk';\nimport { klines, ticker24hr } from 'futures-sdk/market';\n" +
      "const client = createPublicClient({ baseUrl: 'https://api.example.com' });\n" +
      "export const tickers = () => ticker24hr(client, { symbol: 'BTCUSDT' });\n" +
      "export const candles = () => klines(client, { symbol: 'BTCUSDT', interval: '1m' });\n",
    goalKb: 22,
    budgetKb: 22,
    // What zod/mini alone costs for the same two response shapes, before any SDK code.
    floor: {
      label: 'zod/mini with the two market schemas alone',
      code:
        "import * as z from 'zod/mini';\n" +
        'const ticker = z.looseObject({ ok: z.literal(true), tickers: z.array(z.looseObject({ symbol: z.string() })) });\n' +
        'const candles = z.looseObject({ ok: z.literal(true), data: z.array(z.tuple([z.number(), z.string()])) });\n' +
        'export const tickers = async (url) => ticker.parse(await (await fetch(url)).json());\n' +
        'export const klines = async (url) => candles.parse(await (await fetch(url)).json());\n',
    },
  },
  {
    name: 'market page with a feed (createPublicClient + createMarketFeed)',
    code:
      "import { createPublicClient } from 'futures-sdk';\nimport { createMarketFeed } from 'futures-sdk/market';\n" +
      "const feed = createMarketFeed(createPublicClient({ baseUrl: 'https://api.example.com' }));\n" +
      "export const watch = (show) => [feed.ticker('BTCUSDT', show), feed.klines('BTCUSDT', '1m', show)];\n",
    goalKb: 24,
    budgetKb: 24,
  },
  {
    name: 'trading page (createBaseClient + create, cancel)',
    code:
      "import { createBaseClient } from 'futures-sdk';\nimport { cancel, create } from 'futures-sdk/orders';\n" +
      "const client = createBaseClient({ baseUrl: 'https://api.example.com', apiKey: 'k', signer: async (p) => p });\n" +
      "export const buy = () => create(client, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });\n" +
      "export const undo = (id) => cancel(client, id);\n",
    goalKb: 30,
    budgetKb: 30,
  },
  {
    name: 'decimal helpers only',
    code: "import { decimal } from 'futures-sdk';\nexport const sum = decimal.add('0.1', '0.2');\n",
    goalKb: 1.5,
    budgetKb: 1.5,
  },
  {
    name: 'canonicalQuery + hmacSha256Hex only',
    code:
      "import { canonicalQuery, hmacSha256Hex } from 'futures-sdk';\n" +
      "export const sign = (secret, params) => hmacSha256Hex(secret, canonicalQuery(params));\n",
    goalKb: 4,
    budgetKb: 4,
  },
];

const gzipKb = (bytes) => gzipSync(bytes, { level: 9 }).length / 1024;

async function withEsbuild(code, consumer) {
  const { build } = await import('esbuild');
  const result = await build({
    stdin: { contents: code, resolveDir: consumer, loader: 'js' },
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // Resolve `futures-sdk` from the installed tarball, not through tsconfig's paths to src/.
    tsconfigRaw: '{}',
    logLevel: 'error',
  });
  const bytes = result.outputFiles[0].contents;
  return { minKb: bytes.length / 1024, gzipKb: gzipKb(bytes) };
}

async function withVite(code, consumer) {
  const { build } = await import('vite');
  const dir = mkdtempSync(join(consumer, 'vite-'));
  const entry = join(dir, 'main.js');
  writeFileSync(entry, code);
  const output = await build({
    configFile: false,
    root: dir,
    logLevel: 'silent',
    build: {
      write: false,
      minify: true,
      target: 'es2022',
      modulePreload: false,
      rollupOptions: { input: entry, preserveEntrySignatures: 'exports-only' },
    },
  });
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((o) => o.output);
  const bytes = Buffer.concat(
    chunks.filter((c) => c.type === 'chunk').map((c) => Buffer.from(c.code)),
  );
  return { minKb: bytes.length / 1024, gzipKb: gzipKb(bytes) };
}

/**
 * A consumer folder holding the packed tarball as `node_modules/futures-sdk`. It sits inside the repository's
 * node_modules so that the package's own dependencies (zod, @noble/hashes, eventemitter3) resolve as installed.
 */
function installPackedTarball(scratch) {
  const [{ filename }] = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const consumer = join(scratch, 'consumer');
  const target = join(consumer, 'node_modules/futures-sdk');
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', join(scratch, filename), '-C', target, '--strip-components=1']);
  return consumer;
}

/** Bundles every case with esbuild and Vite from the packed tarball; returns one row per case and bundler. */
export async function measureSizes() {
  const scratchRoot = join(root, 'node_modules/.cache');
  mkdirSync(scratchRoot, { recursive: true });
  const scratch = mkdtempSync(join(scratchRoot, 'size-'));
  try {
    const consumer = installPackedTarball(scratch);
    const rows = [];
    for (const c of SIZE_CASES) {
      const floorKb = c.floor ? (await withEsbuild(c.floor.code, consumer)).gzipKb : undefined;
      rows.push({ ...c, bundler: 'esbuild', floorKb, ...(await withEsbuild(c.code, consumer)) });
      rows.push({ ...c, bundler: 'vite', ...(await withVite(c.code, consumer)) });
    }
    return rows;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let failed = 0;
  for (const row of await measureSizes()) {
    const ok = row.gzipKb <= row.budgetKb;
    if (!ok) failed++;
    const goal = row.gzipKb <= row.goalKb ? 'goal met' : `goal ${row.goalKb} KB not met`;
    console.log(
      `${ok ? 'ok  ' : 'FAIL'} ${row.bundler.padEnd(7)} ${row.name}: ${row.minKb.toFixed(1)} KB min, ` +
        `${row.gzipKb.toFixed(1)} KB gzip (budget ${row.budgetKb} KB; ${goal})`,
    );
    if (row.floorKb !== undefined) console.log(`     ${' '.repeat(7)} ${row.floor.label}: ${row.floorKb.toFixed(1)} KB gzip`);
  }
  process.exit(failed ? 1 : 0);
}
