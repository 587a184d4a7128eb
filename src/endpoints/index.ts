export type { ActivitiesAllParameters, ActivitiesParameters, ActivitiesReturnType } from './account/activities.ts';
export { ACTIVITIES_PAGE_SIZE, activitiesParamsSchema, activitiesResponseSchema } from './account/activities.ts';
export type { BalanceParameters, BalanceReturnType } from './account/balance.ts';
export { balanceParamsSchema, balanceResponseSchema } from './account/balance.ts';
export { type ExposureReturnType, exposureResponseSchema } from './account/exposure.ts';
export type { PnlHistoryParameters, PnlHistoryReturnType } from './account/pnl-history.ts';
export { pnlHistoryParamsSchema, pnlHistoryResponseSchema } from './account/pnl-history.ts';
export type { PositionsParameters, PositionsReturnType } from './account/positions.ts';
export { positionsParamsSchema, positionsResponseSchema } from './account/positions.ts';
export { type SpotBalancesReturnType, spotBalancesResponseSchema } from './account/spot-balances.ts';
export type {
  TransferKind,
  TransfersAllParameters,
  TransfersParameters,
  TransfersReturnType,
} from './account/transfers.ts';
export {
  MAX_TRANSFERS_PAGE,
  transfersAllParamsSchema,
  transfersParamsSchema,
  transfersResponseSchema,
} from './account/transfers.ts';
export type {
  CloseAndSwitchMarginParameters,
  CloseAndSwitchMarginReturnType,
} from './futures/close-and-switch-margin.ts';
export {
  closeAndSwitchMarginParamsSchema,
  closeAndSwitchMarginResponseSchema,
} from './futures/close-and-switch-margin.ts';
export type { SetLeverageParameters, SetLeverageReturnType } from './futures/set-leverage.ts';
export { setLeverageParamsSchema, setLeverageResponseSchema } from './futures/set-leverage.ts';
export type { SetMarginTypeParameters, SetMarginTypeReturnType } from './futures/set-margin-type.ts';
export { setMarginTypeParamsSchema, setMarginTypeResponseSchema } from './futures/set-margin-type.ts';
export type { SetPositionModeParameters, SetPositionModeReturnType } from './futures/set-position-mode.ts';
export { setPositionModeParamsSchema, setPositionModeResponseSchema } from './futures/set-position-mode.ts';
export { type DepthParameters, type DepthReturnType, depthParamsSchema, depthResponseSchema } from './market/depth.ts';
export type { FundingRateParameters, FundingRateReturnType } from './market/funding-rate.ts';
export { fundingRateParamsSchema, fundingRateResponseSchema } from './market/funding-rate.ts';
export { type HealthReturnType, healthResponseSchema } from './market/health.ts';
export type { KlinesParameters, KlinesReturnType } from './market/klines.ts';
export { klinesParamsSchema, klinesResponseSchema } from './market/klines.ts';
export type { LeaderboardParameters, LeaderboardReturnType } from './market/leaderboard.ts';
export { leaderboardParamsSchema, leaderboardResponseSchema, MAX_LEADERBOARD_LIMIT } from './market/leaderboard.ts';
export { type PlatformStatusReturnType, platformStatusResponseSchema } from './market/platform-status.ts';
export { type PlatformTokensReturnType, platformTokensResponseSchema } from './market/platform-tokens.ts';
export { type SymbolsReturnType, symbolsResponseSchema } from './market/symbols.ts';
export type { Ticker24hrParameters, Ticker24hrReturnType } from './market/ticker-24hr.ts';
export { ticker24hrParamsSchema, ticker24hrResponseSchema } from './market/ticker-24hr.ts';
export type { TradesParameters, TradesReturnType } from './market/trades.ts';
export { tradesParamsSchema, tradesResponseSchema } from './market/trades.ts';
export type { CancelOrderParameters, CancelOrderReturnType } from './orders/cancel.ts';
export { cancelOrderParamsSchema, cancelOrderResponseSchema } from './orders/cancel.ts';
export type {
  CancelAllOrdersParameters,
  CancelAllOrdersReturnType,
  CancelAllPartialResult,
} from './orders/cancel-all.ts';
export {
  CancelAllAbortedError,
  CONDITIONAL_ORDER_TYPES,
  cancelAllOrdersParamsSchema,
  cancelAllResponseSchema,
} from './orders/cancel-all.ts';
export type { ClosePositionParameters, ClosePositionReturnType } from './orders/close-position.ts';
export {
  closePositionParamsSchema,
  closePositionResponseSchema,
  closeReconciledSchema,
  closeSubmittedSchema,
} from './orders/close-position.ts';
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
export type { CreateBatchParameters, CreateBatchReturnType } from './orders/create-batch.ts';
export { createBatchParamsSchema, createBatchResponseSchema, MAX_BATCH_ORDERS } from './orders/create-batch.ts';
export type { FindByClientOrderIdParameters } from './orders/find-by-client-order-id.ts';
export { findByClientOrderIdParamsSchema } from './orders/find-by-client-order-id.ts';
export { type GetOrderReturnType, getOrderResponseSchema } from './orders/get.ts';
export type { ListOrdersParameters, ListOrdersReturnType } from './orders/list.ts';
export { listOrdersParamsSchema, listOrdersResponseSchema, MAX_ORDERS_PAGE } from './orders/list.ts';
export { type ListAllOrdersParameters, listAllOrdersParamsSchema } from './orders/list-all.ts';
export type { MyTradesParameters, MyTradesReturnType } from './orders/my-trades.ts';
export { myTradesParamsSchema, myTradesResponseSchema } from './orders/my-trades.ts';
export type { OpenOrdersParameters, OpenOrdersReturnType } from './orders/open-orders.ts';
export { openOrdersParamsSchema, openOrdersResponseSchema } from './orders/open-orders.ts';
export type { PositionHistoryParameters, PositionHistoryReturnType } from './orders/position-history.ts';
export {
  MAX_POSITION_HISTORY_PAGE,
  positionHistoryParamsSchema,
  positionHistoryResponseSchema,
} from './orders/position-history.ts';
export { ReplaceOrderError, type ReplaceOrderParameters, type ReplaceOrderReturnType } from './orders/replace.ts';
