import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { symbolParam } from '../../_internal/validate.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import { type MarginType, marginTypeSchema, okTrue } from '../../schemas/common.ts';
import type { Strict } from '../../schemas/strict.ts';
import { optionalBoolean } from '../_shared.ts';

/** Margin types as a run-time enum. @internal */
export const marginTypeParam = /* @__PURE__ */ pure(() =>
  z.enum(['ISOLATED', 'CROSSED'], { error: "must be 'ISOLATED' or 'CROSSED'" }),
);

/** Body of `POST /v2/futures/margin-type`. */
export interface SetMarginTypeParameters {
  /** Contract symbol. */
  symbol: string;
  /** Target mode. The venue applies it to the whole sub-account. */
  marginType: MarginType;
  /** Switch even with an open position (else a 409, `code: 'OPEN_POSITION_MARGIN_GUARD'`). @default false */
  forceWithOpenPosition?: boolean | undefined;
}

/** Run-time check of {@link SetMarginTypeParameters}. */
export const setMarginTypeParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({ symbol: symbolParam, marginType: marginTypeParam, forceWithOpenPosition: optionalBoolean }),
);

/** Response of `POST /v2/futures/margin-type`. */
export const setMarginTypeResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    ok: okTrue,
    data: z.looseObject({ marginType: marginTypeSchema, symbol: z.string(), unchanged: z.optional(z.boolean()) }),
  }),
);
/** `{ ok: true, data: { marginType, symbol, unchanged? } }`; `unchanged: true` when it already was that mode. */
export type SetMarginTypeReturnType = Strict<z.infer<typeof setMarginTypeResponseSchema>>;

/** `ISOLATED` or `CROSSED` for a symbol */
export const setMarginTypeEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'futures.setMarginType',
  method: 'POST',
  path: '/v2/futures/margin-type',
  safety: 'idempotent',
  params: setMarginTypeParamsSchema,
  response: setMarginTypeResponseSchema,
});

/**
 * `POST /v2/futures/margin-type` — sets ISOLATED or CROSSED. Auth `API_KEY (TRADE)`, `default` bucket; safe to
 * retry. The venue applies the mode to the whole sub-account. No read-back endpoint exists: a position's
 * `marginMode` is the only place the current mode shows.
 *
 * @throws {RequestValidationError} bad `marginType`, missing `symbol`.
 * @throws {ConflictError} open position without the force flag (`err.isOpenPositionGuard`,
 *   `code: 'OPEN_POSITION_MARGIN_GUARD'`); consider `futures.closeAndSwitchMargin`.
 * @throws {BadRequestError | ApiError} a venue reject (`code: 'OPEN_POSITION_MARGIN_REJECT'`).
 * @throws {PermissionDeniedError} key lacks TRADE.
 *
 * @example
 * ```ts
 * import { setMarginType } from 'futures-sdk/futures';
 * await setMarginType(client, { symbol: 'BTCUSDT', marginType: 'ISOLATED' });
 * ```
 */
export async function setMarginType(
  client: BaseClient,
  params: SetMarginTypeParameters,
  options?: CallOptions,
): Promise<SetMarginTypeReturnType> {
  return await callEndpoint(contextOf(client), setMarginTypeEndpoint, { params, options });
}
