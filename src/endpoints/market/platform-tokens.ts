import * as z from 'zod/mini';
import type { ClientContext } from '../../_internal/context.ts';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import type { CallOptions } from '../../options.ts';
import { okTrue } from '../../schemas/common.ts';
import { platformTokenSchema } from '../../schemas/market.ts';

// ── Schema ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Response of `GET /v2/platform/tokens`.
 *
 * @example
 * ```ts
 * const parsed = platformTokensResponseSchema.safeParse(JSON.parse(text));
 * if (parsed.success) console.log(parsed.data);
 * ```
 */
export const platformTokensResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    ok: okTrue,
    hash: z.string(),
    tokens: z.array(platformTokenSchema),
  }),
);

/**
 * `{ ok: true, hash, tokens }`; `hash` also comes as the `ETag` header.
 *
 * @example
 * ```ts
 * const { hash, tokens } = await client.market.platformTokens();
 * const usdc = tokens.find((t) => t.chainId === 42161 && t.asset === 'USDC');
 * ```
 */
export type PlatformTokensReturnType = z.infer<typeof platformTokensResponseSchema>;

/** (chainId, asset) → decimals registry, `hash` */
export const platformTokensEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'market.platformTokens',
  method: 'GET',
  path: '/v2/platform/tokens',
  auth: 'public',
  bucket: 'public',
  safety: 'idempotent',
  response: platformTokensResponseSchema,
});

// ── Execution ───────────────────────────────────────────────────────────────────────────────────────────────

/** Sends `market.platformTokens`; documented (with examples) on `platformTokens` of `futures-sdk/market` and on `client.market.platformTokens()`. */
export async function platformTokens(ctx: ClientContext, options?: CallOptions): Promise<PlatformTokensReturnType> {
  return await callEndpoint(ctx, platformTokensEndpoint, { options });
}
