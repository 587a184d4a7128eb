import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { intInRange, symbolParam } from '../../_internal/validate.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import { okTrue } from '../../schemas/common.ts';
import type { Strict } from '../../schemas/strict.ts';
import { closedPositionRecordSchema } from '../../schemas/trade.ts';
import { optionalEpochMs, optionalPositiveInt, subAccountIdParam } from '../_shared.ts';

/** Largest page of `GET /v2/futures/positionHistory`. */
export const MAX_POSITION_HISTORY_PAGE = 1000;

/** Query of `GET /v2/futures/positionHistory`. */
export interface PositionHistoryParameters {
  /** Only this symbol (default: all). */
  symbol?: string | undefined;
  /** Sub-account; defaults to the client's `subAccountId`. */
  subAccountId?: string | undefined;
  /** 1-based page number. @default 1 */
  page?: number | undefined;
  /** Rows per page, 1 to 1000. @default 20 */
  limit?: number | undefined;
  /** Earliest time, ms epoch. */
  startTime?: number | undefined;
  /** Latest time, ms epoch. */
  endTime?: number | undefined;
}

/** Run-time check of {@link PositionHistoryParameters}. */
export const positionHistoryParamsSchema = /* @__PURE__ */ pure(() =>
  z
    .strictObject({
      symbol: z.optional(symbolParam),
      subAccountId: subAccountIdParam,
      page: optionalPositiveInt,
      limit: z.optional(intInRange(1, MAX_POSITION_HISTORY_PAGE)),
      startTime: optionalEpochMs,
      endTime: optionalEpochMs,
    })
    .check(
      z.refine((q) => q.startTime === undefined || q.endTime === undefined || q.startTime <= q.endTime, {
        error: 'must not be before startTime',
        path: ['endTime'],
      }),
    ),
);

/** Response of `GET /v2/futures/positionHistory`. */
export const positionHistoryResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, data: z.array(closedPositionRecordSchema) }),
);
/** `{ ok: true, data: ClosedPositionRecord[] }` with the venue's names; see `normalizePositionHistory`. */
export type PositionHistoryReturnType = Strict<z.infer<typeof positionHistoryResponseSchema>>;

/** Closed-position records */
export const positionHistoryEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'orders.positionHistory',
  path: '/v2/futures/positionHistory',
  params: positionHistoryParamsSchema,
  subAccountDefault: true,
  response: positionHistoryResponseSchema,
});

/**
 * `GET /v2/futures/positionHistory` — closed positions, venue passthrough. Auth `API_KEY`, `default` bucket. The
 * records keep the venue's names: `orderSide` 1/2 (not `side`), `entryPrice`, `averageClosePrice`, `realizedPnL`
 * (capital L), `totalClosedQuantity`. Map them with `normalizePositionHistory`.
 *
 * @throws {RequestValidationError} `page` < 1, `limit` outside 1..1000, bad times, `endTime` before `startTime`.
 * @throws {PermissionDeniedError} `Unauthorized subAccountId`.
 * @throws {AuthenticationError | RateLimitError | ServerError}
 *
 * @example
 * ```ts
 * import { positionHistory } from 'futures-sdk/orders';
 * const history = await positionHistory(client, { symbol: 'BTCUSDT' });
 * ```
 */
export async function positionHistory(
  client: BaseClient,
  query: PositionHistoryParameters = {},
  options?: CallOptions,
): Promise<PositionHistoryReturnType> {
  return await callEndpoint(contextOf(client), positionHistoryEndpoint, { params: query, options });
}
