import { describe, expect, it } from 'vitest';
import {
  type Clock,
  ConfigurationError,
  type Fleet,
  FleetUnavailableError,
  FuturesClient,
  type FuturesClientOptions,
  type FuturesError,
  RateLimitError,
  type SharedBudget,
  staticFleet,
} from '../../src/index.ts';
import { createExchange } from '../../src/testing/index.ts';
import { FakeClock, ManualClock, SteppingClock, seededRandom } from '../helpers/clock.ts';

/** One simulated exchange and account on `clock`; `member()` builds another client on the same API key. */
function account(clock: Clock, wrap: (next: typeof fetch) => typeof fetch = (next) => next) {
  const ex = createExchange({ seed: 1, volatility: 0, now: () => clock.now() });
  ex.setMarkPrice('BTCUSDT', '60000');
  const { accountId } = ex.createAccount({ balances: { USDT: '100000000' } });
  const creds = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  const member = (extra: Partial<FuturesClientOptions> = {}) =>
    new FuturesClient({ baseUrl: ex.baseUrl, ...creds, fetch: wrap(ex.fetch), clock, ...extra });
  return { ex, member, accountId };
}

const resting = (i: number) =>
  ({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: String(40000 + (i % 500)) }) as const;
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (error: unknown) => error as FuturesError,
  );
const flush = () => new Promise((resolve) => setTimeout(resolve, 10));

/** A SharedBudget that records what the client asks of `inner` (a fleet's budget is user-replaceable). */
function recording(inner: SharedBudget) {
  const log: string[] = [];
  const budget: SharedBudget = {
    tryTake: (bucket, limits) => {
      log.push(`tryTake ${bucket}`);
      return inner.tryTake(bucket, limits);
    },
    settle: (bucket, ticket, outcome) => {
      log.push(`settle ${bucket} ${outcome}`);
      return inner.settle(bucket, ticket, outcome);
    },
    pause: (bucket, forMs) => {
      log.push(`pause ${bucket} ${forMs}`);
      return inner.pause(bucket, forMs);
    },
  };
  return { log, budget };
}

/** `budget` with another tryTake. */
function withTryTake(budget: SharedBudget, tryTake: SharedBudget['tryTake']): SharedBudget {
  return { tryTake, settle: (...args) => budget.settle(...args), pause: (...args) => budget.pause(...args) };
}

