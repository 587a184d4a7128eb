import * as z from 'zod/mini';
import type { ClientContext } from '../../_internal/context.ts';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { symbolParam } from '../../_internal/validate.ts';
import type { CallOptions } from '../../options.ts';
import { type MarginType, marginTypeSchema, okTrue } from '../../schemas/common.ts';

// ── Schema ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Margin types as a run-time enum.
 * @internal
 */
export const marginTypeParam = /* @__PURE__ */ pure(() =>
  z.enum(['ISOLATED', 'CROSSED'], {
    error: "must be 'ISOLATED' or 'CROSSED'",
  }),
);

/**
 * Body of `POST /v2/futures/margin-type`.
 *
 * @example
 * ```ts
 * const { data } = await client.futures.setMarginType({ symbol: 'BTCUSDT', marginType: 'ISOLATED' });
 * if (data.unchanged) console.log('already isolated');
 * ```
 */
export interface SetMarginTypeParameters {
  /** Contract symbol. */
  symbol: string;
  /** Target mode. The venue applies it to the whole sub-account. */
  marginType: MarginType;
  /**
   * Switch even with an open position. Without it an open position yields a 409 with
   * `code: 'OPEN_POSITION_MARGIN_GUARD'`.
   * @default false
   */
  forceWithOpenPosition?: boolean | undefined;
}

/**
 * Run-time check of {@link SetMarginTypeParameters}.
 *
 * @example
 * ```ts
 * const check = setMarginTypeParamsSchema.safeParse(input); // the rules the SDK applies before sending
 * if (!check.success) console.log(check.error.issues);
 * ```
 */
export const setMarginTypeParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({
    symbol: symbolParam,
    marginType: marginTypeParam,
    forceWithOpenPosition: z.optional(z.boolean({ error: 'must be a boolean' })),
  }),
);

/**
 * Response of `POST /v2/futures/margin-type`.
 *
 * @example
 * ```ts
 * const parsed = setMarginTypeResponseSchema.safeParse(JSON.parse(text));
 * if (parsed.success) console.log(parsed.data);
 * ```
 */
export const setMarginTypeResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    ok: okTrue,
    data: z.looseObject({
      marginType: marginTypeSchema,
      symbol: z.string(),
      unchanged: z.optional(z.boolean()),
    }),
  }),
);

/**
 * `{ ok: true, data: { marginType, symbol, unchanged? } }`; `unchanged: true` when it already was that mode.
 *
 * @example
 * ```ts
 * import type { SetMarginTypeReturnType } from 'futures-sdk';
 * const result: SetMarginTypeReturnType = await client.futures.setMarginType({ symbol: 'BTCUSDT', marginType: 'ISOLATED' });
 * console.log(result.ok); // true: every success carries the envelope
 * ```
 */
export type SetMarginTypeReturnType = z.infer<typeof setMarginTypeResponseSchema>;

/** `ISOLATED` or `CROSSED` for a symbol */
export const setMarginTypeEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'futures.setMarginType',
  method: 'POST',
  path: '/v2/futures/margin-type',
  auth: 'signed',
  bucket: 'default',
  safety: 'idempotent',
  params: setMarginTypeParamsSchema,
  paramsIn: 'body',
  response: setMarginTypeResponseSchema,
});

// ── Execution ───────────────────────────────────────────────────────────────────────────────────────────────

/** Sends `futures.setMarginType`; documented (with examples) on `setMarginType` of `futures-sdk/futures` and on `client.futures.setMarginType()`. */
export async function setMarginType(
  ctx: ClientContext,
  params: SetMarginTypeParameters,
  options?: CallOptions,
): Promise<SetMarginTypeReturnType> {
  return await callEndpoint(ctx, setMarginTypeEndpoint, { params, options });
}
