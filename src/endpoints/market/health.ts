import * as z from 'zod/mini';
import type { ClientContext } from '../../_internal/context.ts';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import type { CallOptions } from '../../options.ts';
import { okTrue } from '../../schemas/common.ts';

// ── Schema ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Response of `GET /health`.
 *
 * @example
 * ```ts
 * const parsed = healthResponseSchema.safeParse(JSON.parse(text));
 * if (parsed.success) console.log(parsed.data);
 * ```
 */
export const healthResponseSchema = /* @__PURE__ */ pure(() => z.looseObject({ ok: okTrue, service: z.string() }));

/**
 * `{ ok: true, service }`.
 *
 * @example
 * ```ts
 * import { type HealthReturnType, healthResponseSchema } from 'futures-sdk';
 * const value: HealthReturnType = healthResponseSchema.parse(json);
 * ```
 */
export type HealthReturnType = z.infer<typeof healthResponseSchema>;

/** Liveness probe (unversioned path) */
export const healthEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'market.health',
  method: 'GET',
  path: '/health',
  auth: 'public',
  bucket: 'public',
  safety: 'idempotent',
  response: healthResponseSchema,
});

// ── Execution ───────────────────────────────────────────────────────────────────────────────────────────────

/** Sends `market.health`; documented (with examples) on `health` of `futures-sdk/market` and on `client.market.health()`. */
export async function health(ctx: ClientContext, options?: CallOptions): Promise<HealthReturnType> {
  return await callEndpoint(ctx, healthEndpoint, { options });
}
