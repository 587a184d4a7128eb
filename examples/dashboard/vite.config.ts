import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The dashboard imports 'futures-sdk' exactly as an app would; here that resolves to this repository's build.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { alias: { 'futures-sdk': fileURLToPath(new URL('../../dist/index.js', import.meta.url)) } },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
  logLevel: 'warn',
});
