import * as z from 'zod/mini';
import type { ClientContext } from '../../_internal/context.ts';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { intInRange, symbolParam } from '../../_internal/validate.ts';
import type { CallOptions } from '../../options.ts';
import { okTrue } from '../../schemas/common.ts';
import { closedPositionRecordSchema } from '../../schemas/trade.ts';
import { optionalEpochMs, subAccountIdParam } from '../_shared.ts';

// ── Schema ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Largest page of `GET /v2/futures/positionHistory`.
 *
 * @example
 * ```ts
 * import { MAX_POSITION_HISTORY_PAGE } from 'futures-sdk';
 * const { data } = await client.orders.positionHistory({ limit: MAX_POSITION_HISTORY_PAGE });
 * ```
 */
export const MAX_POSITION_HISTORY_PAGE = 1000;

/**
 * Query of `GET /v2/futures/positionHistory`.
 *
 * @example
 * ```ts
 * import { normalizePositionHistory } from 'futures-sdk';
 * const { data } = await client.orders.positionHistory({ symbol: 'BTCUSDT', limit: 100 });
 * const rows = data.map(normalizePositionHistory); // rows[0].side === 'LONG' | 'SHORT'
 * ```
 */
export interface PositionHistoryParameters {
  /** Only this symbol (default: all). */
  symbol?: string | undefined;
  /** Sub-account; defaults to the client's `subAccountId`. */
  subAccountId?: string | undefined;
  /**
   * 1-based page number.
   * @default 1
   */
  page?: number | undefined;
  /**
   * Rows per page, 1 to 1000.
   * @default 20
   */
  limit?: number | undefined;
  /** Earliest time, ms epoch. */
  startTime?: number | undefined;
  /** Latest time, ms epoch. */
  endTime?: number | undefined;
}

/**
 * Run-time check of {@link PositionHistoryParameters}.
 *
 * @example
 * ```ts
 * const check = positionHistoryParamsSchema.safeParse(input); // the rules the SDK applies before sending
 * if (!check.success) console.log(check.error.issues);
 * ```
 */
export const positionHistoryParamsSchema = /* @__PURE__ */ pure(() =>
  z
    .strictObject({
      symbol: z.optional(symbolParam),
      subAccountId: subAccountIdParam,
      page: z.optional(intInRange(1, Number.MAX_SAFE_INTEGER)),
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

/**
 * Response of `GET /v2/futures/positionHistory`.
 *
 * @example
 * ```ts
 * const parsed = positionHistoryResponseSchema.safeParse(JSON.parse(text));
 * if (parsed.success) console.log(parsed.data);
 * ```
 */
export const positionHistoryResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    ok: okTrue,
    data: z.array(closedPositionRecordSchema),
  }),
);

/**
 * `{ ok: true, data: ClosedPositionRecord[] }` with the venue's names; see `normalizePositionHistory`.
 *
 * @example
 * ```ts
 * import type { PositionHistoryReturnType } from 'futures-sdk';
 * const result: PositionHistoryReturnType = await client.orders.positionHistory({ symbol: 'BTCUSDT', limit: 100 });
 * console.log(result.ok); // true: every success carries the envelope
 * ```
 */
export type PositionHistoryReturnType = z.infer<typeof positionHistoryResponseSchema>;

/** Closed-position records */
export const positionHistoryEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'orders.positionHistory',
  method: 'GET',
  path: '/v2/futures/positionHistory',
  auth: 'signed',
  bucket: 'default',
  safety: 'idempotent',
  params: positionHistoryParamsSchema,
  paramsIn: 'query',
  subAccountDefault: true,
  response: positionHistoryResponseSchema,
});

// ── Execution ───────────────────────────────────────────────────────────────────────────────────────────────

/** Sends `orders.positionHistory`; documented (with examples) on `positionHistory` of `futures-sdk/orders` and on `client.orders.positionHistory()`. */
export async function positionHistory(
  ctx: ClientContext,
  query: PositionHistoryParameters = {},
  options?: CallOptions,
): Promise<PositionHistoryReturnType> {
  return await callEndpoint(ctx, positionHistoryEndpoint, { params: query, options });
}
