import * as z from 'zod/mini';
import { pure } from '../_internal/pure.ts';
import type { Strict } from './strict.ts';

/**
 * An enum the server may extend: known values typed, any other string kept. Only the contract's open ones (order
 * and transfer status, closeReason, event names); the spec's other enums are closed (`z.enum`).
 */
export function openEnum<Known extends string>() {
  return z.string() as unknown as z.ZodMiniType<Known | (string & {}), string>;
}

/** A check that a number is a safe integer: what `z.int()` checks, without zod's number formats (0.3 KB gzip). */
export const integerCheck = (error: string) => z.refine(Number.isSafeInteger, { error });

/** A safe integer as the server sends it (counts, ids, ms epochs). */
export const int = () => z.number().check(integerCheck('Invalid input: expected int'));

/**
 * An array of `kinds.length` items, each a safe integer (`n`) or a string (`s`): a candle or a book level checked
 * without zod's tuple (0.5 KB gzip). A bad one is reported at the array, not the item.
 */
export const tupleOf = <Tuple>(kinds: string) =>
  z.custom<Tuple>(
    (value) =>
      Array.isArray(value) &&
      value.length === kinds.length &&
      value.every((item, index) => (kinds[index] === 'n' ? Number.isSafeInteger(item) : typeof item === 'string')),
  );

/** A decimal string as the server sends it (kept as a string; compare with exact arithmetic). */
export const decimalString = /* @__PURE__ */ pure(() => z.string());

/** `{ ok: true }`: every successful response carries it. */
export const okTrue = /* @__PURE__ */ pure(() => z.literal(true));

/** A response's `venue` object: the venue's raw response, every field kept as sent (the spec leaves it open). */
export const venuePassthroughSchema = /* @__PURE__ */ pure(() => z.looseObject({}));

/** Order side. */
export const orderSideSchema = /* @__PURE__ */ pure(() => z.enum(['BUY', 'SELL']));
/** `BUY` or `SELL`. */
export type OrderSide = Strict<z.infer<typeof orderSideSchema>>;

/** The six order types of the spec. */
export const ORDER_TYPES = ['LIMIT', 'MARKET', 'STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET'] as const;

/** Order types: the spec's closed list of six (an unknown type is a `ResponseValidationError`). */
export const orderTypeSchema = /* @__PURE__ */ pure(() => z.enum(ORDER_TYPES));
/** One of the six order types. */
export type OrderType = Strict<z.infer<typeof orderTypeSchema>>;

/** Position side: the spec's closed enum `BOTH` | `LONG` | `SHORT`. */
export const positionSideSchema = /* @__PURE__ */ pure(() => z.enum(['BOTH', 'LONG', 'SHORT']));
/** `BOTH` (one-way mode), `LONG` or `SHORT` (hedge mode). */
export type PositionSide = Strict<z.infer<typeof positionSideSchema>>;

/** Margin mode: the spec's closed enum `ISOLATED` | `CROSSED`. */
export const marginTypeSchema = /* @__PURE__ */ pure(() => z.enum(['ISOLATED', 'CROSSED']));
/** Margin mode. */
export type MarginType = Strict<z.infer<typeof marginTypeSchema>>;
/** Position mode: the spec's closed enum `ONE_WAY` | `HEDGE`. */
export const positionModeSchema = /* @__PURE__ */ pure(() => z.enum(['ONE_WAY', 'HEDGE']));
/** Position mode. */
export type PositionMode = Strict<z.infer<typeof positionModeSchema>>;
