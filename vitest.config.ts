import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      'futures-sdk/testing/msw': fileURLToPath(new URL('./src/testing/msw/index.ts', import.meta.url)),
      'futures-sdk/testing/server': fileURLToPath(new URL('./src/testing/server/index.ts', import.meta.url)),
      'futures-sdk/testing': fileURLToPath(new URL('./src/testing/index.ts', import.meta.url)),
      'futures-sdk/orders': fileURLToPath(new URL('./src/endpoints/orders/index.ts', import.meta.url)),
      'futures-sdk/futures': fileURLToPath(new URL('./src/endpoints/futures/index.ts', import.meta.url)),
      'futures-sdk/account': fileURLToPath(new URL('./src/endpoints/account/index.ts', import.meta.url)),
      'futures-sdk/market': fileURLToPath(new URL('./src/endpoints/market/index.ts', import.meta.url)),
      'futures-sdk/redis': fileURLToPath(new URL('./src/redis/index.ts', import.meta.url)),
      'futures-sdk': fileURLToPath(new URL('./src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    testTimeout: 20_000,
    pool: 'forks',
  },
});
