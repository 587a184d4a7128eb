import { randomUUID } from 'node:crypto';
// Types by the main entry's name: the published .d.ts then refers to `futures-sdk`'s own declarations (options.ts).
import type { BucketBudget, FleetLane, SharedBudget, SlotGrant } from 'futures-sdk';
import { ConfigurationError } from '../errors/configuration-error.ts';
import { FleetUnavailableError } from '../errors/fleet-unavailable-error.ts';
import { FuturesError } from '../errors/futures-error.ts';
import { closeOwned, type OwnedClient, openClient, waitReady } from './connection.ts';
import { FallbackBudget } from './fallback.ts';
import {
  type RedisFleet,
  type RedisFleetClient,
  type RedisFleetOptions,
  type Resolved,
  resolveOptions,
} from './options.ts';
import * as lua from './scripts.ts';

const JOIN_RETRY_MS = 200;

/** A lease as this member sees it: valid until the earlier of two local deadlines (monotonic and wall clock). */
interface Lease {
  index: number;
  monoDeadline: number;
  wallDeadline: number;
}

/** When a request left, on both clocks a lease is timed with. */
type SentAt = { mono: number; wall: number };
const sentAt = (): SentAt => ({ mono: performance.now(), wall: Date.now() });

type ScriptReply = [number, string | number, ...unknown[]];
type BucketName = Parameters<SharedBudget['tryTake']>[0];

class RedisFleetMember implements RedisFleet {
  readonly memberId = randomUUID();
  readonly budget: SharedBudget = {
    tryTake: (bucket, budget) => this.#tryTake(bucket, budget),
    settle: (bucket, ticket, settlement) => this.#settle(bucket, ticket, settlement),
    pause: (bucket, forMs) => this.#pause(bucket, forMs),
  };
  readonly #keys: { lanes: string; prefix: string };
  readonly #config: string;
  #lease: Lease | undefined;
  /** The last lane this member held (kept after a lapse, so it can take that same lane back). */
  #lastIndex: number | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #maintaining: Promise<void> = Promise.resolve();
  #lastProblem = 'no lease yet';
  /** The last connection error of a connection the fleet opened (commands then fail with a vaguer message). */
  #connectionProblem: string | undefined;
  /** Redis failed a command since the last renewal: it may have missed (or lost) some of this member's slots. */
  #missed = false;
  readonly #client: RedisFleetClient;
  readonly #owned: OwnedClient | undefined;
  readonly #o: Resolved;
  readonly #fallback = new FallbackBudget(this.memberId);

  constructor(client: RedisFleetClient, owned: OwnedClient | undefined, o: Resolved) {
    this.#client = client;
    this.#owned = owned;
    this.#o = o;
    owned?.on('error', (error) => {
      this.#connectionProblem = describe(error);
    });
    const prefix = `futures-sdk:{${o.namespace}}:`;
    this.#keys = { lanes: `${prefix}lanes`, prefix };
    this.#config = `${o.maxMembers}:${o.leaseTtlMs}:${o.laneRestMs}`;
  }

