import { type Clock, systemClock } from '../_internal/clock.ts';
import { MemoryBudget } from '../_internal/memory-budget.ts';
import { pure } from '../_internal/pure.ts';
import { SPEC_BUCKET_LIMITS } from '../_internal/rate-limiter.ts';
import { ConfigurationError } from '../errors/configuration-error.ts';
import type { Fleet, FleetLane } from './types.ts';

/** Options of {@link staticFleet}. */
export interface StaticFleetOptions {
  /** This member's number, `0 <= index < size`, unique among the members that run at the same time. */
  index: number;
  /** How many members share the API key; each gets `1 / size` of every bucket. */
  size: number;
  /** The clock of the member's budget window; pass the client's `clock` if you inject one. @default the system clock */
  clock?: Clock | undefined;
}

/** The smallest documented bucket (batch, 100/min): a member must get at least one request of it. */
const SMALLEST_LIMIT = /* @__PURE__ */ pure(() =>
  Math.min(
    ...Object.values(SPEC_BUCKET_LIMITS)
      .map((bucket) => bucket.limit)
      .filter(Number.isFinite),
  ),
);

/**
 * A fleet without infrastructure: member `index` of `size` signs only timestamps `t` with `t % size === index` and
 * paces itself to `floor(limit / size)` of each bucket in memory. Nothing is shared at run time, so it works
 * anywhere, browsers included, but a member cannot use an idle one's share (`createRedisFleet` in
 * `futures-sdk/redis` shares a budget). One client per member, each with its own `index` (a shared one collides).
 * @throws {ConfigurationError} `size` is not an integer from 1 to 100 (every member needs a share of the
 *   100/min batch bucket), or `index` is not an integer with `0 <= index < size`.
 * @example
 * ```ts
 * import { FuturesClient, staticFleet } from 'futures-sdk';
 * // Process 0 of 3; start the others with MEMBER=1 and MEMBER=2.
 * const client = new FuturesClient({
 *   baseUrl: 'https://api.example.com',
 *   apiKey: process.env.FUTURES_API_KEY,
 *   apiSecret: process.env.FUTURES_API_SECRET,
 *   fleet: staticFleet({ index: Number(process.env.MEMBER ?? 0), size: 3 }),
 * });
 * ```
 */
export function staticFleet(options: StaticFleetOptions): Fleet {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError('staticFleet needs { index, size }');
  }
  const { index, size } = options;
  if (!Number.isInteger(size) || size < 1 || size > SMALLEST_LIMIT) {
    throw new ConfigurationError(
      `staticFleet: size must be an integer from 1 to ${SMALLEST_LIMIT} (got ${String(size)}); ` +
        `each member gets 1/size of every bucket, and the batch bucket allows ${SMALLEST_LIMIT} per minute`,
    );
  }
  if (!Number.isInteger(index) || index < 0 || index >= size) {
    throw new ConfigurationError(
      `staticFleet: index must be an integer with 0 <= index < size (got index ${String(index)}, size ${size})`,
    );
  }
  const lane: FleetLane = { index, count: size };
  return { lane: () => lane, budget: new MemoryBudget(options.clock ?? systemClock, size), close: async () => {} };
}
