import * as z from 'zod/mini';
import { callEndpoint, checkParams, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { intInRange } from '../../_internal/validate.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import { ResponseValidationError } from '../../errors/response-validation-error.ts';
import type { CallOptions } from '../../options.ts';
import type { PublicClient } from '../../public-client.ts';
import { okTrue } from '../../schemas/common.ts';
import {
  commissionLeaderboardEntrySchema,
  LEADERBOARD_PERIODS,
  LEADERBOARD_TYPES,
  type LeaderboardPeriod,
  type LeaderboardType,
  referralsLeaderboardEntrySchema,
  volumeLeaderboardEntrySchema,
} from '../../schemas/market.ts';
import type { Strict } from '../../schemas/strict.ts';

/** Largest `limit` of `GET /v2/leaderboard`. */
export const MAX_LEADERBOARD_LIMIT = 100;

/** Query of `GET /v2/leaderboard`. */
export interface LeaderboardParameters<T extends LeaderboardType = LeaderboardType> {
  /** `volume`, `referrals` or `commission`. Required; decides the row shape. */
  type: T;
  /** Rows, 1 to 100. @default 20 */
  limit?: number | undefined;
  /** `7d`, `30d` or `all` (the old `daily`/`weekly`/`monthly` are rejected). @default 'all' */
  period?: LeaderboardPeriod | undefined;
}

/** Run-time check of {@link LeaderboardParameters}. */
export const leaderboardParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({
    type: z.enum(LEADERBOARD_TYPES, { error: "must be 'volume', 'referrals' or 'commission'" }),
    limit: z.optional(intInRange(1, MAX_LEADERBOARD_LIMIT)),
    period: z.optional(z.enum(LEADERBOARD_PERIODS, { error: "must be '7d', '30d' or 'all'" })),
  }),
);

const board = <T extends LeaderboardType, Row extends z.ZodMiniType>(type: T, row: Row) =>
  z.looseObject({ ok: okTrue, type: z.literal(type), period: z.enum(LEADERBOARD_PERIODS), data: z.array(row) });

/** Response of `GET /v2/leaderboard`, discriminated on `type`. */
export const leaderboardResponseSchema = /* @__PURE__ */ pure(() =>
  z.union([
    board('volume', volumeLeaderboardEntrySchema),
    board('referrals', referralsLeaderboardEntrySchema),
    board('commission', commissionLeaderboardEntrySchema),
  ]),
);

/**
 * `{ ok: true, type, period, data }`; the row shape follows `type` (`volume` rows have `accountId`/`volume`,
 * `referrals` rows `userId`/`referralCount`, `commission` rows `userId`/`totalCommission`).
 */
export type LeaderboardReturnType<T extends LeaderboardType = LeaderboardType> = Extract<
  Strict<z.infer<typeof leaderboardResponseSchema>>,
  { type: T }
>;

/** Rows typed by `type` */
export const leaderboardEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'market.leaderboard',
  path: '/v2/leaderboard',
  auth: 'public',
  params: leaderboardParamsSchema,
  response: leaderboardResponseSchema,
});

/**
 * `GET /v2/leaderboard` — ranking by volume, referrals or commission, typed by the `type` you pass. Public, `public`
 * bucket.
 *
 * @throws {RequestValidationError} missing/unknown `type`, `limit` outside 1..100, `period` not 7d/30d/all.
 * @throws {BadRequestError} the server rejected the period.
 * @throws {ServerError | ConnectionError | TimeoutError}
 *
 * @example
 * ```ts
 * import { leaderboard } from 'futures-sdk/market';
 * const board = await leaderboard(client, { type: 'volume', limit: 10 });
 * ```
 */
export async function leaderboard<T extends LeaderboardType>(
  client: BaseClient | PublicClient,
  query: LeaderboardParameters<T>,
  options?: CallOptions,
): Promise<LeaderboardReturnType<T>> {
  const ctx = contextOf(client);
  const checked = checkParams(ctx, leaderboardEndpoint, query);
  const result = await callEndpoint(ctx, leaderboardEndpoint, { checked, options });
  if (result.type !== checked['type']) {
    throw new ResponseValidationError({
      issues: [{ path: ['type'], message: `expected '${checked['type']}' (the requested type), got '${result.type}'` }],
      body: result,
      method: leaderboardEndpoint.method,
      path: leaderboardEndpoint.path,
    });
  }
  // Checked just above: the rows were validated against the shape of the requested type.
  return result as LeaderboardReturnType<T>;
}
