export * from './account.ts';
// openEnum, decimalString, okTrue, int, integerCheck and tupleOf are building blocks of our schemas, not API: they stay internal.
export {
  type MarginType,
  marginTypeSchema,
  ORDER_TYPES,
  type OrderSide,
  type OrderType,
  orderSideSchema,
  orderTypeSchema,
  type PositionMode,
  type PositionSide,
  positionModeSchema,
  positionSideSchema,
  venuePassthroughSchema,
} from './common.ts';
export * from './market.ts';
export * from './order.ts';
export * from './position.ts';
export type { Strict, WithUnknownFields } from './strict.ts';
export * from './trade.ts';
