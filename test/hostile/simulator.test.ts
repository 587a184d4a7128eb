// No duplicate order, checked against a server that really executes: the hostile server forwards every request
// it acts on to the simulator (upstream mode) and builds its hostile answers from the simulator's real bodies.
// After each lane of create / createBatch calls (generated answers: drops after acting, stalls, 5xx, truncated
// bodies, 429s...), the simulator's own order book must hold at most one order per clientOrderId, and no order
// the client did not ask for. The lane's usual invariants are checked too.
import fc from 'fast-check';
import { FuturesClient } from 'futures-sdk';
import { createExchange, type Exchange } from 'futures-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laneArb } from './arbitraries.ts';
import { DEFAULT_SETTINGS, hunt, type LaneCase, minimizeLanes, report, runLane, type Violation } from './harness.ts';

const settings = DEFAULT_SETTINGS;
let ex: Exchange;
let upstream: { url: string; close(): Promise<void> };

beforeAll(async () => {
  ex = createExchange({ seed: 7 });
  upstream = await ex.listen();
});
afterAll(async () => {
  await upstream.close();
});

/** Date skews are covered elsewhere: here the simulator must accept the timestamps, so it really executes. */
const honestDates = (lane: LaneCase): LaneCase => ({
  ...lane,
  closedPort: false,
  calls: lane.calls.map((c) => ({ ...c, answers: c.answers.map((a) => ({ ...a, date: 'real' as const })) })),
});

/** What the runs did on the simulator, to show the property bites. */
const placed = { orders: 0, actedCreates: 0 };

async function runOnSimulator(lanes: LaneCase[]): Promise<Violation[]> {
  const all = await Promise.all(
    lanes.map(async (raw, index) => {
      const lane = honestDates(raw);
      const { accountId } = ex.createAccount({ balances: { USDT: '10000000' } });
      const credentials = ex.createApiKey(accountId, { permissions: ['TRADE'] });
      const result = await runLane(lane, settings, { upstream: upstream.url }, credentials);
      const v: Violation[] = [...result.violations];
      const direct = new FuturesClient({ baseUrl: upstream.url, ...credentials, rateLimit: false });
      const { orders } = await direct.orders.list({ limit: 200 });
      const perId = new Map<string, number>();
      for (const o of orders) perId.set(o.clientOrderId ?? '', (perId.get(o.clientOrderId ?? '') ?? 0) + 1);
      placed.orders += orders.length;
      placed.actedCreates += result.records.filter((r) => r.acted && r.endpoint?.creates).length;
      for (const [id, n] of perId) {
        if (n > 1)
          v.push({
            invariant: 'simulator-one-order-per-clientOrderId',
            detail: `${n} orders with clientOrderId ${id}`,
          });
      }
      const asked = new Set<string>();
      for (const r of result.records) {
        try {
          const json = JSON.parse(r.body ?? '') as {
            clientOrderId?: string;
            orders?: Array<{ clientOrderId?: string }>;
          };
          for (const id of [json.clientOrderId, ...(json.orders ?? []).map((o) => o.clientOrderId)])
            if (id) asked.add(id);
        } catch {
          // no body
        }
      }
      for (const id of perId.keys()) {
        if (!asked.has(id))
          v.push({ invariant: 'simulator-no-unasked-order', detail: `order with clientOrderId ${id} was never sent` });
      }
      return v.map((x) => ({ ...x, detail: `lane ${index}: ${x.detail}` }));
    }),
  );
  return all.flat();
}

describe('hostile server in front of the simulator', () => {
  it('never places an order twice, whatever the wire does to create and createBatch', async () => {
    const result = await hunt({
      name: 'simulator',
      arbitrary: fc.array(laneArb(settings.timeoutMs, ['orders.create', 'orders.createBatch']), {
        minLength: 1,
        maxLength: 3,
      }),
      run: runOnSimulator,
      numRuns: 25,
      timeBudgetMs: 35_000,
      roundBudgetMs: 8_000,
      minimize: (lanes, invariant, until) => minimizeLanes(lanes, invariant, until, settings),
      minimizeBudgetMs: 6_000,
    });
    const text = report('simulator', result);
    console.log(
      `${text}\n(${placed.actedCreates} create requests acted on and forwarded; ${placed.orders} orders placed)`,
    );
    expect(result.observed.size, text).toBe(0);
  }, 90_000);
});
