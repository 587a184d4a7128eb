import { existsSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * futures-sdk/redis takes its error classes from the main entry (`futures-sdk`, resolved by the package's
 * self-reference) instead of bundling copies: `err instanceof FleetUnavailableError` must hold for the class a
 * user imports from `futures-sdk`.
 */
const redisErrorsFromMainEntry: EsbuildPlugin = {
  name: 'redis-errors-from-main-entry',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/errors\// }, (args) =>
      /[\\/]src[\\/]redis[\\/]/.test(args.importer) ? { path: 'futures-sdk', external: true } : undefined,
    );
  },
};

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    ...(existsSync('src/testing/index.ts') ? { 'testing/index': 'src/testing/index.ts' } : {}),
    ...(existsSync('src/redis/index.ts') ? { 'redis/index': 'src/redis/index.ts' } : {}),
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  treeshake: true,
  splitting: false,
  external: ['futures-sdk', 'msw', 'ws', 'ioredis', 'node:http', 'node:crypto', 'node:net'],
  esbuildPlugins: [redisErrorsFromMainEntry],
});