describe('staticFleet', () => {
  it.each([
    [{ index: 0, size: 0 }, 'size must be an integer from 1 to 100'],
    [{ index: 0, size: 1.5 }, 'size must be an integer from 1 to 100'],
    [{ index: 0, size: 101 }, 'size must be an integer from 1 to 100'],
    [{ index: 0, size: Number.NaN }, 'size must be an integer from 1 to 100'],
    [{ index: -1, size: 3 }, 'index must be an integer with 0 <= index < size'],
    [{ index: 3, size: 3 }, 'index must be an integer with 0 <= index < size'],
    [{ index: 0.5, size: 3 }, 'index must be an integer with 0 <= index < size'],
    [{ index: '1', size: 3 }, 'index must be an integer with 0 <= index < size'],
    [null, 'staticFleet needs { index, size }'],
  ])('rejects %j with ConfigurationError', (options, message) => {
    expect(() => staticFleet(options as never)).toThrow(ConfigurationError);
    expect(() => staticFleet(options as never)).toThrow(message);
  });

  it('signs only timestamps of its lane, all different, even for a burst in one millisecond', async () => {
    const clock = new FakeClock();
    const { ex, member } = account(clock);
    const client = member({ fleet: staticFleet({ index: 1, size: 3, clock }) });
    await Promise.all(Array.from({ length: 50 }, () => client.account.balance()));
    const stamps = ex.requests.map((r) => Number(r.query.timestamp));
    expect(stamps).toHaveLength(50);
    expect(stamps.every((t) => t % 3 === 1)).toBe(true);
    expect(new Set(stamps).size).toBe(50);
  });

  it('paces a member to floor(limit / size) of each bucket: the 101st order of 3 members waits for the window', async () => {
    const clock = new ManualClock();
    const { ex, member } = account(clock);
    const client = member({ fleet: staticFleet({ index: 2, size: 3, clock }), retry: false });
    const calls = Array.from({ length: 101 }, (_, i) => client.orders.create(resting(i)));
    await Promise.all(calls.slice(0, 100));
    await flush();
    expect(ex.requests).toHaveLength(100);
    clock.advance(60_000);
    await calls[100];
    expect(ex.requests.map((r) => r.status)).toEqual(Array(101).fill(200));
  });

  it('3 members on one key firing 150 creates each at once: 450 orders, 0 replay 401s, 0 server 429s', async () => {
    const clock = new SteppingClock();
    const random = seededRandom(11);
    const { ex, member, accountId } = account(clock, (next) => async (input, init) => {
      await clock.sleep(Math.floor(random() * 40));
      return next(input, init);
    });
    const clients = [0, 1, 2].map((index) => member({ fleet: staticFleet({ index, size: 3, clock }) }));
    const t0 = clock.now();
    const results = await clock.run(
      Promise.allSettled(
        clients.flatMap((client) => Array.from({ length: 150 }, (_, i) => client.orders.create(resting(i)))),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(450);
    const statuses = ex.requests.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(0);
    expect(statuses.filter((s) => s === 429)).toHaveLength(0);
    expect(ex.account(accountId).orders).toHaveLength(450);
    // 100 per member per window: the last 50 of each go one window after the first 100.
    expect(clock.now() - t0).toBeGreaterThanOrEqual(60_000);
    expect(clock.now() - t0).toBeLessThanOrEqual(61_000);
  });

  it('without a fleet the same 3 clients collide (the control: the test above can fail)', async () => {
    const clock = new SteppingClock();
    const { ex, member } = account(clock);
    const clients = [0, 1, 2].map(() => member({ retry: false }));
    await clock.run(
      Promise.allSettled(
        clients.flatMap((client) => Array.from({ length: 150 }, (_, i) => client.orders.create(resting(i)))),
      ),
    );
    const statuses = ex.requests.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length + statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
  });
});

describe('the fleet option', () => {
  it.each([
    [{}, 'fleet must be a Fleet'],
    [{ lane: () => ({ index: 0, count: 1 }), close: async () => {} }, 'fleet must be a Fleet'],
    [{ lane: 1, budget: staticFleet({ index: 0, size: 1 }).budget, close: async () => {} }, 'fleet must be a Fleet'],
  ])('a malformed fleet is a ConfigurationError (%#)', (fleet, message) => {
    const { member } = account(new FakeClock());
    expect(() => member({ fleet: fleet as never })).toThrow(ConfigurationError);
    expect(() => member({ fleet: fleet as never })).toThrow(message);
  });

  it('one fleet object serves one client: a second client on it would sign the same timestamps', () => {
    const { member } = account(new FakeClock());
    const fleet = staticFleet({ index: 0, size: 2 });
    member({ fleet });
    expect(() => member({ fleet })).toThrow(/already serves another FuturesClient/);
  });

  it('needs rateLimit: a member that does not count its requests would overrun the shared budget', () => {
    const { member } = account(new FakeClock());
    expect(() => member({ fleet: staticFleet({ index: 0, size: 2 }), rateLimit: false })).toThrow(
      /fleet needs rateLimit/,
    );
  });

  it('settles each slot in the fleet budget: counted on an answer, refunded on a 429, which pauses the fleet', async () => {
    const clock = new FakeClock();
    const { ex, member } = account(clock);
    const inner = staticFleet({ index: 0, size: 1, clock });
    const { log, budget } = recording(inner.budget);
    const client = member({ fleet: { ...inner, budget } });
    await client.account.balance();
    ex.faults.add({ method: 'GET', path: '/v2/positions', status: 429, headers: { 'Retry-After': '2' } });
    await client.account.positions();
    expect(log).toEqual([
      'tryTake default',
      'settle default counted',
      'tryTake default',
      'pause default 2000',
      'settle default refunded',
      'tryTake default',
      'settle default counted',
    ]);
    expect(clock.sleeps).toEqual([2_000]);
  });

  it('a 429 seen by one member pauses the others: a call that cannot wait fails at once, one that can waits', async () => {
    const clock = new FakeClock();
    const { ex, member } = account(clock);
    const shared = staticFleet({ index: 0, size: 1, clock }).budget;
    const fleet = (index: number): Fleet => ({
      lane: () => ({ index, count: 2 }),
      budget: shared,
      close: async () => {},
    });
    const a = member({ fleet: fleet(0), retry: false });
    const b = member({ fleet: fleet(1) });
    ex.faults.add({ method: 'GET', path: '/v2/positions', status: 429, headers: { 'Retry-After': '5' } });
    await expect(a.account.positions()).rejects.toBeInstanceOf(RateLimitError);
    const t429 = clock.now();
    const hurried = await failure(b.account.balance({}, { timeoutMs: 2_000 }));
    expect(hurried).toBeInstanceOf(RateLimitError);
    expect(hurried).toMatchObject({ retryAfterMs: 5_000, outcomeUnknown: false });
    expect(ex.requests).toHaveLength(1);
    await b.account.balance();
    expect(ex.requests.at(-1)).toMatchObject({ path: '/v2/futures/balance', status: 200, time: t429 + 5_000 });
  });
});

describe('a fleet that fails: nothing is sent, and the error says so', () => {
  const solo = (clock: Clock) => staticFleet({ index: 0, size: 1, clock });

  it('a budget that rejects: FleetUnavailableError', async () => {
    const clock = new FakeClock();
    const { ex, member } = account(clock);
    const inner = solo(clock);
    const client = member({
      fleet: {
        ...inner,
        budget: withTryTake(inner.budget, async () => Promise.reject(new Error('ECONNREFUSED redis'))),
      },
    });
    const error = await failure(client.orders.create(resting(0)));
    expect(error).toBeInstanceOf(FleetUnavailableError);
    expect(error?.message).toContain("The fleet's budget (tryTake orders) failed; nothing was sent");
    expect(error?.outcomeUnknown).toBe(false);
    expect(ex.requests).toHaveLength(0);
  });

  it('a budget that never answers: FleetUnavailableError after the call timeoutMs', async () => {
    const clock = new FakeClock();
    const { ex, member } = account(clock);
    const inner = solo(clock);
    const client = member({ fleet: { ...inner, budget: withTryTake(inner.budget, () => new Promise(() => {})) } });
    const error = await failure(client.account.balance({}, { timeoutMs: 30 }));
    expect(error).toBeInstanceOf(FleetUnavailableError);
    expect(error?.message).toContain(
      "The fleet's budget (tryTake default) failed: no answer within 30 ms; nothing was sent",
    );
    expect(ex.requests).toHaveLength(0);
  });

  it.each([
    ['NaN', { granted: false, retryInMs: Number.NaN }],
    ['no ticket', { granted: true }],
    ['nothing', undefined],
  ])('a budget whose answer is invalid (%s): FleetUnavailableError, not a hang', async (_, answer) => {
    const clock = new FakeClock();
    const { ex, member } = account(clock);
    const inner = solo(clock);
    const client = member({ fleet: { ...inner, budget: withTryTake(inner.budget, () => answer as never) } });
    const error = await failure(client.account.balance());
    expect(error).toBeInstanceOf(FleetUnavailableError);
    expect(error?.message).toContain("The fleet's budget (tryTake default) failed: invalid answer; nothing was sent");
    expect(ex.requests).toHaveLength(0);
  });

  it.each([
    [
      'rejects',
      () => Promise.reject(new Error('lease lost')),
      "The fleet's lane (GET /v2/futures/balance) failed; nothing was sent",
    ],
    [
      'never answers',
      () => new Promise(() => {}),
      "The fleet's lane (GET /v2/futures/balance) failed: no answer within 30 ms",
    ],
    [
      'returns an invalid lane',
      () => ({ index: 3, count: 3 }),
      "The fleet's lane (GET /v2/futures/balance) failed: not integers with 0 <= index < count",
    ],
  ])('a lane that %s: FleetUnavailableError, and the slot is refunded', async (_, lane, message) => {
    const clock = new FakeClock();
    const { ex, member } = account(clock);
    const inner = solo(clock);
    const { log, budget } = recording(inner.budget);
    const client = member({ fleet: { ...inner, budget, lane: lane as Fleet['lane'] } });
    const error = await failure(client.account.balance({}, { timeoutMs: 30 }));
    expect(error).toBeInstanceOf(FleetUnavailableError);
    expect(error?.message).toContain(message);
    expect(ex.requests).toHaveLength(0);
    expect(log).toEqual(['tryTake default', 'settle default refunded']);
  });

  it('the signal aborts a wait for the fleet lane with AbortError', async () => {
    const clock = new FakeClock();
    const { ex, member } = account(clock);
    const inner = solo(clock);
    const client = member({ fleet: { ...inner, lane: () => new Promise(() => {}) } });
    const controller = new AbortController();
    const pending = failure(client.account.balance({}, { signal: controller.signal }));
    await flush();
    controller.abort();
    expect((await pending)?.name).toBe('AbortError');
    expect(ex.requests).toHaveLength(0);
  });
});
