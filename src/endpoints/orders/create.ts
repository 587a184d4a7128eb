import * as z from 'zod/mini';
import { callEndpoint, checkParams, defineEndpoint } from '../../_internal/endpoint.ts';
import { parseContext } from '../../_internal/issue-message.ts';
import { orderJournalInit } from '../../_internal/journal.ts';
import { uuidV4 } from '../../_internal/uuid.ts';
import { nonEmptyString, positiveDecimalParam, requiredOr, symbolParam } from '../../_internal/validate.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import { isFuturesError } from '../../errors/futures-error.ts';
import type { CallOptions } from '../../options.ts';
import { ORDER_TYPES, okTrue, venuePassthroughSchema } from '../../schemas/common.ts';
import { orderSchema } from '../../schemas/order.ts';
import type { Strict } from '../../schemas/strict.ts';
import { optionalBoolean } from '../_shared.ts';

/** Fields every order shares. Decimals are strings such as `'0.01'`. */
export interface OrderParametersBase {
  /** Contract symbol, e.g. `'BTCUSDT'`. */
  symbol: string;
  side: 'BUY' | 'SELL';
  /** Positive decimal string. */
  quantity: string;
  /** `BOTH` in one-way mode; `LONG` or `SHORT` in hedge mode. */
  positionSide?: 'BOTH' | 'LONG' | 'SHORT' | undefined;
  /** Close-only. */
  reduceOnly?: boolean | undefined;
  /** Defaults to the client's `subAccountId`. */
  subAccountId?: string | undefined;
  /** Idempotency key; when omitted, a UUID v4 the SDK reuses on every retry of this call (no second order). */
  clientOrderId?: string | undefined;
}

/** A LIMIT order: rests at `price`. */
export interface LimitOrderParameters extends OrderParametersBase {
  type: 'LIMIT';
  price: string;
  stopPrice?: never;
}

/** A MARKET order: fills at once. */
export interface MarketOrderParameters extends OrderParametersBase {
  type: 'MARKET';
  price?: never;
  stopPrice?: never;
}

/** STOP / TAKE_PROFIT: a limit order at `price` placed when the mark crosses `stopPrice`. */
export interface StopLimitOrderParameters extends OrderParametersBase {
  type: 'STOP' | 'TAKE_PROFIT';
  price: string;
  stopPrice: string;
}

/** STOP_MARKET / TAKE_PROFIT_MARKET: a market order when the mark crosses `stopPrice`. */
export interface StopMarketOrderParameters extends OrderParametersBase {
  type: 'STOP_MARKET' | 'TAKE_PROFIT_MARKET';
  price?: never;
  stopPrice: string;
}

/** Parameters of `orders.create`: a union discriminated on `type`. */
export type CreateOrderParameters =
  | LimitOrderParameters
  | MarketOrderParameters
  | StopLimitOrderParameters
  | StopMarketOrderParameters;

const ORDER_TYPES_TEXT = "'LIMIT', 'MARKET', 'STOP', 'STOP_MARKET', 'TAKE_PROFIT' or 'TAKE_PROFIT_MARKET'";

// Issues are named in this order (symbol, side, type, quantity, the rest): each branch below replaces `type` in place.
const baseShape = {
  symbol: symbolParam,
  side: z.enum(['BUY', 'SELL'], { error: requiredOr("must be 'BUY' or 'SELL'") }),
  type: z.enum(ORDER_TYPES, { error: requiredOr(`must be ${ORDER_TYPES_TEXT}`) }),
  quantity: positiveDecimalParam,
  positionSide: z.optional(z.enum(['BOTH', 'LONG', 'SHORT'], { error: "must be 'BOTH', 'LONG' or 'SHORT'" })),
  reduceOnly: optionalBoolean,
  subAccountId: z.optional(nonEmptyString),
  clientOrderId: z.optional(
    nonEmptyString.check(z.refine((id) => id.length <= 64, { error: 'must be at most 64 characters' })),
  ),
};
// Optional: in zod 4 a key whose schema is z.undefined() is still required unless marked optional.
const forbidden = (types: string) => z.optional(z.undefined({ error: `is not allowed for ${types} orders` }));

const ofType = <Type extends z.ZodMiniType, Prices extends Record<'price' | 'stopPrice', z.ZodMiniType>>(
  type: Type,
  prices: Prices,
) => z.strictObject({ ...baseShape, type, ...prices });

const stopLimit = ofType(z.enum(['STOP', 'TAKE_PROFIT']), {
  price: positiveDecimalParam,
  stopPrice: positiveDecimalParam,
});
const stopMarket = ofType(z.enum(['STOP_MARKET', 'TAKE_PROFIT_MARKET']), {
  price: forbidden('STOP_MARKET / TAKE_PROFIT_MARKET'),
  stopPrice: positiveDecimalParam,
});
// The branch for each `type` (what zod's discriminatedUnion would pick, without its 0.5 KB in every bundle).
const orderParamsByType = {
  LIMIT: ofType(z.literal('LIMIT'), { price: positiveDecimalParam, stopPrice: forbidden('LIMIT') }),
  MARKET: ofType(z.literal('MARKET'), { price: forbidden('MARKET'), stopPrice: forbidden('MARKET') }),
  STOP: stopLimit,
  TAKE_PROFIT: stopLimit,
  STOP_MARKET: stopMarket,
  TAKE_PROFIT_MARKET: stopMarket,
};
type OrderParamsBranch = (typeof orderParamsByType)[keyof typeof orderParamsByType];

