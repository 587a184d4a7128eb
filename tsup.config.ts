import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

/**
 * eventemitter3 is CommonJS. Bundled the usual way, its module object is built by a top-level call and our
 * `class … extends EventEmitter` reads a property of it, which a bundler must assume has side effects: every app
 * importing anything from `futures-sdk` kept eventemitter3, `AccountStream` and `AccountWatcher`. Here it is
 * loaded as one ESM binding made by a `/* @__PURE__ *\/` call (its code is self-contained: no require, no
 * globals written), so an app that never touches the events drops it all.
 */
const eventemitter3AsPureModule: Plugin = {
  name: 'eventemitter3-as-pure-module',
  setup(build) {
    build.onResolve({ filter: /^eventemitter3$/ }, () => ({
      path: createRequire(import.meta.url).resolve('eventemitter3'),
      namespace: 'eventemitter3-pure',
    }));
    build.onLoad({ filter: /.*/, namespace: 'eventemitter3-pure' }, (args) => ({
      contents:
        `const EventEmitter = /* @__PURE__ */ (() => {\nconst module = { exports: {} };\n` +
        `(function (module, exports) {\n${readFileSync(args.path, 'utf8')}\n})(module, module.exports);\n` +
        `return module.exports;\n})();\nexport { EventEmitter };\nexport default EventEmitter;\n`,
      loader: 'js',
    }));
  },
};

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    // The standalone functions per resource (futures-sdk/orders, …): bundles import only what they call.
    orders: 'src/endpoints/orders/index.ts',
    futures: 'src/endpoints/futures/index.ts',
    account: 'src/endpoints/account/index.ts',
    market: 'src/endpoints/market/index.ts',
    // Not a public entry: as an entry of its own, the signer gets a chunk of its own instead of sharing one with the
    // error classes (whose computed `[Symbol.for(…)]` members a bundler must keep), so an app that imports only
    // `canonicalQuery` + `hmacSha256Hex` from `futures-sdk` bundles @noble/hashes and little else.
    'internal/signer': 'src/signer.ts',
    // Likewise for the decimal helpers: `import { decimal } from 'futures-sdk'` keeps them and the two error
    // classes they throw, nothing else.
    'internal/decimal': 'src/helpers/decimal.ts',
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
  // Code splitting, both formats: modules shared by several entries go to chunk files that every entry imports,
  // so there is one copy of each module per format. ESM: a bundler drops the chunks (and, inside a chunk, the
  // statements) an app does not use; that is what makes `sideEffects: false` pay. CommonJS: without it each
  // subpath would carry its own copy of the transport and error classes, and a `FuturesClient` from
  // `require('futures-sdk')` would throw errors that are not `instanceof` those of `require('futures-sdk/market')`.
  splitting: true,
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
  esbuildPlugins: [mswLoaderPerFormat, eventemitter3AsPureModule, redisErrorsFromMainEntry],
});
