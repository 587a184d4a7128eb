/**
 * Everything the trading engine holds, in one place: accounts and their sub-accounts, the order and position
 * indexes, the work waiting for the clock, and the account-event subscribers. The engine's other modules are
 * stateless functions over this store, each with one job (orders, fills, positions, marks, margin, futures
 * settings, funding, transfers, the sync worker).
 *
 * Two views of every order and position are kept on purpose. `venue` is the trading venue's truth (fills land
 * there at once); `db` is what the backend database serves over REST. REST-driven changes (taker fills, cancels,
 * closes) write both; maker fills write only `venue`, and the periodic sync tick copies `venue` into `db` and
 * pushes `position_update`, which is how the spec's maker-fill latency becomes observable.
 */

import type { MarketSimulator } from '../market/simulator.ts';
import type { VirtualClock } from './clock.ts';
import { FUNDING_INTERVAL_MS } from './constants.ts';
import { badRequest, SimHttpError } from './errors.ts';
import { IdSequence } from './ids.ts';
import type { AccountState, OrderProgress, OrderState, PositionState, SubAccountState } from './state.ts';

/** Failures a test can inject into engine steps (see `ex.faults`). */
export interface EngineFaults {
  /** The venue error to fail a cancel of this order with, if one is armed. */
  takeCancelFailure(orderId: string): string | undefined;
  /** True when the close-and-switch leg `stage` must fail this time. */
  takeMarginSwitchFailure(stage: 'close' | 'switch'): boolean;
  /** True when the venue must reject this margin-type switch (`OPEN_POSITION_MARGIN_REJECT`). */
  takeMarginTypeReject(): boolean;
}

export interface EngineConfig {
  syncIntervalMs: number;
  maxOrderNotional: string;
  /** Server time a new order's database row stays PENDING_NEW before the venue's ack is recorded (0: at once). */
  venueAckDelayMs: number;
}

/**
 * An account event as the engine raises it: the state it is about, not yet a wire message (`http/routes/shapes.ts`
 * turns it into one when it is delivered, synchronously, so the message shows the state of that moment).
 */
export type EngineEvent =
  | { event: 'order_new' | 'order_canceled' | 'order_update'; order: OrderState; progress: OrderProgress }
  | { event: 'position_update'; position: PositionState };

/** The range a symbol's mark went through since the mark checks last ran. */
export interface MarkRange {
  min: string;
  max: string;
  last: string;
}

export class EngineStore {
  readonly accounts = new Map<string, AccountState>();
  readonly subs = new Map<string, SubAccountState>();
  readonly orders = new Map<string, OrderState>();
  readonly ordersByVenueId = new Map<number, OrderState>();
  readonly clientOrderIds = new Map<string, OrderState>();
  /** Orders working on the venue. */
  readonly working = new Set<OrderState>();
  /** Positions open on the venue. */
  readonly openPositions = new Set<PositionState>();
  readonly ids = new IdSequence();
  /** Mark moves not yet checked against resting orders, stops and liquidation prices. */
  readonly pendingMarks = new Map<string, MarkRange>();
  /** Orders whose database row is PENDING_NEW, with the server time their venue ack gets recorded. */
  readonly pendingAcks = new Map<OrderState, number>();
  /** True while the mark checks run (they never re-enter). */
  checkingMarks = false;
  nextSyncAt: number;
  nextFundingAt: number;

  readonly market: MarketSimulator;
  readonly clock: VirtualClock;
  readonly config: EngineConfig;
  readonly faults: EngineFaults;
  readonly #listeners = new Map<string, Set<(event: EngineEvent) => void>>();

  constructor(market: MarketSimulator, clock: VirtualClock, config: EngineConfig, faults: EngineFaults) {
    this.market = market;
    this.clock = clock;
    this.config = config;
    this.faults = faults;
    this.nextSyncAt = clock.now() + config.syncIntervalMs;
    this.nextFundingAt = (Math.floor(clock.now() / FUNDING_INTERVAL_MS) + 1) * FUNDING_INTERVAL_MS;
  }

  now(): number {
    return this.clock.now();
  }

  /** The account, or a TypeError for a test's typo (programmer API, not HTTP). */
  account(accountId: string): AccountState {
    const account = this.accounts.get(accountId);
    if (!account) throw new TypeError(`Unknown accountId ${JSON.stringify(accountId)}`);
    return account;
  }

  findAccount(accountId: string): AccountState | undefined {
    return this.accounts.get(accountId);
  }

  /** A sub-account the engine created (ids in states always are). */
  sub(subAccountId: string): SubAccountState {
    const sub = this.subs.get(subAccountId);
    if (!sub) throw new TypeError(`Unknown subAccountId ${JSON.stringify(subAccountId)}`);
    return sub;
  }

  primarySub(account: AccountState): SubAccountState | undefined {
    return account.primarySubAccountId ? account.subAccounts.get(account.primarySubAccountId) : undefined;
  }

  /** The sub-account a request names (or the primary one); 403 for another user's, 400 when there is none. */
  resolveSub(account: AccountState, subAccountId: unknown): SubAccountState {
    if (subAccountId === undefined || subAccountId === null || subAccountId === '') {
      const sub = this.primarySub(account);
      if (!sub) throw badRequest('No sub account found');
      return sub;
    }
    if (typeof subAccountId !== 'string') throw badRequest('subAccountId must be a string');
    const sub = account.subAccounts.get(subAccountId);
    if (!sub) throw new SimHttpError(403, 'Unauthorized subAccountId');
    return sub;
  }

  subscribe(accountId: string, listener: (event: EngineEvent) => void): () => void {
    const set = this.#listeners.get(accountId) ?? new Set();
    this.#listeners.set(accountId, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  emit(accountId: string, event: EngineEvent): void {
    for (const listener of this.#listeners.get(accountId) ?? []) {
      try {
        listener(event);
      } catch {
        // A subscriber's bug must not break the exchange.
      }
    }
  }

  /** Raises an order event with the order's database view of this moment. */
  emitOrder(event: 'order_new' | 'order_canceled' | 'order_update', order: OrderState, progress = order.db): void {
    this.emit(order.accountId, { event, order, progress });
  }
}
