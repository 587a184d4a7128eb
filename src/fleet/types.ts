/** The spec's rate-limit buckets, plus `public` (no documented limit; paused only by a 429). */
export type BucketName = 'orders' | 'batch' | 'close' | 'default' | 'public';

/** A rate-limit bucket's budget as the spec states it for the whole account: `limit` requests per `windowMs`. */
export interface BucketBudget {
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * The answer of {@link SharedBudget.tryTake}: a held slot (with the ticket that settles it later), or how long
 * to wait before asking again.
 *
 * `paused: true` says the bucket is held by a 429's `Retry-After` (not merely full) and `retryInMs` is what is
 * left of that pause: a call whose `timeoutMs` is shorter then fails at once instead of waiting. `retryInMs` may
 * be `Infinity` when only a settle of one of this member's own slots can free one (every slot of the window is
 * still in flight); the member then asks again after its next settle.
 */
export type SlotGrant =
  | { readonly granted: true; readonly ticket: string }
  | { readonly granted: false; readonly retryInMs: number; readonly paused?: boolean | undefined };

/**
 * Where request slots of each bucket are counted: in memory for one client, or shared by every member of a
 * {@link Fleet}. Slots live in a sliding window. A slot counts from when it is taken and is re-stamped when its
 * response arrives (`'counted'`), because the server counts the request when it arrives, somewhere between the
 * two; it is given back (`'refunded'`) when the server certainly did not count it (a 429, or nothing was sent).
 */
export interface SharedBudget {
  /** Takes one slot of `bucket` if the window (and any pause) allows it now; never waits itself. */
  tryTake(bucket: BucketName, budget: BucketBudget): SlotGrant | Promise<SlotGrant>;
  /** Settles a slot taken by {@link SharedBudget.tryTake}. */
  settle(bucket: BucketName, ticket: string, settlement: 'counted' | 'refunded'): void | Promise<void>;
  /** Holds every member's requests of `bucket` for `forMs` (a server 429's `Retry-After`). */
  pause(bucket: BucketName, forMs: number): void | Promise<void>;
}

/**
 * A member's timestamp lane: the member signs only timestamps `t` with `t % count === index`, so no two
 * members of one fleet ever sign the same (query, timestamp) pair. `floor`, when set, is the lowest timestamp the
 * member may use (a lane taken over from an earlier holder must not reuse that holder's recent timestamps).
 */
export interface FleetLane {
  readonly index: number;
  readonly count: number;
  readonly floor?: number | undefined;
}

/**
 * Several clients on one API key — in one process or many, on one machine or many — acting as one: disjoint
 * timestamp lanes (no signature collides in the server's 60 s replay cache) and one shared budget per bucket
 * (together they earn no server 429). Pass it as the client's `fleet` option. Built by `staticFleet()` (from
 * `futures-sdk`) or `createRedisFleet()` (from `futures-sdk/redis`).
 */
export interface Fleet {
  /**
   * This member's timestamp lane, resolved before every signature. Rejects with `FleetUnavailableError` when the
   * lane cannot be held (for example its lease could not be renewed): nothing is then signed or sent.
   */
  lane(signal?: AbortSignal): FleetLane | Promise<FleetLane>;
  /** The budget every member counts its requests in. */
  readonly budget: SharedBudget;
  /** Leaves the fleet (releases a leased lane). Clients using it must not be used afterwards. */
  close(): Promise<void>;
}
