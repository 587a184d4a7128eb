export type { PositionsParameters, PositionsReturnType } from './account/positions.ts';
export { positionsResponseSchema } from './account/positions.ts';
export type { HealthReturnType } from './market/health.ts';
export { healthResponseSchema } from './market/health.ts';
export type { SymbolsReturnType } from './market/symbols.ts';
export { symbolsResponseSchema } from './market/symbols.ts';
export type {
  CreateOrderParameters,
  CreateOrderReturnType,
  LimitOrderParameters,
  MarketOrderParameters,
  OrderParametersBase,
  StopLimitOrderParameters,
  StopMarketOrderParameters,
} from './orders/create.ts';
export { createOrderParamsSchema, createOrderResponseSchema } from './orders/create.ts';
