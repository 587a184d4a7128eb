import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { nonEmptyString, positiveDecimalParam } from '../../_internal/validate.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import { decimalString, okTrue, orderSideSchema, venuePassthroughSchema } from '../../schemas/common.ts';
import type { Strict } from '../../schemas/strict.ts';

/** Body of `POST /v2/positions/close`. */
export interface ClosePositionParameters {
  /** The position's `id`. */
  positionId: string;
  /** Positive decimal string to close part of the position; omitted closes all of it. */
  quantity?: string | undefined;
}

/** Run-time check of {@link ClosePositionParameters}. */
export const closePositionParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({ positionId: nonEmptyString, quantity: z.optional(positiveDecimalParam) }),
);

/** `closed` when a reduce-only MARKET order was submitted: its side (inverted) and quantity. */
export const closeSubmittedSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    symbol: z.string(),
    side: orderSideSchema,
    quantity: decimalString,
    remainingPosition: decimalString,
    reconciled: z.optional(z.literal(false)),
  }),
);

/** `closed` when the position was already closed on the venue: no order was created. */
export const closeReconciledSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ symbol: z.string(), reconciled: z.literal(true), remainingPosition: decimalString }),
);

/** Response of `POST /v2/positions/close`. */
export const closePositionResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    ok: okTrue,
    closed: z.union([closeReconciledSchema, closeSubmittedSchema]),
    venue: z.optional(venuePassthroughSchema),
  }),
);
/** `{ ok: true, closed, venue? }`; `closed.reconciled: true`: already closed, nothing sent (else the closing order). */
export type ClosePositionReturnType = Strict<z.infer<typeof closePositionResponseSchema>>;

/** Closes a position, fully or `quantity` of it */
export const closePositionEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'orders.closePosition',
  method: 'POST',
  path: '/v2/positions/close',
  bucket: 'close',
  killSwitch: true,
  params: closePositionParamsSchema,
  journal: {
    entries: (body) => [
      { kind: 'close', positionId: String(body.positionId), quantity: body.quantity as string | undefined },
    ],
    orders: (result) => [result.closed.reconciled === true ? null : []],
    learn: ({ closed }) => ({ symbol: closed.symbol, ...(closed.reconciled ? {} : { side: closed.side }) }),
  },
  response: closePositionResponseSchema,
});

/**
 * `POST /v2/positions/close` — closes a position (or `quantity` of it) with a reduce-only MARKET order on the inverted
 * side (LONG → SELL, SHORT → BUY). Auth `API_KEY (TRADE)`, `close` bucket (300/min). Fire-and-forget: the response has
 * no order or position; follow up with `account.positions()`. An already closed position resolves with
 * `closed.reconciled: true`. Retried only on 429 / refused connection, since a repeat could close more than intended.
 *
 * @throws {RequestValidationError} missing `positionId`, bad `quantity`.
 * @throws {PermissionDeniedError} key lacks TRADE.
 * @throws {BadRequestError} the venue rejected the closing order.
 * @throws {TimeoutError | ConnectionError} outcome unknown: re-read positions before trying again.
 *
 * @example
 * ```ts
 * import { closePosition } from 'futures-sdk/orders';
 * await closePosition(client, { positionId: position.id });
 * ```
 */
export async function closePosition(
  client: BaseClient,
  params: ClosePositionParameters,
  options?: CallOptions,
): Promise<ClosePositionReturnType> {
  return await callEndpoint(contextOf(client), closePositionEndpoint, { params, options });
}
