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
});
