import type { BucketBudget, SharedBudget, SlotGrant } from '../fleet/types.ts';
import type { Clock } from './clock.ts';

interface BudgetBucket {
  /** Tickets taken and not yet settled: each may reach the server at any moment, so each holds a slot now. */
  readonly inFlight: Set<string>;
  /** When each settled, counted slot was stamped (its response arrived, or its attempt ended), oldest first. */
  readonly counted: number[];
  pausedUntil: number;
}

/**
 * The in-memory {@link SharedBudget}: one member's share (`1 / share`) of each bucket, counted as the server counts
 * (on arrival, in a sliding window, 429s not at all). A slot holds the window while in flight and is re-stamped
 * when settled `'counted'`; a new one is granted only while fewer than `limit` are in the window ending now. For
 * an earlier A and a new B: either A is in the window when B starts, or A's stamp ≤ B's start − window and A
 * arrived by its stamp, so the server no longer counts A either: never over `limit` arrivals, whatever the latency.
 * @internal
 */
export class MemoryBudget implements SharedBudget {
  readonly #buckets = new Map<string, BudgetBucket>();
  #tickets = 0;

  readonly #clock: Clock;
  /** How many members share the account budget: each gets `floor(limit / share)`. */
  readonly #share: number;

  constructor(clock: Clock, share = 1) {
    this.#clock = clock;
    this.#share = share;
  }

  tryTake(bucket: string, budget: BucketBudget): SlotGrant {
    const state = this.#state(bucket);
    const now = this.#clock.now();
    if (now < state.pausedUntil) return { granted: false, retryInMs: state.pausedUntil - now, paused: true };
    const limit = Math.floor(budget.limit / this.#share);
    const { counted } = state;
    // (Past either end of the array the stamp is undefined, which compares false: the loops stop there.)
    while (counted[0]! <= now - budget.windowMs) counted.shift();
    const used = state.inFlight.size + counted.length;
    if (used < limit) {
      const ticket = String(++this.#tickets);
      state.inFlight.add(ticket);
      return { granted: true, ticket };
    }
    // used − limit + 1 stamps must leave the window; the youngest of them is counted[used − limit].
    const stamp = counted[used - limit];
    return { granted: false, retryInMs: stamp === undefined ? Infinity : stamp + budget.windowMs - now };
  }

  settle(bucket: string, ticket: string, settlement: 'counted' | 'refunded'): void {
    const state = this.#state(bucket);
    if (!state.inFlight.delete(ticket) || settlement === 'refunded') return;
    const now = this.#clock.now();
    const { counted } = state;
    // Kept sorted even if the clock was stepped back.
    let at = counted.length;
    while (counted[at - 1]! > now) at--;
    counted.splice(at, 0, now);
  }

  /** This member's share of `budget` and the slots of it in the window ending now (read-only). */
  usage(bucket: string, budget: BucketBudget): { limit: number; used: number; pausedUntil: number } {
    const state = this.#state(bucket);
    const since = this.#clock.now() - budget.windowMs;
    let used = state.inFlight.size;
    for (const stamp of state.counted) if (stamp > since) used++;
    return { limit: Math.floor(budget.limit / this.#share), used, pausedUntil: state.pausedUntil };
  }

  pause(bucket: string, forMs: number): void {
    const state = this.#state(bucket);
    state.pausedUntil = Math.max(state.pausedUntil, this.#clock.now() + forMs);
  }

  #state(bucket: string): BudgetBucket {
    let state = this.#buckets.get(bucket);
    if (!state) {
      state = { inFlight: new Set(), counted: [], pausedUntil: 0 };
      this.#buckets.set(bucket, state);
    }
    return state;
  }
}
