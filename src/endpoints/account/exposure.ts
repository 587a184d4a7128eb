import * as z from 'zod/mini';
import type { ClientContext } from '../../_internal/context.ts';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import type { CallOptions } from '../../options.ts';
import { decimalString, okTrue } from '../../schemas/common.ts';
import { positionSchema } from '../../schemas/position.ts';

// ── Schema ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Response of `GET /v2/risk/exposure`.
 *
 * @example
 * ```ts
 * const parsed = exposureResponseSchema.safeParse(JSON.parse(text));
 * if (parsed.success) console.log(parsed.data);
 * ```
 */
export const exposureResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    ok: okTrue,
    grossExposure: decimalString,
    positions: z.array(positionSchema),
  }),
);

/**
 * `{ ok: true, grossExposure, positions }`; `grossExposure` = sum of |quantity| over open positions.
 *
 * @example
 * ```ts
 * const { grossExposure, positions } = await client.account.exposure();
 * ```
 */
export type ExposureReturnType = z.infer<typeof exposureResponseSchema>;

/** `grossExposure` = sum of |quantity| over open positions */
export const exposureEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'account.exposure',
  method: 'GET',
  path: '/v2/risk/exposure',
  auth: 'signed',
  bucket: 'default',
  safety: 'idempotent',
  response: exposureResponseSchema,
});

// ── Execution ───────────────────────────────────────────────────────────────────────────────────────────────

/** Sends `account.exposure`; documented (with examples) on `exposure` of `futures-sdk/account` and on `client.account.exposure()`. */
export async function exposure(ctx: ClientContext, options?: CallOptions): Promise<ExposureReturnType> {
  return await callEndpoint(ctx, exposureEndpoint, { options });
}
