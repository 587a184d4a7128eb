/**
 * futures-sdk/testing/server as bundlers see it when they build for a browser or a worker (the `browser` and
 * `workerd` export conditions): the loopback server needs `node:http`, so `listen()` rejects with one sentence
 * saying what to use instead, and no Node built-in reaches the bundle.
 *
 * @packageDocumentation
 */

import type { ExchangeEndpoint, ListeningExchange, ListenOptions } from '../_types.ts';

export type { CorsOptions, ListeningExchange, ListenOptions } from '../_types.ts';

/**
 * Always rejects: there is no HTTP server to start in a browser or a worker.
 *
 * @example
 * ```ts
 * import { listen } from 'futures-sdk/testing/server';
 * // In a browser bundle this entry has no server to start: the call rejects, it does not throw on import.
 * await listen(ex).catch((error: unknown) => console.log(String(error)));
 * ```
 */
export async function listen(_exchange: ExchangeEndpoint, _options?: ListenOptions): Promise<ListeningExchange> {
  throw new Error(
    'futures-sdk/testing: listen() starts a Node.js HTTP server and is not available in browsers or workers; ' +
      "use ex.fetch, or the MSW handlers from 'futures-sdk/testing/msw' (setupWorker).",
  );
}
