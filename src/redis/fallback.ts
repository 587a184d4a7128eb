// A Redis fleet member's budget while Redis cannot count for it (unreachable, or restarted less than a window
// ago): a static share of each bucket, kept in memory, from what Redis said last. See docs/fleet.md, "Outages".
import type { BucketBudget, SlotGrant } from 'futures-sdk';

/** What Redis last said about a bucket: slots held then, and when all of them will have left the window. */
interface Seen {
  used: number;
  clearAt: number;
}

const now = () => performance.now();

export class FallbackBudget {
  /** Members to divide a bucket by: the most lanes seen held in the last minute (a member that left may still
   *  hold slots). */
  private peers = 1;
  private peersAt = 0;
  private readonly seen = new Map<string, Seen>();
  /** Slots taken here, per bucket: ticket → when taken, then when settled (a slot counts from its answer). */
  private readonly taken = new Map<string, Map<string, number>>();
  /** Settled slots Redis has not been told of yet: ticket → bucket. */
  readonly unsynced = new Map<string, string>();
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

  observe(bucket: string, used: unknown, clearMs: unknown): void {
    if (typeof used === 'number' && typeof clearMs === 'number') {
      this.seen.set(bucket, { used, clearAt: now() + clearMs });
    }
  }

  isOwn(ticket: string): boolean {
    return ticket.includes(this.prefix);
  }

  /**
   * A slot of this member's share. Until the slots Redis last reported have left the window, the share is of
   * what was left then: floor((limit − used) / members); afterwards floor(limit / members). Slots taken here count
   * against it until they leave the window.
   */
  take(bucket: string, { limit, windowMs }: BucketBudget): SlotGrant {
    if (!Number.isFinite(limit)) return { granted: true, ticket: 'unlimited' };
    const t = now();
    const mine = this.taken.get(bucket) ?? new Map<string, number>();
    this.taken.set(bucket, mine);
    for (const [ticket, at] of mine) if (at <= t - windowMs) mine.delete(ticket);
    const seen = this.seen.get(bucket);
    const busy = seen !== undefined && t < seen.clearAt;
    const share = Math.floor((busy ? limit - seen.used : limit) / this.peers);
    if (mine.size < share) {
      const ticket = `${windowMs}${this.prefix}${++this.seq}`;
      mine.set(ticket, t);
      return { granted: true, ticket };
    }
    // Asked again within a second at most: Redis may be back by then.
    const frees = [1_000, ...[...mine.values()].map((at) => at + windowMs - t)];
    if (busy) frees.push(seen.clearAt - t);
    return { granted: false, retryInMs: Math.max(1, Math.ceil(Math.min(...frees))) };
  }

  settle(bucket: string, ticket: string, settlement: 'counted' | 'refunded'): void {
    const mine = this.taken.get(bucket);
    if (settlement === 'refunded') mine?.delete(ticket);
    else if (mine?.has(ticket)) mine.set(ticket, now());
  }
}
