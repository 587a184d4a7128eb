import * as z from 'zod/mini';
import { pure } from '../_internal/pure.ts';
import {
  decimalString,
  int,
  type ORDER_TYPES,
  openEnum,
  orderSideSchema,
  orderTypeSchema,
  positionSideSchema,
} from './common.ts';
import type { Strict } from './strict.ts';

/** Statuses the spec names; others are kept as strings. */
export const ORDER_STATUSES = ['PENDING_NEW', 'NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED'] as const;
/** Order statuses in which an order is still working. */
export const WORKING_ORDER_STATUSES: ReadonlyArray<string> = ['PENDING_NEW', 'NEW', 'PARTIALLY_FILLED'];

/** An order status: one the spec names, or another string the server sent. */
export type OrderStatus = (typeof ORDER_STATUSES)[number] | (string & {});

/**
 * The spec's Order resource (unknown fields kept). `status` is an open enum, `side` and `type` closed. `price` is
 * set for priced orders only, `stopPrice` for conditional ones; `clientOrderId` is null on orders the server placed
 * itself (e.g. the closing order of `closePosition`).
 */
export const orderSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    id: z.string(),
    accountId: z.string(),
    venue: z.string(),
    symbol: z.string(),
    side: orderSideSchema,
    type: orderTypeSchema,
    quantity: decimalString,
    price: z.nullish(decimalString),
    stopPrice: z.nullish(decimalString),
    clientOrderId: z.nullish(z.string()),
    venueOrderId: z.string(),
    status: openEnum<(typeof ORDER_STATUSES)[number]>(),
    source: z.string(),
    positionSide: z.optional(positionSideSchema),
    reduceOnly: z.optional(z.boolean()),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
);
/** An order as the server reports it. */
export type Order = Strict<z.infer<typeof orderSchema>>;

/** An item of the `POST /v2/orders/batch` response: `orderId`, `symbol`, `status` if `success`, else `error`. */
export const batchOrderResultSchema = /* @__PURE__ */ pure(() =>
  z.union([
    z.looseObject({
      index: int(),
      success: z.literal(true),
      orderId: z.string(),
      symbol: z.string(),
      status: openEnum<(typeof ORDER_STATUSES)[number]>(),
      idempotent: z.optional(z.boolean()),
    }),
    z.looseObject({
      index: int(),
      success: z.literal(false),
      error: z.string(),
      idempotent: z.optional(z.boolean()),
    }),
  ]),
);
/** One item result of a batch: placed (`success: true`) or rejected (`success: false` with `error`). */
export type BatchOrderResult = Strict<z.infer<typeof batchOrderResultSchema>>;

/** A cancel-all `results` entry; one not `CANCELED` (`FAILED`, or another string kept) carries `error`. */
export const cancelAllResultEntrySchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    orderId: z.string(),
    symbol: z.string(),
    status: openEnum<'CANCELED' | 'FAILED'>(),
    error: z.optional(z.string()),
    /** Set (to `true`) by the SDK on the entries of `includeConditional`; the server never sends it. */
    conditional: z.optional(z.boolean()),
  }),
);
/** One order's outcome in a cancel-all. */
export type CancelAllResultEntry = Strict<z.infer<typeof cancelAllResultEntrySchema>>;

/**
 * A live open order as the venue reports it (`GET /v2/futures/open-orders`), venue names: integer `orderId`,
 * `origQty` / `executedQty`, `time` in ms; `type` and `status` are the venue's own values (open enums).
 */
export const venueOpenOrderSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    symbol: z.string(),
    orderId: int(),
    side: orderSideSchema,
    type: openEnum<(typeof ORDER_TYPES)[number]>(),
    price: decimalString,
    origQty: decimalString,
    executedQty: decimalString,
    status: openEnum<(typeof ORDER_STATUSES)[number]>(),
    time: int(),
  }),
);
/** A venue open order (venue names, integer `orderId`). */
export type VenueOpenOrder = Strict<z.infer<typeof venueOpenOrderSchema>>;
