// Every endpoint definition, for what is derived from all of them at once: the endpoint tables of docs/
// (scripts/endpoint-docs.ts), the wire-test table, the simulator's coverage check. Runtime code never imports
// this list (a bundler would then keep every endpoint): it imports the one definition it calls.
import type { Endpoint } from '../_internal/endpoint.ts';
import { activitiesEndpoint } from './account/activities.ts';
import { balanceEndpoint } from './account/balance.ts';
import { exposureEndpoint } from './account/exposure.ts';
import { pnlHistoryEndpoint } from './account/pnl-history.ts';
import { positionsEndpoint } from './account/positions.ts';
import { spotBalancesEndpoint } from './account/spot-balances.ts';
import { transfersEndpoint } from './account/transfers.ts';
import { closeAndSwitchMarginEndpoint } from './futures/close-and-switch-margin.ts';
import { setLeverageEndpoint } from './futures/set-leverage.ts';
import { setMarginTypeEndpoint } from './futures/set-margin-type.ts';
import { setPositionModeEndpoint } from './futures/set-position-mode.ts';
import { depthEndpoint } from './market/depth.ts';
import { fundingRateEndpoint } from './market/funding-rate.ts';
import { healthEndpoint } from './market/health.ts';
import { klinesEndpoint } from './market/klines.ts';
import { leaderboardEndpoint } from './market/leaderboard.ts';
import { platformStatusEndpoint } from './market/platform-status.ts';
import { platformTokensEndpoint } from './market/platform-tokens.ts';
import { symbolsEndpoint } from './market/symbols.ts';
import { ticker24hrEndpoint } from './market/ticker-24hr.ts';
import { tradesEndpoint } from './market/trades.ts';
import { cancelEndpoint } from './orders/cancel.ts';
import { cancelAllEndpoint } from './orders/cancel-all.ts';
import { closePositionEndpoint } from './orders/close-position.ts';
import { createOrderEndpoint } from './orders/create.ts';
import { createBatchEndpoint } from './orders/create-batch.ts';
import { getEndpoint } from './orders/get.ts';
import { listEndpoint } from './orders/list.ts';
import { myTradesEndpoint } from './orders/my-trades.ts';
import { openOrdersEndpoint } from './orders/open-orders.ts';
import { positionHistoryEndpoint } from './orders/position-history.ts';

/**
 * Every endpoint of the API the SDK calls, grouped by resource (orders, futures, account, market).
 * @internal
 */
export const ENDPOINTS: readonly Endpoint[] = [
  cancelEndpoint,
  cancelAllEndpoint,
  closePositionEndpoint,
  createOrderEndpoint,
  createBatchEndpoint,
  getEndpoint,
  listEndpoint,
  myTradesEndpoint,
  openOrdersEndpoint,
  positionHistoryEndpoint,
  closeAndSwitchMarginEndpoint,
  setLeverageEndpoint,
  setMarginTypeEndpoint,
  setPositionModeEndpoint,
  activitiesEndpoint,
  balanceEndpoint,
  exposureEndpoint,
  pnlHistoryEndpoint,
  positionsEndpoint,
  spotBalancesEndpoint,
  transfersEndpoint,
  depthEndpoint,
  fundingRateEndpoint,
  healthEndpoint,
  klinesEndpoint,
  leaderboardEndpoint,
  platformStatusEndpoint,
  platformTokensEndpoint,
  symbolsEndpoint,
  ticker24hrEndpoint,
  tradesEndpoint,
];
