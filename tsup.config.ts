import { existsSync } from 'node:fs';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    ...(existsSync('src/testing/index.ts') ? { 'testing/index': 'src/testing/index.ts' } : {}),
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  treeshake: true,
  splitting: false,
  external: ['msw', 'ws', 'node:http', 'node:crypto', 'node:net'],
  // ESM only: split into chunks so that dist/index.js is nothing but re-exports. esbuild keeps every top-level
  // statement of a module it includes, so without this `import { decimal } from 'futures-sdk'` would pull in all
  // of index.js (zod schemas built at load). The hidden `_chunks/*` entries give the decimal helpers and the rest
  // of the SDK different sets of importers, which puts them in different chunks (docs/architecture.md).
  esbuildOptions(options, { format }) {
    if (format !== 'esm') return;
    options.splitting = true;
    options.chunkNames = '_chunks/[name]-[hash]';
    options.entryPoints = {
      ...(options.entryPoints as Record<string, string>),
      '_chunks/sdk': 'src/index.ts',
      '_chunks/decimal': 'src/helpers/decimal.ts',
    };
  },
});
