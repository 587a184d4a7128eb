// A Redis fleet member's memory of its own slots: a static share while Redis cannot count, and its slots of the
// last window to hand a restarted Redis back (docs/fleet.md, "Outages").
import type { BucketBudget, SlotGrant } from 'futures-sdk';

/** What Redis last said about a bucket: slots held then, and when all of them will have left the window. */
interface Seen {
  used: number;
  clearAt: number;
}

/** One of this member's slots: when taken, then when settled (a slot counts from its answer). */
interface Own {
  at: number;
  /** Taken on the static share (Redis did not count it). */
  local: boolean;
}

const now = () => performance.now();

export class FallbackBudget {
  /** Members to divide a bucket by: the most lanes seen held in the last minute (one that left may hold slots). */
  private peers = 1;
  private peersAt = 0;
  private readonly seen = new Map<string, Seen>();
  /** This member's slots of the last window, per bucket (with the bucket's window). */
  private readonly own = new Map<string, { windowMs: number; slots: Map<string, Own> }>();
  private seq = 0;
  private readonly prefix: string;

  constructor(memberId: string) {
    this.prefix = `:f:${memberId}:`;
  }

  lanesHeld(n: unknown): void {
    if (typeof n !== 'number' || !(n >= 1)) return;
    if (n >= this.peers || now() - this.peersAt > 60_000) {
      this.peers = n;
      this.peersAt = now();
    }
  }

  /** Notes what Redis answered a take: `ticket` when it granted one. */
  observe(bucket: string, windowMs: number, used: unknown, clearMs: unknown, ticket?: string): void {
    if (typeof used === 'number' && typeof clearMs === 'number') {
      this.seen.set(bucket, { used, clearAt: now() + clearMs });
    }
    if (ticket !== undefined) this.slots(bucket, windowMs).set(ticket, { at: now(), local: false });
  }

  private slots(bucket: string, windowMs: number): Map<string, Own> {
    const entry = this.own.get(bucket) ?? { windowMs, slots: new Map<string, Own>() };
    entry.windowMs = windowMs;
    this.own.set(bucket, entry);
    const t = now();
    for (const [ticket, slot] of entry.slots) if (slot.at <= t - windowMs) entry.slots.delete(ticket);
    return entry.slots;
  }

  /**
   * A slot of the static share: floor((limit − used) / members) until the slots Redis last reported leave the
   * window, then floor(limit / members). Slots taken here count against it until they leave the window.
   */
  take(bucket: string, { limit, windowMs }: BucketBudget): SlotGrant {
    if (!Number.isFinite(limit)) return { granted: true, ticket: 'unlimited' };
    const t = now();
    const slots = this.slots(bucket, windowMs);
    const local = [...slots.values()].filter((s) => s.local);
    const seen = this.seen.get(bucket);
    const busy = seen !== undefined && t < seen.clearAt;
    if (local.length < Math.floor((busy ? limit - seen.used : limit) / this.peers)) {
      const ticket = `${windowMs}${this.prefix}${++this.seq}`;
      slots.set(ticket, { at: t, local: true });
      return { granted: true, ticket };
    }
    // Asked again within a second at most: Redis may be back by then.
    const frees = [1_000, ...local.map((s) => s.at + windowMs - t)];
    if (busy) frees.push(seen.clearAt - t);
    return { granted: false, retryInMs: Math.max(1, Math.ceil(Math.min(...frees))) };
  }

  settle(bucket: string, ticket: string, settlement: 'counted' | 'refunded'): void {
    const slots = this.own.get(bucket)?.slots;
    if (settlement === 'refunded') slots?.delete(ticket);
    else if (slots?.has(ticket)) slots.get(ticket)!.at = now();
  }

  /** This member's slots of the last window, per bucket: [windowMs, ticket, ageMs, ticket, ageMs, …]. */
  slotsToRestore(): Array<[string, Array<string | number>]> {
    const t = now();
    return [...this.own].map(([bucket, { windowMs }]) => [
      bucket,
      [windowMs, ...[...this.slots(bucket, windowMs)].flatMap(([ticket, s]) => [ticket, Math.floor(t - s.at)])],
    ]);
  }
}
