import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { symbolParam } from '../../_internal/validate.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import { MarginSwitchError } from '../../errors/margin-switch-error.ts';
import type { CallOptions } from '../../options.ts';
import { decimalString, type MarginType, marginTypeSchema, okTrue } from '../../schemas/common.ts';
import type { Strict } from '../../schemas/strict.ts';
import { marginTypeParam } from './set-margin-type.ts';

/** Body of `POST /v2/futures/close-and-switch-margin`. */
export interface CloseAndSwitchMarginParameters {
  /** Symbol whose orders are canceled and positions closed. */
  symbol: string;
  /** Mode to switch to (sub-account-wide). */
  targetMarginType: MarginType;
}

/** Run-time check of {@link CloseAndSwitchMarginParameters}. */
export const closeAndSwitchMarginParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({ symbol: symbolParam, targetMarginType: marginTypeParam }),
);

/** Response of `POST /v2/futures/close-and-switch-margin` on success. */
export const closeAndSwitchMarginResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    ok: okTrue,
    data: z.looseObject({
      symbol: z.string(),
      marginType: marginTypeSchema,
      canceledOrders: z.array(z.string()),
      closedPositions: z.array(z.looseObject({ id: z.string(), venuePositionId: z.string(), quantity: decimalString })),
    }),
  }),
);
/** `{ ok: true, data: { symbol, marginType, canceledOrders, closedPositions } }`. */
export type CloseAndSwitchMarginReturnType = Strict<z.infer<typeof closeAndSwitchMarginResponseSchema>>;

/** Closes the symbol's positions, then switches the margin type; a 502 is a `MarginSwitchError` */
export const closeAndSwitchMarginEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'futures.closeAndSwitchMargin',
  method: 'POST',
  path: '/v2/futures/close-and-switch-margin',
  params: closeAndSwitchMarginParamsSchema,
  journal: { entries: (body) => [{ kind: 'closeAndSwitchMargin', symbol: String(body.symbol) }] },
  response: closeAndSwitchMarginResponseSchema,
  // A 502 here may come after some positions were closed: MarginSwitchError says which.
  errorFor: (init) => (init.status === 502 ? new MarginSwitchError(init) : undefined),
});

/**
 * `POST /v2/futures/close-and-switch-margin` — three legs, no rollback: (1) cancel every working order on the symbol,
 * (2) close every open position on it with reduce-only MARKET orders, (3) switch the margin type (sub-account-wide).
 * Auth `API_KEY (TRADE)`, `default` bucket. Never retried once it may have started (only a 429 or a refused connection
 * is retried): a repeat could close positions opened in between.
 *
 * @throws {RequestValidationError} missing `symbol`, bad `targetMarginType`.
 * @throws {MarginSwitchError} 502: `stage === 'close'` (leg 2 failed, `venueErrorCode` says why) or
 *   `stage === 'switch'` (positions ARE closed, orders canceled, mode unchanged); see `closedPositions`,
 *   `canceledOrders`.
 * @throws {PermissionDeniedError} key lacks TRADE.
 * @throws {TimeoutError | ConnectionError} outcome unknown: read positions and orders before doing anything.
 *
 * @example
 * ```ts
 * import { closeAndSwitchMargin } from 'futures-sdk/futures';
 * await closeAndSwitchMargin(client, { symbol: 'BTCUSDT', targetMarginType: 'CROSSED' });
 * ```
 */
export async function closeAndSwitchMargin(
  client: BaseClient,
  params: CloseAndSwitchMarginParameters,
  options?: CallOptions,
): Promise<CloseAndSwitchMarginReturnType> {
  return await callEndpoint(contextOf(client), closeAndSwitchMarginEndpoint, { params, options });
}
