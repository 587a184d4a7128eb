import * as z from 'zod';

/**
 * An enum the server may extend: known values are typed, any other string is kept as it is (never rejected).
 *
 * @example
 * ```ts
 * const status = openEnum(['NEW', 'FILLED']); // z.ZodType<'NEW' | 'FILLED' | (string & {})>
 * ```
 */
export function openEnum<const T extends readonly [string, ...string[]]>(_values: T) {
  return z.string() as unknown as z.ZodType<T[number] | (string & {}), string>;
}

/** A decimal string as the server sends it (kept as a string; compare with exact arithmetic). */
export const decimalString = z.string();

/** `{ ok: true }`: every successful response carries it. */
export const okTrue = z.literal(true);

/** Order side. */
export const orderSideSchema = z.enum(['BUY', 'SELL']);
/** `BUY` or `SELL`. */
export type OrderSide = z.infer<typeof orderSideSchema>;

/** Order types. */
export const orderTypeSchema = openEnum([
  'LIMIT',
  'MARKET',
  'STOP',
  'STOP_MARKET',
  'TAKE_PROFIT',
  'TAKE_PROFIT_MARKET',
]);
/** One of the six order types. */
export type OrderType = 'LIMIT' | 'MARKET' | 'STOP' | 'STOP_MARKET' | 'TAKE_PROFIT' | 'TAKE_PROFIT_MARKET';

/** Position side. */
export const positionSideSchema = openEnum(['BOTH', 'LONG', 'SHORT']);
/** `BOTH` (one-way mode), `LONG` or `SHORT` (hedge mode). */
export type PositionSide = 'BOTH' | 'LONG' | 'SHORT';

/** Margin mode. */
export type MarginType = 'ISOLATED' | 'CROSSED';
/** Position mode. */
export type PositionMode = 'ONE_WAY' | 'HEDGE';
