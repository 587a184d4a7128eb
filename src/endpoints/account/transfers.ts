import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { intInRange, validateParams } from '../../_internal/validate.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import { paginate } from '../../helpers/paginate.ts';
import type { CallOptions } from '../../options.ts';
import { type Transfer, transferSchema } from '../../schemas/account.ts';
import { int, okTrue } from '../../schemas/common.ts';
import type { Strict } from '../../schemas/strict.ts';
import { optionalOffset } from '../_shared.ts';

/** Largest page of `GET /v2/me/transfers`. */
export const MAX_TRANSFERS_PAGE = 100;

/** Which transfers to list. */
export type TransferKind = 'deposit' | 'withdraw' | 'all';

/** Query of `GET /v2/me/transfers`. */
export interface TransfersParameters {
  /** Rows to skip (offset). */
  skip?: number | undefined;
  /** Page size, 1 to 100. */
  take?: number | undefined;
  /** Deposits, withdrawals or both. @default 'all' */
  type?: TransferKind | undefined;
}

/** Filters of `account.transfersAll` (page size is always 100). */
export interface TransfersAllParameters {
  /** Deposits, withdrawals or both. @default 'all' */
  type?: TransferKind | undefined;
}

const transferKindParam = /* @__PURE__ */ pure(() =>
  z.enum(['deposit', 'withdraw', 'all'], { error: "must be 'deposit', 'withdraw' or 'all'" }),
);

/** Run-time check of {@link TransfersParameters}. */
export const transfersParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({
    skip: optionalOffset,
    take: z.optional(intInRange(1, MAX_TRANSFERS_PAGE)),
    type: z.optional(transferKindParam),
  }),
);

/** Run-time check of {@link TransfersAllParameters}. */
export const transfersAllParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({ type: z.optional(transferKindParam) }),
);

/** Response of `GET /v2/me/transfers`. */
export const transfersResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, transfers: z.array(transferSchema), total: int() }),
);
/** `{ ok: true, transfers, total }`. */
export type TransfersReturnType = Strict<z.infer<typeof transfersResponseSchema>>;

/** `skip` ≥ 0, `take` 1..100, `type` deposit | withdraw | all */
export const transfersEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'account.transfers',
  path: '/v2/me/transfers',
  params: transfersParamsSchema,
  response: transfersResponseSchema,
});

/**
 * `GET /v2/me/transfers` — one page of deposits and withdrawals. Auth `API_KEY`, `default` bucket.
 * `transferType` is 1 (deposit) or 2 (withdraw); `SUCCESS` and `CONFIRMED` both mean done.
 *
 * @throws {RequestValidationError} `take` outside 1..100, negative `skip`, bad `type`.
 * @throws {AuthenticationError | RateLimitError | ServerError}
 *
 * @example
 * ```ts
 * import { transfers } from 'futures-sdk/account';
 * const page = await transfers(client, { take: 50 });
 * ```
 */
export async function transfers(
  client: BaseClient,
  query: TransfersParameters = {},
  options?: CallOptions,
): Promise<TransfersReturnType> {
  return await callEndpoint(contextOf(client), transfersEndpoint, { params: query, options });
}

/**
 * Every transfer over all pages of `GET /v2/me/transfers`, 100 (the documented maximum) at a time, until `total`
 * or a short page. Auth `API_KEY`, `default` bucket.
 *
 * @throws {RequestValidationError} bad `type` (when iteration starts).
 * @throws {AuthenticationError | RateLimitError | ServerError} from any page.
 *
 * @example
 * ```ts
 * import { transfersAll } from 'futures-sdk/account';
 * for await (const transfer of transfersAll(client)) console.log(transfer.id, transfer.status);
 * ```
 */
export async function* transfersAll(
  client: BaseClient,
  query: TransfersAllParameters = {},
  options?: CallOptions,
): AsyncGenerator<Transfer, void, undefined> {
  const valid = validateParams(transfersAllParamsSchema, query, 'account.transfersAll');
  yield* paginate(
    async (skip, take) => {
      const page = await transfers(client, { ...valid, skip, take }, options);
      return { items: page.transfers, total: page.total };
    },
    { pageSize: MAX_TRANSFERS_PAGE, stopOnShortPage: true },
  );
}
