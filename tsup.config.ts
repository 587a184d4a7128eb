import { existsSync } from 'node:fs';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    ...(existsSync('src/testing/index.ts') ? { 'testing/index': 'src/testing/index.ts' } : {}),
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
  // Bundled: eventemitter3's ESM entry re-exports CommonJS, which Rollup with only node-resolve cannot read.
  noExternal: ['eventemitter3'],
  external: ['msw', 'ws', 'node:http', 'node:crypto', 'node:net'],
});
