// What a waiting call and the limiter exchange: the slot, the call's description, a budget's checked answer.
import type { SlotGrant } from '../fleet/types.ts';
import type { CallPriority } from './endpoint-call.ts';

/** A slot held by one attempt, settled once: `'refunded'` when the server certainly did not count it. */
export interface Slot {
  /** Set just before the request leaves: from then on the server may count it. */
  sent: boolean;
  settle(settlement: 'counted' | 'refunded'): void;
}

export const NO_SLOT: Slot = { sent: false, settle() {} };

/** What a call tells the limiter about itself while it waits. */
export interface AcquireOptions {
  priority: CallPriority;
  /** Cancel, cancel-all, close-position: sent as probes while the bucket is paused, never refused by a pause. */
  killSwitch?: boolean | undefined;
  /** A retry after this call's own 429: it waits out the pause (already bounded by maxRetryAfterMs). */
  waitOutPause?: boolean | undefined;
  /** The call's attempt deadline: a pause longer than this fails the call at once instead of holding it. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  method: string;
  path: string;
}

export interface Waiter extends AcquireOptions {
  resolve(slot: Slot): void;
  reject(error: unknown): void;
  /** Whether the info line about waiting out a pause was logged already. */
  toldOfPause: boolean;
  detach(): void;
}

export const PRIORITIES: readonly CallPriority[] = ['trading', 'normal', 'background'];

/** A budget is user-replaceable code: its answer is checked before the pump trusts it. */
export function isSlotGrant(answer: unknown): answer is SlotGrant {
  if (typeof answer !== 'object' || answer === null) return false;
  const grant = answer as { granted?: unknown; ticket?: unknown; retryInMs?: unknown };
  if (grant.granted === true) return typeof grant.ticket === 'string';
  return grant.granted === false && typeof grant.retryInMs === 'number' && grant.retryInMs >= 0;
}
