import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import { okTrue, type PositionMode, positionModeSchema } from '../../schemas/common.ts';
import type { Strict } from '../../schemas/strict.ts';

/** Body of `POST /v2/futures/position-mode`. */
export interface SetPositionModeParameters {
  /** `ONE_WAY` (positionSide `BOTH`) or `HEDGE` (separate LONG and SHORT). Account-wide. */
  positionMode: PositionMode;
}

/** Run-time check of {@link SetPositionModeParameters}. */
export const setPositionModeParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({ positionMode: z.enum(['ONE_WAY', 'HEDGE'], { error: "must be 'ONE_WAY' or 'HEDGE'" }) }),
);

/** Response of `POST /v2/futures/position-mode`. */
export const setPositionModeResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, data: z.looseObject({ positionMode: positionModeSchema }) }),
);
/** `{ ok: true, data: { positionMode } }`. */
export type SetPositionModeReturnType = Strict<z.infer<typeof setPositionModeResponseSchema>>;

/** One-way (`BOTH`) or hedge (`LONG`/`SHORT`) positions */
export const setPositionModeEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'futures.setPositionMode',
  method: 'POST',
  path: '/v2/futures/position-mode',
  safety: 'idempotent',
  params: setPositionModeParamsSchema,
  response: setPositionModeResponseSchema,
});

/**
 * `POST /v2/futures/position-mode` — one-way or hedge mode, account-wide. Auth `API_KEY (TRADE)`, `default`
 * bucket; safe to retry. No read-back endpoint exists (a position's `positionSide` hints at the mode).
 *
 * @throws {RequestValidationError} bad `positionMode`.
 * @throws {BadRequestError} any open position exists (the venue rejects the change).
 * @throws {PermissionDeniedError} key lacks TRADE.
 *
 * @example
 * ```ts
 * import { setPositionMode } from 'futures-sdk/futures';
 * await setPositionMode(client, { positionMode: 'HEDGE' });
 * ```
 */
export async function setPositionMode(
  client: BaseClient,
  params: SetPositionModeParameters,
  options?: CallOptions,
): Promise<SetPositionModeReturnType> {
  return await callEndpoint(contextOf(client), setPositionModeEndpoint, { params, options });
}
