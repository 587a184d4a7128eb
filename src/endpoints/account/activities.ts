import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { validateParams } from '../../_internal/validate.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import { paginate } from '../../helpers/paginate.ts';
import type { CallOptions } from '../../options.ts';
import { type Activity, activitySchema, activityTotalsSchema } from '../../schemas/account.ts';
import { int, okTrue } from '../../schemas/common.ts';
import type { Strict } from '../../schemas/strict.ts';
import { optionalOffset, optionalPositiveInt } from '../_shared.ts';

/**
 * Page size `account.activitiesAll` asks for. The spec states no maximum for `take`, so the walk advances by the
 * rows received and stops at `total` or an empty page (correct even if the server caps pages lower).
 */
export const ACTIVITIES_PAGE_SIZE = 100;

/** Query of `GET /v2/me/activities`. */
export interface ActivitiesParameters {
  /** Rows to skip (offset). */
  skip?: number | undefined;
  /** Page size (the server's default and maximum are not documented). */
  take?: number | undefined;
}

/** Filters of `account.activitiesAll`: none today (the object is accepted for forward compatibility). */
export type ActivitiesAllParameters = Record<string, never>;

/** Run-time check of {@link ActivitiesParameters}. */
export const activitiesParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({ skip: optionalOffset, take: optionalPositiveInt }),
);

/** Response of `GET /v2/me/activities`: entries are under `data` (not `activities`). */
export const activitiesResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, data: z.array(activitySchema), total: int(), totals: activityTotalsSchema }),
);
/** `{ ok: true, data: Activity[], total, totals }`; `totals` is account-wide and ignores paging. */
export type ActivitiesReturnType = Strict<z.infer<typeof activitiesResponseSchema>>;

/** `skip`, `take` (max not documented) */
export const activitiesEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'account.activities',
  path: '/v2/me/activities',
  params: activitiesParamsSchema,
  response: activitiesResponseSchema,
});

/**
 * `GET /v2/me/activities` — one page of the activity feed (orders, executions, transfers; narrow on `type`). Auth
 * `API_KEY`, `default` bucket.
 *
 * @throws {RequestValidationError} negative `skip`, `take` < 1, unknown keys.
 * @throws {AuthenticationError | RateLimitError | ServerError}
 *
 * @example
 * ```ts
 * import { activities } from 'futures-sdk/account';
 * const page = await activities(client);
 * ```
 */
export async function activities(
  client: BaseClient,
  query: ActivitiesParameters = {},
  options?: CallOptions,
): Promise<ActivitiesReturnType> {
  return await callEndpoint(contextOf(client), activitiesEndpoint, { params: query, options });
}

/**
 * Every activity over all pages of `GET /v2/me/activities`, {@link ACTIVITIES_PAGE_SIZE} at a time, until `total`
 * or an empty page. Auth `API_KEY`, `default` bucket.
 *
 * @throws {RequestValidationError} unknown keys (when iteration starts).
 * @throws {AuthenticationError | RateLimitError | ServerError} from any page.
 *
 * @example
 * ```ts
 * import { activitiesAll } from 'futures-sdk/account';
 * for await (const activity of activitiesAll(client)) console.log(activity);
 * ```
 */
export async function* activitiesAll(
  client: BaseClient,
  query: ActivitiesAllParameters = {},
  options?: CallOptions,
): AsyncGenerator<Activity, void, undefined> {
  validateParams(z.strictObject({}), query, 'account.activitiesAll');
  yield* paginate(
    async (skip, take) => {
      const page = await activities(client, { skip, take }, options);
      return { items: page.data, total: page.total };
    },
    { pageSize: ACTIVITIES_PAGE_SIZE, stopOnShortPage: false },
  );
}
