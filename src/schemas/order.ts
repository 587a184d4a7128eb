import * as z from 'zod';
import { decimalString, openEnum, orderSideSchema, orderTypeSchema } from './common.ts';

/** Statuses the spec names; others are kept as strings. */
export const ORDER_STATUSES = ['PENDING_NEW', 'NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED'] as const;
/** Order statuses in which an order is still working. */
export const WORKING_ORDER_STATUSES: ReadonlyArray<string> = ['PENDING_NEW', 'NEW', 'PARTIALLY_FILLED'];

/** An order status: one the spec names, or another string the server sent. */
export type OrderStatus = (typeof ORDER_STATUSES)[number] | (string & {});

/**
 * The spec's Order resource. Unknown fields are kept.
 *
 * @example
 * ```ts
 * import { orderSchema } from 'futures-sdk';
 * const order = orderSchema.parse(json); // throws if a required field is missing
 * ```
 */
export const orderSchema = z.looseObject({
  id: z.string(),
  accountId: z.string(),
  venue: z.string(),
  symbol: z.string(),
  side: orderSideSchema,
  type: orderTypeSchema,
  quantity: decimalString,
  price: decimalString.nullish(),
  stopPrice: decimalString.nullish(),
  clientOrderId: z.string().nullish(),
  venueOrderId: z.string().nullish(),
  status: openEnum(ORDER_STATUSES),
  source: z.string().optional(),
  positionSide: z.string().optional(),
  reduceOnly: z.boolean().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** An order as the server reports it. */
export type Order = z.infer<typeof orderSchema>;
