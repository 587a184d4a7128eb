import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import type { PublicClient } from '../../public-client.ts';
import { okTrue } from '../../schemas/common.ts';
import type { Strict } from '../../schemas/strict.ts';

/** Response of `GET /health`. */
export const healthResponseSchema = /* @__PURE__ */ pure(() => z.looseObject({ ok: okTrue, service: z.string() }));
/** `{ ok: true, service }`. */
export type HealthReturnType = Strict<z.infer<typeof healthResponseSchema>>;

/** Liveness probe (unversioned path) */
export const healthEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'market.health',
  path: '/health',
  auth: 'public',
  response: healthResponseSchema,
});

/**
 * `GET /health` — liveness probe. Public (no key, no signature), unversioned path, `public` bucket.
 *
 * @throws {ServerError | ConnectionError | TimeoutError}
 *
 * @example
 * ```ts
 * import { health } from 'futures-sdk/market';
 * await health(client);
 * ```
 */
export async function health(client: BaseClient | PublicClient, options?: CallOptions): Promise<HealthReturnType> {
  return await callEndpoint(contextOf(client), healthEndpoint, { options });
}