  lane(): FleetLane | Promise<FleetLane> {
    if (this.#closed) return Promise.reject(closedError());
    const lease = this.#lease;
    if (this.#isLive(lease)) return { index: lease.index, count: this.#o.maxMembers };
    return Promise.reject(
      new FleetUnavailableError(
        'This fleet member holds no timestamp lane (its Redis lease could not be renewed in time); nothing was signed or sent',
        { details: this.#lastProblem },
      ),
    );
  }

  #isLive(lease: Lease | undefined): lease is Lease {
    return lease !== undefined && performance.now() < lease.monoDeadline && Date.now() < lease.wallDeadline;
  }

  /** Holds a lease of `leaseMs` granted to a request sent at `sent` (docs/fleet.md, "Stop before the lease…"). */
  #leased(index: number, leaseMs: number, lanesHeld: unknown, sent: SentAt): void {
    // Counted from the send (the lease started later on Redis), minus a margin for the clocks' different rates.
    const usable = leaseMs - Math.max(50, Math.ceil(leaseMs / 100));
    this.#lease = { index, monoDeadline: sent.mono + usable, wallDeadline: sent.wall + usable };
    this.#fallback.lanesHeld(lanesHeld);
  }

  /** Leases a lane, retrying until `joinTimeoutMs`; rejects with FleetUnavailableError or ConfigurationError. */
  async join(signal: AbortSignal | undefined): Promise<void> {
    const giveUpAt = performance.now() + this.#o.joinTimeoutMs;
    for (;;) {
      if (signal?.aborted) throw new FleetUnavailableError('Joining the fleet was aborted', { cause: signal.reason });
      let waitMs = JOIN_RETRY_MS;
      if (this.#owned) await waitReady(this.#owned, JOIN_RETRY_MS * 5);
      try {
        const acquired = await this.#acquire();
        if (acquired === 'held') break;
        waitMs = acquired;
      } catch (error) {
        if (error instanceof ConfigurationError) throw error;
        this.#lastProblem = describe(error);
      }
      const left = giveUpAt - performance.now();
      if (left <= 0) {
        throw new FleetUnavailableError(
          `Could not lease a timestamp lane in namespace "${this.#o.namespace}" within ${this.#o.joinTimeoutMs} ms`,
          { details: this.#lastProblem },
        );
      }
      // Redis counts its uptime in whole seconds: the last second is polled, to join soon after it turns.
      const pause = waitMs > 1_000 ? waitMs - 1_000 : Math.min(waitMs, JOIN_RETRY_MS);
      await sleep(Math.min(Math.max(pause, 10), left, 5_000), signal);
    }
    this.#schedule(this.#o.leaseTtlMs / 3);
  }

  /** One lease attempt: 'held', or how long to wait before the next. */
  async #acquire(): Promise<'held' | number> {
    const sent = sentAt();
    const { maxMembers, leaseTtlMs, laneRestMs } = this.#o;
    const [code, value, held] = await this.#runLane(lua.ACQUIRE_LANE, maxMembers, leaseTtlMs, laneRestMs, this.#config);
    if (code >= 0) {
      this.#leased(code, Number(value), held, sent);
      this.#lastIndex = code;
      return 'held';
    }
    if (code === -1) throw this.#configMismatch(String(value));
    this.#lastProblem =
      code === -2
        ? `Redis started less than leaseTtlMs + laneRestMs ago and may have lost live leases; ${value} ms to go`
        : `every lane (${this.#o.maxMembers}) is held or resting; the next frees in ${value} ms`;
    return Number(value);
  }

  #configMismatch(existing: string): ConfigurationError {
    const [maxMembers, leaseTtlMs, laneRestMs] = existing.split(':');
    return new ConfigurationError(
      `Fleet namespace "${this.#o.namespace}" is in use with maxMembers ${maxMembers}, leaseTtlMs ${leaseTtlMs}, ` +
        `laneRestMs ${laneRestMs}; this member asked for ${this.#o.maxMembers}, ${this.#o.leaseTtlMs}, ${this.#o.laneRestMs}`,
    );
  }

  #schedule(ms: number): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#maintaining = this.#maintain();
    }, ms);
    // The renewal timer alone must not keep a process alive.
    this.#timer.unref?.();
  }

  /** Renews the lease (or takes a lane back after losing it), then schedules the next round. */
  async #maintain(): Promise<void> {
    if (this.#closed) return;
    let next = this.#o.leaseTtlMs / 3;
    try {
      const lease = this.#lease;
      const index = lease?.index ?? this.#lastIndex;
      if (index === undefined) {
        const acquired = await this.#acquire();
        if (acquired !== 'held') next = Math.min(Math.max(acquired, 10), this.#o.leaseTtlMs / 3);
      } else {
        const alive = this.#isLive(lease);
        const sent = sentAt();
        const { leaseTtlMs, laneRestMs } = this.#o;
        const args = [index, leaseTtlMs, laneRestMs, this.#config, alive ? '1' : '0'];
        const [code, value, held, restored] = await this.#runLane(lua.RENEW_LANE, ...args);
        if (this.#closed) return;
        if (code >= 0) {
          this.#leased(code, Number(value), held, sent);
          if (this.#missed || restored === 1) await this.#restoreSlots();
        } else {
          // -4: held by another (Redis lost data): stop signing at once. -5 or -1: record gone or namespace changed.
          this.#lease = undefined;
          this.#lastIndex = undefined;
          this.#lastProblem =
            code === -4 ? `lane ${index} is held by another member (Redis lost data?)` : `lane ${index} lapsed`;
          if (code === -5) await this.#restoreSlots();
          next = 10;
        }
      }
    } catch (error) {
      this.#lastProblem = describe(error);
      this.#missed = true;
      // Retry soon (re-registered as soon as Redis answers); the lease stays usable until its local deadline.
      next = Math.min(this.#o.leaseTtlMs / 10, 250);
    }
    this.#schedule(next);
  }

  async #tryTake(bucket: BucketName, budget: BucketBudget): Promise<SlotGrant> {
    if (this.#closed) throw closedError();
    const { limit, windowMs } = budget;
    if (!(limit >= 0) || !Number.isInteger(windowMs) || windowMs < 1) {
      throw new ConfigurationError(`Invalid budget for bucket "${bucket}": limit ${limit}, windowMs ${windowMs}`);
    }
    // Redis failed lately: the renewal loop (every 250 ms meanwhile) says when it answers again.
    if (this.#missed && this.#isLive(this.#lease)) return this.#fallback.take(bucket, budget);
    const k = this.#bucketKeys(bucket);
    const keys = [k.counted, k.flight, k.pause, `${this.#keys.prefix}seq`];
    const args = [Number.isFinite(limit) ? Math.floor(limit) : -1, windowMs, this.#o.leaseTtlMs];
    let reply: ScriptReply;
    try {
      reply = await this.#run(lua.TAKE_SLOT, keys, args);
    } catch (error) {
      this.#lost();
      return this.#staticShare(bucket, budget, error);
    }
    const [granted, value, paused, used, clearMs] = reply;
    // -1: Redis restarted moments ago; members may not all have handed back their slots yet.
    if (granted === -1) return this.#staticShare(bucket, budget, undefined);
    this.#fallback.observe(bucket, windowMs, used, clearMs, granted === 1 ? String(value) : undefined);
    if (granted === 1) return { granted: true, ticket: String(value) };
    return { granted: false, retryInMs: Number(value), ...(paused === 1 ? { paused: true } : {}) };
  }

  /** While Redis cannot count, a member that may still sign takes its static share (fallback.ts); else fails. */
  #staticShare(bucket: BucketName, budget: BucketBudget, error: unknown): SlotGrant {
    if (this.#isLive(this.#lease)) return this.#fallback.take(bucket, budget);
    throw error ?? new FleetUnavailableError('Redis restarted and this member holds no lane; nothing was sent');
  }

  async #settle(bucket: BucketName, ticket: string, settlement: 'counted' | 'refunded'): Promise<void> {
    if (ticket === 'unlimited') return;
    this.#fallback.settle(bucket, ticket, settlement);
    // Never rejects (the request was answered): a failed settle leaves the slot in flight for two windows from its
    // take (never too short), and it is handed back with the member's others once Redis answers again.
    try {
      const k = this.#bucketKeys(bucket);
      await this.#run(lua.SETTLE_SLOT, [k.counted, k.flight], [ticket, settlement]);
    } catch {
      this.#lost();
    }
  }

  /** Notes that Redis failed a command, and asks it again at once rather than at the next renewal. */
  #lost(): void {
    if (this.#missed) return;
    this.#missed = true;
    if (this.#timer === undefined) return; // a renewal is running: it retries within 250 ms if Redis fails it
    clearTimeout(this.#timer);
    this.#schedule(0);
  }

  /** Hands this member's slots of the last window back to Redis (see RESTORE_SLOTS). */
  async #restoreSlots(): Promise<void> {
    for (const [bucket, args] of this.#fallback.slotsToRestore()) {
      await this.#run(lua.RESTORE_SLOTS, [this.#bucketKeys(bucket as BucketName).counted], args);
    }
    this.#missed = false;
  }

  async #pause(bucket: BucketName, forMs: number): Promise<void> {
    if (!(forMs > 0)) return;
    // Never rejects: the caller pauses its own client anyway, and no member takes a slot from an unreachable Redis.
    try {
      await this.#run(lua.PAUSE_BUCKET, [this.#bucketKeys(bucket).pause], [Math.ceil(forMs)]);
    } catch {}
  }

  #bucketKeys(bucket: BucketName): { counted: string; flight: string; pause: string } {
    const p = this.#keys.prefix;
    return { counted: `${p}counted:${bucket}`, flight: `${p}flight:${bucket}`, pause: `${p}pause:${bucket}` };
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#maintaining.catch(() => {});
    const index = this.#lease?.index ?? this.#lastIndex;
    this.#lease = undefined;
    if (index !== undefined) {
      // Best effort: if Redis is unreachable the lease simply expires.
      await this.#runLane(lua.RELEASE_LANE, index, this.#o.leaseTtlMs, this.#o.laneRestMs).catch(() => {});
    }
    if (this.#owned) await closeOwned(this.#owned, this.#o.commandTimeoutMs);
  }

  /** Runs a lane script: KEYS the lane hash; ARGV this member's id, then `args`. */
  #runLane(script: lua.LuaScript, ...args: Array<string | number>): Promise<ScriptReply> {
    return this.#run(script, [this.#keys.lanes], [this.memberId, ...args]);
  }

  /** EVALSHA, falling back to EVAL once when Redis does not know the script; bounded by commandTimeoutMs. */
  async #run(script: lua.LuaScript, keys: string[], args: Array<string | number>): Promise<ScriptReply> {
    const call = async () => {
      try {
        return await this.#client.evalsha(script.sha, keys.length, ...keys, ...args);
      } catch (error) {
        if (!/NOSCRIPT/.test(String((error as { message?: unknown } | undefined)?.message ?? error))) throw error;
        return await this.#client.eval(script.source, keys.length, ...keys, ...args);
      }
    };
    const { commandTimeoutMs } = this.#o;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(noAnswerError(commandTimeoutMs)), commandTimeoutMs);
    });
    try {
      const reply = await Promise.race([call(), timeout]);
      if (!Array.isArray(reply) || typeof reply[0] !== 'number') {
        throw new FleetUnavailableError('Redis answered a fleet script with an unexpected reply; nothing was sent');
      }
      return reply as ScriptReply;
    } catch (error) {
      if (error instanceof FuturesError) throw error;
      const why = this.#owned && this.#owned.status !== 'ready' && this.#connectionProblem;
      throw new FleetUnavailableError(`Redis is unavailable (${why || describe(error)}); nothing was sent`, {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
  }
}

const closedError = () => new FleetUnavailableError('This fleet member was closed; nothing was sent');

const noAnswerError = (ms: number) =>
  new FleetUnavailableError(`Redis did not answer within ${ms} ms; nothing was sent`);

const describe = (error: unknown): string =>
  error instanceof FuturesError ? error.shortMessage : error instanceof Error ? error.message : String(error);

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Joins a fleet of clients sharing one API key through Redis; resolves once this member holds a timestamp lane.
 * Pass it as one client's `fleet` option and `close()` it when done. See docs/fleet.md.
 *
 * - **Lanes**: a lane (`0 … maxMembers − 1`) leased from Redis, unique among live members, renewed every
 *   `leaseTtlMs / 3`. Unable to renew, a member stops signing before its lease can have expired: `lane()` rejects
 *   with `FleetUnavailableError` (nothing signed or sent) until it holds a lane again. An ended lease's lane rests
 *   `laneRestMs` (20 s) first, so its next holder never signs a timestamp the server may have accepted from the last.
 * - **Budget**: each bucket is a sliding window on Redis's clock, shared by all; a 429's pause holds every member.
 * - **Faults**: while Redis is unreachable or up less than a lease, a member whose lease runs keeps trading on its
 *   lane and a static share of each bucket, and re-registers once Redis answers; past its lease `budget.tryTake`
 *   and `lane()` reject with `FleetUnavailableError`. Newcomers wait until Redis is up `leaseTtlMs + laneRestMs`
 *   (28 s by default).
 *
 * Rejects with `ConfigurationError` for invalid options, a namespace in use with other settings, or `ioredis`
 * missing (with a `url`); with `FleetUnavailableError` when no lane could be leased within `joinTimeoutMs`.
 * @example
 * ```ts
 * import { FuturesClient } from 'futures-sdk';
 * import { createRedisFleet } from 'futures-sdk/redis';
 *
 * const fleet = await createRedisFleet({ url: 'redis://127.0.0.1:6379', namespace: 'main-key' });
 * const client = new FuturesClient({ baseUrl: 'https://api.example.com', apiKey, apiSecret, fleet });
 * // … trade …
 * await fleet.close();
 * ```
 */
export async function createRedisFleet(options: RedisFleetOptions): Promise<RedisFleet> {
  const resolved = resolveOptions(options);
  const owned = options.url !== undefined ? await openClient(options.url, resolved.commandTimeoutMs) : undefined;
  const client = owned ?? (options.client as RedisFleetClient);
  const member = new RedisFleetMember(client, owned, resolved);
  try {
    await member.join(options.signal);
  } catch (error) {
    await member.close();
    throw error;
  }
  return member;
}
