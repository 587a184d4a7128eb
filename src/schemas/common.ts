import * as z from 'zod/mini';
import { pure } from '../_internal/pure.ts';
import type { Strict } from './strict.ts';

/**
 * An enum the server may extend: known values are typed, any other string is kept as it is (never rejected).
 * The contract names the open ones: order status, transfer status, closeReason, event names. Every other enum of
 * the spec is closed and parsed with `z.enum`.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(_values: T) {
  return z.string() as unknown as z.ZodMiniType<T[number] | (string & {}), string>;
}

/**
 * A decimal string as the server sends it (kept as a string; compare with exact arithmetic).
 */
export const decimalString = /* @__PURE__ */ pure(() => z.string());

/**
 * `{ ok: true }`: every successful response carries it.
 */
export const okTrue = /* @__PURE__ */ pure(() => z.literal(true));

/**
 * The `venue` object many responses carry: the underlying venue's raw response, with the venue's own field names
 * (the spec does not document its contents, so every field is kept as sent).
 *
 * @example
 * ```ts
 * const { venue } = await client.orders.cancel(orderId);
 * console.log(venue['orderId']); // venue names, not normalised
 * ```
 */
export const venuePassthroughSchema = /* @__PURE__ */ pure(() => z.record(z.string(), z.unknown()));

/**
 * Order side.
 *
 * @example
 * ```ts
 * const parsed = orderSideSchema.safeParse(JSON.parse(text));
 * if (parsed.success) console.log(parsed.data);
 * ```
 */
export const orderSideSchema = /* @__PURE__ */ pure(() => z.enum(['BUY', 'SELL']));
/**
 * `BUY` or `SELL`.
 *
 * @example
 * ```ts
 * import { type OrderSide, orderSideSchema } from 'futures-sdk';
 * const value: OrderSide = orderSideSchema.parse(json);
 * ```
 */
export type OrderSide = Strict<z.infer<typeof orderSideSchema>>;

/**
 * The six order types of the spec.
 *
 * @example
 * ```ts
 * import { ORDER_TYPES } from 'futures-sdk';
 * const known = (ORDER_TYPES as readonly string[]).includes(userInput);
 * ```
 */
export const ORDER_TYPES = ['LIMIT', 'MARKET', 'STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET'] as const;

/**
 * Order types: the spec's closed list of six (an unknown type is a `ResponseValidationError`).
 *
 * @example
 * ```ts
 * const parsed = orderTypeSchema.safeParse(JSON.parse(text));
 * if (parsed.success) console.log(parsed.data);
 * ```
 */
export const orderTypeSchema = /* @__PURE__ */ pure(() => z.enum(ORDER_TYPES));
/**
 * One of the six order types.
 *
 * @example
 * ```ts
 * import type { OrderType } from 'futures-sdk';
 * const type: OrderType = 'STOP_MARKET';
 * ```
 */
export type OrderType = Strict<z.infer<typeof orderTypeSchema>>;

/**
 * Position side: the spec's closed enum `BOTH` | `LONG` | `SHORT`.
 *
 * @example
 * ```ts
 * const parsed = positionSideSchema.safeParse(JSON.parse(text));
 * if (parsed.success) console.log(parsed.data);
 * ```
 */
export const positionSideSchema = /* @__PURE__ */ pure(() => z.enum(['BOTH', 'LONG', 'SHORT']));
/**
 * `BOTH` (one-way mode), `LONG` or `SHORT` (hedge mode).
 *
 * @example
 * ```ts
 * import type { PositionSide } from 'futures-sdk';
 * const side: PositionSide = 'LONG'; // hedge mode
 * ```
 */
export type PositionSide = Strict<z.infer<typeof positionSideSchema>>;

/**
 * Margin mode: the spec's closed enum `ISOLATED` | `CROSSED`.
 *
 * @example
 * ```ts
 * const parsed = marginTypeSchema.safeParse(JSON.parse(text));
 * if (parsed.success) console.log(parsed.data);
 * ```
 */
export const marginTypeSchema = /* @__PURE__ */ pure(() => z.enum(['ISOLATED', 'CROSSED']));
/**
 * Margin mode.
 *
 * @example
 * ```ts
 * import type { MarginType } from 'futures-sdk';
 * const mode: MarginType = 'ISOLATED';
 * await client.futures.setMarginType({ symbol: 'BTCUSDT', marginType: mode });
 * ```
 */
export type MarginType = Strict<z.infer<typeof marginTypeSchema>>;
/**
 * Position mode: the spec's closed enum `ONE_WAY` | `HEDGE`.
 *
 * @example
 * ```ts
 * const parsed = positionModeSchema.safeParse(JSON.parse(text));
 * if (parsed.success) console.log(parsed.data);
 * ```
 */
export const positionModeSchema = /* @__PURE__ */ pure(() => z.enum(['ONE_WAY', 'HEDGE']));
/**
 * Position mode.
 *
 * @example
 * ```ts
 * import type { PositionMode } from 'futures-sdk';
 * const mode: PositionMode = 'HEDGE';
 * await client.futures.setPositionMode({ positionMode: mode });
 * ```
 */
export type PositionMode = Strict<z.infer<typeof positionModeSchema>>;
