import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { symbolParam } from '../../_internal/validate.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import { integerCheck, okTrue } from '../../schemas/common.ts';
import type { Strict } from '../../schemas/strict.ts';
import { accountTradeSchema } from '../../schemas/trade.ts';
import { nonNegative, subAccountIdParam } from '../_shared.ts';

/** Query of `GET /v2/futures/myTrades`. */
export interface MyTradesParameters {
  /** Contract symbol. Required. */
  symbol: string;
  /** Only trades with `id` strictly greater than this (pass the last id you saw to poll incrementally). */
  fromId?: number | undefined;
  /** Sub-account; defaults to the client's `subAccountId`. */
  subAccountId?: string | undefined;
}

/** Run-time check of {@link MyTradesParameters}. */
export const myTradesParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({
    symbol: symbolParam,
    fromId: z.optional(
      z.number({ error: 'must be a trade id (integer)' }).check(integerCheck('must be an integer'), nonNegative),
    ),
    subAccountId: subAccountIdParam,
  }),
);

/** Response of `GET /v2/futures/myTrades`. */
export const myTradesResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, data: z.array(accountTradeSchema) }),
);
/** `{ ok: true, data: AccountTrade[] }`: taker fills only. */
export type MyTradesReturnType = Strict<z.infer<typeof myTradesResponseSchema>>;

/** Your fills of a symbol, from `fromId` */
export const myTradesEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'orders.myTrades',
  path: '/v2/futures/myTrades',
  params: myTradesParamsSchema,
  subAccountDefault: true,
  response: myTradesResponseSchema,
});

/**
 * `GET /v2/futures/myTrades` — the caller's fills on one symbol. Auth `API_KEY`, `default` bucket. Only TAKER fills are
 * listed: fills of your resting (maker) limit orders never appear here. Detect those as position changes
 * (`client.watch()` emits `maker_fill`).
 *
 * @throws {RequestValidationError} missing `symbol`, bad `fromId`.
 * @throws {PermissionDeniedError} `Unauthorized subAccountId`.
 * @throws {AuthenticationError | RateLimitError | ServerError}
 *
 * @example
 * ```ts
 * import { myTrades } from 'futures-sdk/orders';
 * const { data } = await myTrades(client, { symbol: 'BTCUSDT' });
 * ```
 */
export async function myTrades(
  client: BaseClient,
  query: MyTradesParameters,
  options?: CallOptions,
): Promise<MyTradesReturnType> {
  return await callEndpoint(contextOf(client), myTradesEndpoint, { params: query, options });
}