// Checked when `type` is missing or unknown: a caller who passed `{}` hears about every missing parameter at once.
const orderBaseSchema = z.strictObject(
  { ...baseShape, price: z.optional(positiveDecimalParam), stopPrice: z.optional(positiveDecimalParam) },
  {
    error: (issue) =>
      issue.code === 'invalid_type' ? 'must be an object such as { symbol, side, type, quantity }' : undefined,
  },
);

/** Run-time check of {@link CreateOrderParameters}; names every bad parameter, also when `type` is missing. */
export const createOrderParamsSchema = z.pipe(
  z.unknown(),
  z.transform((input, ctx): z.output<OrderParamsBranch> => {
    const params = input === undefined ? {} : input;
    const type = typeof params === 'object' && params !== null ? (params as { type?: unknown }).type : undefined;
    const branch =
      typeof type === 'string' && Object.hasOwn(orderParamsByType, type)
        ? orderParamsByType[type as keyof typeof orderParamsByType]
        : undefined;
    const result = (branch ?? orderBaseSchema).safeParse(params, parseContext);
    if (branch && result.success) return result.data as z.output<OrderParamsBranch>;
    // Finalised issues (message and path set) pushed back as raw ones: zod keeps both and prefixes the path when
    // this schema is an item of a batch.
    for (const issue of result.error?.issues ?? [])
      ctx.issues.push({ ...issue, input: params } as (typeof ctx.issues)[number]);
    return z.NEVER;
  }),
);

/** Response of `POST /v2/orders`: a new order (`venue` set) or an idempotent replay (`idempotent: true`). */
export const createOrderResponseSchema = z.looseObject({
  ok: okTrue,
  order: orderSchema,
  venue: z.optional(venuePassthroughSchema),
  idempotent: z.optional(z.boolean()),
});
/** `{ ok: true, order, venue? , idempotent? }`. `idempotent: true` means the order already existed. */
export type CreateOrderReturnType = Strict<z.infer<typeof createOrderResponseSchema>>;

/** The order with its `clientOrderId`: the caller's, or a UUID v4 fixed for the call's retries. @internal */
export function withClientOrderId(order: Record<string, unknown>): Record<string, unknown> {
  return order['clientOrderId'] === undefined ? { ...order, clientOrderId: uuidV4() } : order;
}

/** Sets `key` on an SDK error that lacks it, read-only (not a secret: readable once sealed). @internal */
export function withOrderIds(error: unknown, key: 'clientOrderId' | 'clientOrderIds', value: unknown): unknown {
  if (value === undefined || !isFuturesError(error) || Object.hasOwn(error, key)) return error;
  try {
    Object.defineProperty(error, key, { value, enumerable: true, writable: false, configurable: true });
  } catch {
    // A frozen error (never one the SDK makes) keeps its shape.
  }
  return error;
}

/** The caller's `clientOrderId` when it is a valid one (read defensively: the params failed their check). */
function givenClientOrderId(params: unknown): string | undefined {
  try {
    const given = (params as { clientOrderId?: unknown } | null | undefined)?.clientOrderId;
    return typeof given === 'string' && given.length > 0 && given.length <= 64 ? given : undefined;
  } catch {
    return undefined;
  }
}

/** Places one order; the SDK fills a UUID v4 `clientOrderId`, so a retry cannot place a second order */
export const createOrderEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'orders.create',
  method: 'POST',
  path: '/v2/orders',
  bucket: 'orders',
  safety: 'idempotent',
  params: createOrderParamsSchema,
  subAccountDefault: true,
  prepare: withClientOrderId,
  journal: {
    entries: (body) => [orderJournalInit(body)],
    orders: (result) => [[{ id: result.order.id, symbol: result.order.symbol, status: result.order.status }]],
  },
  response: createOrderResponseSchema,
});

/**
 * `POST /v2/orders` — places one order. Auth `API_KEY (TRADE)`, `orders` bucket (300/min). Safe to retry: the
 * `clientOrderId` (yours, or a UUID v4 the SDK generates) is the same on every attempt, so the server answers a
 * repeat with the same order and `idempotent: true` instead of placing a second one.
 *
 * @throws {RequestValidationError} bad params (named field), before any network.
 * @throws {BadRequestError} insufficient balance; `reason: 'max_order_notional_exceeded'`
 *   (`err.isMaxNotionalExceeded`); "Close quantity exceeds available position quantity" (`err.isClosingOrderReserved`).
 * @throws {PermissionDeniedError} key lacks TRADE.
 * @throws {ConflictError} the `clientOrderId` belongs to another account.
 *
 * Every error it rejects with carries the `clientOrderId` the call sent in `err.clientOrderId` (a validation
 * error only when you gave the id): after `err.outcomeUnknown`, find the order with `orders.findByClientOrderId`.
 *
 * @example
 * ```ts
 * import { create } from 'futures-sdk/orders';
 * const { order } = await create(client, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
 * ```
 */
export async function create(
  client: BaseClient,
  params: CreateOrderParameters,
  options?: CallOptions,
): Promise<CreateOrderReturnType> {
  const ctx = contextOf(client);
  let checked: Record<string, unknown>;
  try {
    checked = checkParams(ctx, createOrderEndpoint, params);
  } catch (error) {
    throw withOrderIds(error, 'clientOrderId', givenClientOrderId(params));
  }
  try {
    return await callEndpoint(ctx, createOrderEndpoint, { checked, options });
  } catch (error) {
    throw withOrderIds(error, 'clientOrderId', checked['clientOrderId']);
  }
}
