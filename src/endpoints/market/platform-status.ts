import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import type { PublicClient } from '../../public-client.ts';
import { okTrue } from '../../schemas/common.ts';
import { platformFeaturesSchema } from '../../schemas/market.ts';
import type { Strict } from '../../schemas/strict.ts';

/** Response of `GET /v2/platform/status`. */
export const platformStatusResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, features: platformFeaturesSchema }),
);
/** `{ ok: true, features: { referral, trading, deposits, withdrawals } }` (booleans). */
export type PlatformStatusReturnType = Strict<z.infer<typeof platformStatusResponseSchema>>;

/** `features.{referral,trading,deposits,withdrawals}` */
export const platformStatusEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'market.platformStatus',
  path: '/v2/platform/status',
  auth: 'public',
  response: platformStatusResponseSchema,
});

/**
 * `GET /v2/platform/status` — which platform features are switched on. Public, `public` bucket.
 *
 * @throws {ServerError | ConnectionError | TimeoutError}
 *
 * @example
 * ```ts
 * import { platformStatus } from 'futures-sdk/market';
 * const status = await platformStatus(client);
 * ```
 */
export async function platformStatus(
  client: BaseClient | PublicClient,
  options?: CallOptions,
): Promise<PlatformStatusReturnType> {
  return await callEndpoint(contextOf(client), platformStatusEndpoint, { options });
}
