import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import { pnlBucketSchema, pnlSummarySchema } from '../../schemas/account.ts';
import { okTrue } from '../../schemas/common.ts';
import type { Strict } from '../../schemas/strict.ts';
import { optionalPositiveInt } from '../_shared.ts';

/** Query of `GET /v2/account/pnl-history`. */
export interface PnlHistoryParameters {
  /** Bucket size. Weekly buckets start on Sunday; monthly `date`s are `YYYY-MM`. @default 'daily' */
  period?: 'daily' | 'weekly' | 'monthly' | undefined;
  /** Number of buckets. @default 30 */
  limit?: number | undefined;
}

/** Run-time check of {@link PnlHistoryParameters}. */
export const pnlHistoryParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({
    period: z.optional(z.enum(['daily', 'weekly', 'monthly'], { error: "must be 'daily', 'weekly' or 'monthly'" })),
    limit: optionalPositiveInt,
  }),
);

/** Response of `GET /v2/account/pnl-history`: JSON numbers, not decimal strings. */
export const pnlHistoryResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, history: z.array(pnlBucketSchema), summary: pnlSummarySchema }),
);
/** `{ ok: true, history, summary }` — numbers. */
export type PnlHistoryReturnType = Strict<z.infer<typeof pnlHistoryResponseSchema>>;

/** Amounts are **numbers**, not decimal strings */
export const pnlHistoryEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'account.pnlHistory',
  path: '/v2/account/pnl-history',
  params: pnlHistoryParamsSchema,
  response: pnlHistoryResponseSchema,
});

/**
 * `GET /v2/account/pnl-history` — PnL per day/week/month. Auth `API_KEY`, `default` bucket. The fields are JSON NUMBERS
 * (the only such endpoint); the series covers only the latest 1000 executions, `pnl` has fees subtracted and no
 * funding. For ledger-grade figures the spec points at `/v2/me/stats`.
 *
 * @throws {RequestValidationError} bad `period`, `limit` < 1.
 * @throws {AuthenticationError | RateLimitError | ServerError}
 *
 * @example
 * ```ts
 * import { pnlHistory } from 'futures-sdk/account';
 * const history = await pnlHistory(client);
 * ```
 */
export async function pnlHistory(
  client: BaseClient,
  query: PnlHistoryParameters = {},
  options?: CallOptions,
): Promise<PnlHistoryReturnType> {
  return await callEndpoint(contextOf(client), pnlHistoryEndpoint, { params: query, options });
}
