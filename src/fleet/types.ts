/** The spec's rate-limit buckets, plus `public` (no documented limit; paused only by a 429). */
export type BucketName = 'orders' | 'batch' | 'close' | 'default' | 'public';

/** A rate-limit bucket's budget as the spec states it for the whole account: `limit` requests per `windowMs`. */
export interface BucketBudget {
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * The answer of {@link SharedBudget.tryTake}: a slot (with the ticket that settles it), or how long to wait. With
 * `paused: true` a 429's `Retry-After` holds the bucket and `retryInMs` is what is left of it (a call with a shorter
 * `timeoutMs` fails at once). `retryInMs` is `Infinity` when only a settle of one of this member's own slots can
 * free one (all of the window's slots are in flight); the member then asks again after its next settle.
 */
export type SlotGrant =
  | { readonly granted: true; readonly ticket: string }
  | { readonly granted: false; readonly retryInMs: number; readonly paused?: boolean | undefined };

/**
 * Where each bucket's request slots are counted (a sliding window): in memory for one client, or shared by a
 * {@link Fleet}. A slot counts from its take and is re-stamped at its response (`'counted'`: the server counted it
 * somewhere between), or given back (`'refunded'`) when the server certainly did not count it (a 429, nothing sent).
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
 * A member's timestamp lane: it signs only timestamps `t` with `t % count === index`, so no two members sign the
 * same (query, timestamp). `floor`, when set, is the lowest timestamp it may use (not reusing an earlier holder's).
 */
export interface FleetLane {
  readonly index: number;
  readonly count: number;
  readonly floor?: number | undefined;
}

/**
 * Several clients on one API key (any processes or machines) acting as one: disjoint timestamp lanes (no signature
 * collides in the server's 60 s replay cache) and one shared budget per bucket (together they earn no 429). Pass it
 * as the client's `fleet` option; built by `staticFleet()` or `createRedisFleet()` (from `futures-sdk/redis`).
 */
export interface Fleet {
  /**
   * This member's lane, resolved before every signature. Rejects with `FleetUnavailableError` when it cannot be
   * held (e.g. its lease could not be renewed): nothing is then signed or sent.
   */
  lane(signal?: AbortSignal): FleetLane | Promise<FleetLane>;
  /** The budget every member counts its requests in. */
  readonly budget: SharedBudget;
  /** Leaves the fleet (releases a leased lane). Clients using it must not be used afterwards. */
  close(): Promise<void>;
}
