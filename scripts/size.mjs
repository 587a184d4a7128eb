// Bundle-size check: what a browser app pays for futures-sdk, minified + gzipped, with its runtime dependencies.
// Fails when a budget is exceeded. Run after `npm run build`:  node scripts/size.mjs
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url).pathname;
const cases = [
  // Budgets are regression guards set a little above the measured size (docs/architecture.md, "Bundle size").
  { name: 'FuturesClient', code: "export { FuturesClient } from 'futures-sdk';", budgetKb: 67 },
  { name: 'everything in futures-sdk', code: "export * from 'futures-sdk';", budgetKb: 69 },
  // The decimal helpers alone: ~1.0 KB of their own plus the FuturesError/RequestValidationError classes they throw.
  { name: 'decimal', code: "export { decimal } from 'futures-sdk';", budgetKb: 2.3 },
];

let failed = 0;
for (const { name, code, budgetKb } of cases) {
  const result = await build({
    stdin: { contents: code, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    alias: { 'futures-sdk': `${root}dist/index.js` },
    logLevel: 'error',
  });
  const bytes = result.outputFiles[0].contents;
  const gzKb = gzipSync(bytes, { level: 9 }).length / 1024;
  const ok = gzKb <= budgetKb;
  if (!ok) failed++;
  console.log(
    `${ok ? 'ok  ' : 'FAIL'} ${name}: ${(bytes.length / 1024).toFixed(1)} KB min, ${gzKb.toFixed(1)} KB gzip (budget ${budgetKb} KB)`,
  );
}
process.exit(failed ? 1 : 0);
