/**
 * futures-sdk/testing/server: the simulated exchange on a real loopback HTTP + WebSocket server, for clients that
 * cannot take an injected `fetch`: other processes, other languages, `curl`, a page on another origin
 * (`cors: true`). Node.js, Bun and Deno; needs the optional peer dependency `ws`. `ex.listen()` is the same thing
 * and loads this entry on demand; bundlers that build for a browser or a worker get a stub that rejects.
 *
 * @example
 * ```ts
 * import { createExchange } from 'futures-sdk/testing';
 * import { listen } from 'futures-sdk/testing/server';
 *
 * const ex = createExchange({ seed: 1 });
 * const server = await listen(ex, { cors: true });
 * console.log(server.url, server.wsUrl);
 * await server.close();
 * ```
 * @packageDocumentation
 * @module futures-sdk/testing/server
 */

import type { ExchangeEndpoint, ListeningExchange, ListenOptions } from '../_types.ts';
import { listenExchange } from './node-server.ts';

export type { CorsOptions, ListeningExchange, ListenOptions } from '../_types.ts';

/**
 * Starts a real HTTP + WebSocket server on 127.0.0.1 (random port unless `port`) in front of `exchange`, and
 * resolves with its `url`, `wsUrl` and `close()`. Only loopback addresses can be bound. With `cors`, browser
 * preflights are answered and `Date` / `Retry-After` are exposed to pages on other origins.
 *
 * @throws {Error} when the optional peer dependency `ws` is not installed, or `host` is not a loopback address.
 * @example
 * ```ts
 * import { FuturesClient } from 'futures-sdk';
 * import { createExchange } from 'futures-sdk/testing';
 * import { listen } from 'futures-sdk/testing/server';
 *
 * const ex = createExchange({ seed: 1 });
 * const { accountId } = ex.createAccount({ balances: { USDT: '10000' } });
 * const server = await listen(ex);
 * const client = new FuturesClient({ baseUrl: server.url, ...ex.createApiKey(accountId) });
 * await server.close();
 * ```
 */
export function listen(exchange: ExchangeEndpoint, options: ListenOptions = {}): Promise<ListeningExchange> {
  return listenExchange(exchange, options);
}
