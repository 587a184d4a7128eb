import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { intInRange, symbolParam } from '../../_internal/validate.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import { okTrue } from '../../schemas/common.ts';
import type { Strict } from '../../schemas/strict.ts';
import { optionalBoolean } from '../_shared.ts';

/** Body of `POST /v2/futures/leverage`. */
export interface SetLeverageParameters {
  /** Contract symbol. */
  symbol: string;
  /** Integer 1 to 125. */
  leverage: number;
  /**
   * Change it even with an open position (its liquidation level is re-priced; else a 409,
   * `code: 'OPEN_POSITION_LEVERAGE_GUARD'`). @default false
   */
  forceWithOpenPosition?: boolean | undefined;
}

/** Run-time check of {@link SetLeverageParameters}. */
export const setLeverageParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({ symbol: symbolParam, leverage: intInRange(1, 125), forceWithOpenPosition: optionalBoolean }),
);

/** Response of `POST /v2/futures/leverage`. */
export const setLeverageResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, data: z.looseObject({ leverage: z.number(), symbol: z.string() }) }),
);
/** `{ ok: true, data: { leverage, symbol } }`. */
export type SetLeverageReturnType = Strict<z.infer<typeof setLeverageResponseSchema>>;

/** Leverage of a symbol; `forceWithOpenPosition` to change it with a position open */
export const setLeverageEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'futures.setLeverage',
  method: 'POST',
  path: '/v2/futures/leverage',
  safety: 'idempotent',
  params: setLeverageParamsSchema,
  response: setLeverageResponseSchema,
});

/**
 * `POST /v2/futures/leverage` — sets the leverage of one symbol. Auth `API_KEY (TRADE)`, `default` bucket; safe to
 * retry (setting the same value twice is harmless). There is no read-back endpoint: the current leverage shows only on
 * an open position's `leverage`.
 *
 * @throws {RequestValidationError} `leverage` not an integer in 1..125, missing `symbol`.
 * @throws {ConflictError} open position without `forceWithOpenPosition` (`err.isOpenPositionGuard`,
 *   `err.code === 'OPEN_POSITION_LEVERAGE_GUARD'`).
 * @throws {PermissionDeniedError} key lacks TRADE.
 * @throws {BadRequestError} the venue rejected the value.
 *
 * @example
 * ```ts
 * import { setLeverage } from 'futures-sdk/futures';
 * await setLeverage(client, { symbol: 'BTCUSDT', leverage: 10 });
 * ```
 */
export async function setLeverage(
  client: BaseClient,
  params: SetLeverageParameters,
  options?: CallOptions,
): Promise<SetLeverageReturnType> {
  return await callEndpoint(contextOf(client), setLeverageEndpoint, { params, options });
}
