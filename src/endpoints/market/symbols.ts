import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import type { PublicClient } from '../../public-client.ts';
import { okTrue } from '../../schemas/common.ts';
import type { Strict } from '../../schemas/strict.ts';

/** Response of `GET /v2/symbols`. */
export const symbolsResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, symbols: z.array(z.string()) }),
);
/** `{ ok: true, symbols: string[] }`. */
export type SymbolsReturnType = Strict<z.infer<typeof symbolsResponseSchema>>;

/** `symbols: string[]` */
export const symbolsEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'market.symbols',
  path: '/v2/symbols',
  auth: 'public',
  response: symbolsResponseSchema,
});

/**
 * `GET /v2/symbols` — every active contract symbol. Public, `public` bucket.
 *
 * @throws {ServerError | ConnectionError | TimeoutError}
 *
 * @example
 * ```ts
 * import { symbols } from 'futures-sdk/market';
 * const { symbols: all } = await symbols(client);
 * ```
 */
export async function symbols(client: BaseClient | PublicClient, options?: CallOptions): Promise<SymbolsReturnType> {
  return await callEndpoint(contextOf(client), symbolsEndpoint, { options });
}
