/**
 * futures-sdk/testing/msw: MSW (v3) handlers for a simulated exchange, for `setupServer` (Node.js, Bun, Deno)
 * and `setupWorker` (browsers). Needs the optional peer dependency `msw`; `futures-sdk/testing` itself never
 * loads it. Loading this entry also enables the shorthand `ex.handlers()`.
 *
 * @example
 * ```ts
 * import { createExchange } from 'futures-sdk/testing';
 * import { handlers } from 'futures-sdk/testing/msw';
 * import { setupServer } from 'msw/node';
 *
 * const ex = createExchange({ seed: 1, baseUrl: 'https://api.example.com' });
 * const server = setupServer(...handlers(ex));
 * server.listen();
 * ```
 * @packageDocumentation
 * @module futures-sdk/testing/msw
 */

import { type ExchangeEndpoint, MSW_HANDLERS_FACTORY } from '../_types.ts';
import { createMswHandlers, type MswHandlers } from './handlers.ts';
import { msw } from './load-msw.ts';

export type { MswHandlers } from './handlers.ts';

/**
 * MSW handlers for `exchange`: every HTTP request under `exchange.baseUrl` goes to the exchange (a simulated
 * connection reset or refusal becomes a network error), and WebSocket connections to
 * `ws(s)://<host>/v2/ws/account` are served by the simulated account channel. Call it once per exchange; any
 * number of exchanges in one process is fine.
 *
 * @example
 * ```ts
 * import { createExchange } from 'futures-sdk/testing';
 * import { handlers } from 'futures-sdk/testing/msw';
 * import { setupWorker } from 'msw/browser';
 *
 * const ex = createExchange({ seed: 1, baseUrl: 'https://api.example.com' });
 * await setupWorker(...handlers(ex)).start();
 * ```
 */
export function handlers(exchange: ExchangeEndpoint): MswHandlers {
  return createMswHandlers(msw, exchange);
}

(globalThis as { [MSW_HANDLERS_FACTORY]?: (exchange: ExchangeEndpoint) => MswHandlers })[MSW_HANDLERS_FACTORY] =
  handlers;
