/**
 * The trading engine's composition root. State lives in {@link EngineStore}; each job is a module of functions
 * over it:
 *
 * | module | job |
 * |---|---|
 * | `accounts.ts` | accounts, sub-accounts, per-account settings |
 * | `order-input.ts` | validation of an order body |
 * | `orders.ts` | placement rules, recording, cancels, maker fills, internal orders |
 * | `fills.ts` | what an execution does: positions, PnL, commission, trade rows |
 * | `positions.ts` | the position book and its history |
 * | `marks.ts` | mark moves: crossings, triggers, liquidations |
 * | `margin.ts` | leverage, unrealized PnL, margins, liquidation price, available balance |
 * | `futures-settings.ts` | leverage, margin mode, position mode |
 * | `closing.ts` | position close and close-and-switch-margin |
 * | `funding.ts` | the 8-hourly funding exchange |
 * | `transfers.ts` | deposits and withdrawals |
 * | `worker.ts` | catching timed work up to the clock; the position-sync worker |
 *
 * Wire shapes (what REST and the account channel send) are not the engine's: see `http/routes/shapes.ts`. Nor
 * is the HTTP edge (API keys, signatures, JWTs, rate limits, faults, routing): see `http/`, which calls the engine
 * and is never called by it.
 */

import type { MarketSimulator } from '../market/simulator.ts';
import type { VirtualClock } from './clock.ts';
import { onMark } from './marks.ts';
import { type EngineConfig, type EngineFaults, EngineStore } from './store.ts';

export type Engine = EngineStore;

export function createEngine(
  market: MarketSimulator,
  clock: VirtualClock,
  config: EngineConfig,
  faults: EngineFaults,
): Engine {
  const store = new EngineStore(market, clock, config, faults);
  market.onMarkPrice((symbol, mark) => onMark(store, symbol, mark));
  return store;
}
