import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import type { PublicClient } from '../../public-client.ts';
import { okTrue } from '../../schemas/common.ts';
import { platformTokenSchema } from '../../schemas/market.ts';
import type { Strict } from '../../schemas/strict.ts';

/** Response of `GET /v2/platform/tokens`. */
export const platformTokensResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, hash: z.string(), tokens: z.array(platformTokenSchema) }),
);
/** `{ ok: true, hash, tokens }`; `hash` also comes as the `ETag` header. */
export type PlatformTokensReturnType = Strict<z.infer<typeof platformTokensResponseSchema>>;

/** (chainId, asset) → decimals registry, `hash` */
export const platformTokensEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'market.platformTokens',
  path: '/v2/platform/tokens',
  auth: 'public',
  response: platformTokensResponseSchema,
});

/**
 * `GET /v2/platform/tokens` — the (chainId, asset) → decimals registry used for typed-data signatures. Public,
 * `public` bucket; cached up to 300 s (compare `hash` to detect changes).
 *
 * @throws {ServerError | ConnectionError | TimeoutError}
 *
 * @example
 * ```ts
 * import { platformTokens } from 'futures-sdk/market';
 * const tokens = await platformTokens(client);
 * ```
 */
export async function platformTokens(
  client: BaseClient | PublicClient,
  options?: CallOptions,
): Promise<PlatformTokensReturnType> {
  return await callEndpoint(contextOf(client), platformTokensEndpoint, { options });
}
