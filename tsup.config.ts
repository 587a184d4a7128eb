import { existsSync } from 'node:fs';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';

/**
 * futures-sdk/redis takes its error classes from the main entry (`futures-sdk`, resolved by the package's
 * self-reference) instead of bundling copies: `err instanceof FleetUnavailableError` must hold for the class a
 * user imports from `futures-sdk`.
 */
const redisErrorsFromMainEntry: Plugin = {
  name: 'redis-errors-from-main-entry',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/errors\// }, (args) =>
      /[\\/]src[\\/]redis[\\/]/.test(args.importer) ? { path: 'futures-sdk', external: true } : undefined,
    );
  },
};

/**
 * The CommonJS build of `futures-sdk/testing/msw` loads msw with `require` (`load-msw.cjs.ts`): the ESM build's
 * top-level `await import('msw')` has no CommonJS form. tsup builds CommonJS through an ESM pass, so the output
 * extension is what tells the two builds apart.
 */
const mswLoaderPerFormat: Plugin = {
  name: 'msw-loader-per-format',
  setup(build) {
    if (build.initialOptions.outExtension?.['.js'] !== '.cjs') return;
    build.onResolve({ filter: /\/load-msw\.ts$/ }, (args) => ({
      path: `${args.resolveDir}/${args.path.replace(/\.ts$/, '.cjs.ts')}`,
    }));
  },
};

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    ...(existsSync('src/testing/index.ts')
      ? {
          'testing/index': 'src/testing/index.ts',
          'testing/msw': 'src/testing/msw/index.ts',
          'testing/server': 'src/testing/server/index.ts',
          'testing/server-unavailable': 'src/testing/server/unavailable.ts',
        }
      : {}),
    ...(existsSync('src/redis/index.ts') ? { 'redis/index': 'src/redis/index.ts' } : {}),
  },
  format: ['esm', 'cjs'],
  dts: true,
  // Not shipped: maps pointing at src/ (not in the package) help no one, and were 60 % of the unpacked size.
  sourcemap: false,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  treeshake: true,
  splitting: false,
  // Keep `node:http` as written: Deno and Workers' nodejs_compat resolve the prefixed form.
  removeNodeProtocol: false,
  // Bundled: eventemitter3's ESM entry re-exports CommonJS, which Rollup with only node-resolve cannot read.
  noExternal: ['eventemitter3'],
  // `futures-sdk/testing/server` stays a separate entry that `ex.listen()` imports by name when called.
  // `futures-sdk` itself: what futures-sdk/redis takes from the main entry (its errors and types).
  external: [
    'futures-sdk',
    'msw',
    'ws',
    'ioredis',
    'node:http',
    'node:crypto',
    'node:net',
    'futures-sdk/testing/server',
  ],
  esbuildPlugins: [mswLoaderPerFormat, redisErrorsFromMainEntry],
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
