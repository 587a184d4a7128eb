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

/**
 * A decimal string as the server sends it (kept as a string; compare with exact arithmetic).
 *
 * @example
 * ```ts
 * import { decimalString } from 'futures-sdk';
 * const price = decimalString.parse('60000.5'); // stays a string
 * ```
 */
export const decimalString = z.string();

/**
 * `{ ok: true }`: every successful response carries it.
 *
 * @example
 * ```ts
 * import { okTrue } from 'futures-sdk';
 * okTrue.parse(body.ok); // throws unless ok === true
 * ```
 */
export const okTrue = z.literal(true);

/**
 * Order side.
 *
 * @example
 * ```ts
 * const parsed = orderSideSchema.safeParse(JSON.parse(text));
 * if (parsed.success) console.log(parsed.data);
 * ```
 */
export const orderSideSchema = z.enum(['BUY', 'SELL']);
/**
 * `BUY` or `SELL`.
 *
 * @example
 * ```ts
 * import { type OrderSide, orderSideSchema } from 'futures-sdk';
 * const value: OrderSide = orderSideSchema.parse(json);
 * ```
 */
export type OrderSide = z.infer<typeof orderSideSchema>;

/**
 * Order types.
 *
 * @example
 * ```ts
 * const parsed = orderTypeSchema.safeParse(JSON.parse(text));
 * if (parsed.success) console.log(parsed.data);
 * ```
 */
export const orderTypeSchema = openEnum([
  'LIMIT',
  'MARKET',
  'STOP',
  'STOP_MARKET',
  'TAKE_PROFIT',
  'TAKE_PROFIT_MARKET',
]);
/**
 * One of the six order types.
 *
 * @example
 * ```ts
 * import type { OrderType } from 'futures-sdk';
 * const type: OrderType = 'STOP_MARKET';
 * ```
 */
export type OrderType = 'LIMIT' | 'MARKET' | 'STOP' | 'STOP_MARKET' | 'TAKE_PROFIT' | 'TAKE_PROFIT_MARKET';

/**
 * Position side.
 *
 * @example
 * ```ts
 * const parsed = positionSideSchema.safeParse(JSON.parse(text));
 * if (parsed.success) console.log(parsed.data);
 * ```
 */
export const positionSideSchema = openEnum(['BOTH', 'LONG', 'SHORT']);
/**
 * `BOTH` (one-way mode), `LONG` or `SHORT` (hedge mode).
 *
 * @example
 * ```ts
 * import type { PositionSide } from 'futures-sdk';
 * const side: PositionSide = 'LONG'; // hedge mode
 * ```
 */
export type PositionSide = 'BOTH' | 'LONG' | 'SHORT';

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
export type MarginType = 'ISOLATED' | 'CROSSED';
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
export type PositionMode = 'ONE_WAY' | 'HEDGE';
