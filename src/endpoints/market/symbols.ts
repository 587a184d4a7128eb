import * as z from 'zod/mini';
import type { ClientContext } from '../../_internal/context.ts';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import type { CallOptions } from '../../options.ts';
import { okTrue } from '../../schemas/common.ts';

// ── Schema ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Response of `GET /v2/symbols`.
 *
 * @example
 * ```ts
 * const parsed = symbolsResponseSchema.safeParse(JSON.parse(text));
 * if (parsed.success) console.log(parsed.data);
 * ```
 */
export const symbolsResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, symbols: z.array(z.string()) }),
);

/**
 * `{ ok: true, symbols: string[] }`.
 *
 * @example
 * ```ts
 * import { type SymbolsReturnType, symbolsResponseSchema } from 'futures-sdk';
 * const value: SymbolsReturnType = symbolsResponseSchema.parse(json);
 * ```
 */
export type SymbolsReturnType = z.infer<typeof symbolsResponseSchema>;

/** `symbols: string[]` */
export const symbolsEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'market.symbols',
  method: 'GET',
  path: '/v2/symbols',
  auth: 'public',
  bucket: 'public',
  safety: 'idempotent',
  response: symbolsResponseSchema,
});

// ── Execution ───────────────────────────────────────────────────────────────────────────────────────────────

/** Sends `market.symbols`; documented (with examples) on `symbols` of `futures-sdk/market` and on `client.market.symbols()`. */
export async function symbols(ctx: ClientContext, options?: CallOptions): Promise<SymbolsReturnType> {
  return await callEndpoint(ctx, symbolsEndpoint, { options });
}
