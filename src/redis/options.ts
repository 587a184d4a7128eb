// createRedisFleet's options, defaults and checks. Types by the main entry's name: the published .d.ts then refers
// to `futures-sdk`'s own declarations, not a copy (tsup keeps it external; tsconfig maps it to src/index.ts).
import type { Fleet } from 'futures-sdk';
import { ConfigurationError } from '../errors/configuration-error.ts';

/** What `createRedisFleet` calls on an existing Redis client (an `ioredis` one fits); the fleet never closes it. */
export interface RedisFleetClient {
  /** `EVALSHA sha numkeys key… arg…` */
  evalsha(sha: string, numKeys: number, ...keysAndArgs: Array<string | number>): Promise<unknown>;
  /** `EVAL script numkeys key… arg…` */
  eval(script: string, numKeys: number, ...keysAndArgs: Array<string | number>): Promise<unknown>;
}

/** Options of {@link createRedisFleet}. Give either `url` or `client`. */
export interface RedisFleetOptions {
  /**
   * A Redis URL (`redis://[:password@]host:port[/db]`, `rediss://` for TLS). The fleet opens its own `ioredis`
   * connection (no offline queue, so commands fail at once while Redis is unreachable) and closes it on `close()`.
   */
  url?: string | undefined;
  /**
   * An existing `ioredis` client (or anything with its `evalsha`/`eval`). Its own options decide queuing and
   * reconnection; every fleet command is still bounded by `commandTimeoutMs`. `close()` leaves it open.
   */
  client?: RedisFleetClient | undefined;
  /**
   * The fleet's name in Redis: one per API key, the same for all its members. 1–100 characters of
   * `A-Z a-z 0-9 . _ : -`. Keys are `futures-sdk:{<namespace>}:…` (one hash slot, so Redis Cluster works).
   */
  namespace: string;
  /**
   * How many members (= timestamp lanes) the fleet holds at once: member `i` signs only timestamps `t` with
   * `t % maxMembers === i`, so `1000 / maxMembers` per second. Same for every member of a namespace. Leave spare
   * lanes: a lane given up rests `laneRestMs`, so replacing a member at once needs a free one.
   * @default 8
   */
  maxMembers?: number | undefined;
  /**
   * How long a lane lease lasts unrenewed (renewed every third of it). A member that cannot renew keeps trading
   * through a Redis outage and stops signing before its lease can have ended (timed locally from before the
   * request, minus a margin); a crashed member's lane is free `leaseTtlMs + laneRestMs` after its last renewal.
   * Same for every member of a namespace.
   * @default 8_000
   */
  leaseTtlMs?: number | undefined;
  /**
   * How long a lane rests after its lease ended before another member may take it, so the new holder never signs a
   * timestamp the old one may have had accepted: the clients' `timeoutMs` (10 s) plus twice the server's 5 s drift
   * (docs/fleet.md, "Why 20 s"); raise it to `timeoutMs + 10_000` for a longer `timeoutMs`. Same for every member.
   * @default 20_000
   */
  laneRestMs?: number | undefined;
  /** Upper bound on every Redis command; past it the call rejects with `FleetUnavailableError`. @default 1_000 */
  commandTimeoutMs?: number | undefined;
  /**
   * How long `createRedisFleet` keeps trying to lease a lane (Redis unreachable, every lane held or resting, or
   * Redis restarted less than `leaseTtlMs + laneRestMs` ago) before rejecting with `FleetUnavailableError`.
   * @default 120_000
   */
  joinTimeoutMs?: number | undefined;
  /** Aborts joining: `createRedisFleet` then rejects with `FleetUnavailableError`. */
  signal?: AbortSignal | undefined;
}

/** A {@link Fleet} member backed by Redis (from {@link createRedisFleet}). */
export interface RedisFleet extends Fleet {
  /** This member's random id, as stored in Redis next to its lane. */
  readonly memberId: string;
  /** Leaves the fleet: stops renewing, releases the lane, and closes the connection the fleet opened itself. */
  close(): Promise<void>;
}

const NAMESPACE = /^[A-Za-z0-9._:-]{1,100}$/;

export type Resolved = ReturnType<typeof resolveOptions>;

export function resolveOptions(options: RedisFleetOptions) {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError('createRedisFleet needs options');
  const { url, client } = options;
  if ((url === undefined) === (client === undefined)) {
    throw new ConfigurationError('createRedisFleet needs exactly one of `url` and `client`');
  }
  if (url !== undefined && (typeof url !== 'string' || !/^rediss?:\/\//.test(url))) {
    throw new ConfigurationError('createRedisFleet: `url` must start with redis:// or rediss://');
  }
  if (client !== undefined && (typeof client?.evalsha !== 'function' || typeof client?.eval !== 'function')) {
    throw new ConfigurationError('createRedisFleet: `client` must be an ioredis client (with evalsha and eval)');
  }
  if (typeof options.namespace !== 'string' || !NAMESPACE.test(options.namespace)) {
    throw new ConfigurationError(
      'createRedisFleet: `namespace` must be 1-100 characters of A-Z a-z 0-9 . _ : - (one namespace per API key)',
    );
  }
  const int = (name: string, value: number | undefined, fallback: number, min: number, max: number) => {
    const v = value ?? fallback;
    if (!Number.isInteger(v) || v < min || v > max) {
      throw new ConfigurationError(`createRedisFleet: \`${name}\` must be an integer from ${min} to ${max}`);
    }
    return v;
  };
  const leaseTtlMs = int('leaseTtlMs', options.leaseTtlMs, 8_000, 100, 3_600_000);
  return {
    namespace: options.namespace,
    maxMembers: int('maxMembers', options.maxMembers, 8, 1, 1000),
    leaseTtlMs,
    laneRestMs: int('laneRestMs', options.laneRestMs, 20_000, 0, 3_600_000),
    commandTimeoutMs: int('commandTimeoutMs', options.commandTimeoutMs, 1_000, 1, 60_000),
    joinTimeoutMs: int('joinTimeoutMs', options.joinTimeoutMs, 120_000, 0, 86_400_000),
  };
}
