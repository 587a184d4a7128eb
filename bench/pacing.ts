/**
 * Pacing benchmark: `npm run bench:pacing` (or `node --experimental-transform-types bench/pacing.ts [orders]`).
 *
 * Fires 600 `orders.create` at once (as fast as possible) at the simulator's 300/min orders bucket, over a real
 * loopback socket (`ex.listen()`), and reports the server's 429s and the time against the ideal: 600 at 300/min
 * fit in one window, so the second 300 can start at 60 s and the ideal is 60 s. Goal: 0 server 429s and
 * ≤ 1.05× ideal. Exits non-zero when a goal is missed.
 *
 * Why real time and not a virtual clock: the simulator's clock is `Date.now()` by default (`createExchange`
 * without `now`), so server and client run on the same real clock, and what is measured is what a user gets:
 * real sockets, real scheduling, real latency between the client taking a slot and the server counting the
 * request. A virtual clock would only replay the model the limiter is built on; the CI test
 * (test/core/rate-limit.test.ts, "with latency jitter …") covers the same guarantee on a virtual clock.
 *
 * Two runs: plain loopback (latency ≈ 1–30 ms under the burst), then loopback with 0–100 ms of random extra
 * latency on the way to the server and again on the way back (a wrapped `fetch`), which is what made the old
 * limiter (slots counted when sent) bunch requests across the window edge.
 */
import { FuturesClient } from '../src/index.ts';
import { createExchange } from '../src/testing/index.ts';

const ORDERS = Number(process.argv[2] ?? 600);
const LIMIT = 300;
const WINDOW_MS = 60_000;
const IDEAL_MS = Math.max(0, Math.ceil(ORDERS / LIMIT) - 1) * WINDOW_MS;
const GOAL_RATIO = 1.05;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Figures {
  name: string;
  placed: number;
  failed: number;
  server429: number;
  server401: number;
  elapsedMs: number;
  secondWindowStartMs: number | undefined;
}

async function run(name: string, jitterMs: number): Promise<Figures> {
  const ex = createExchange({ seed: 1, volatility: 0 });
  ex.setMarkPrice('BTCUSDT', '60000');
  const { accountId } = ex.createAccount({ balances: { USDT: '100000000' } });
  const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  const server = await ex.listen();
  const jittered: typeof fetch = async (input, init) => {
    await sleep(Math.random() * jitterMs);
    const response = await fetch(input, init);
    const body = await response.arrayBuffer();
    await sleep(Math.random() * jitterMs);
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  const client = new FuturesClient({
    baseUrl: server.url,
    apiKey,
    apiSecret,
    ...(jitterMs > 0 ? { fetch: jittered } : {}),
  });
  try {
    // One read first, so the clock offset is learned as it would be in a running bot.
    await client.account.balance();
    const started = Date.now();
    const results = await Promise.allSettled(
      Array.from({ length: ORDERS }, (_, i) =>
        client.orders.create({
          symbol: 'BTCUSDT',
          side: 'BUY',
          type: 'LIMIT',
          quantity: '0.001',
          price: String(40_000 + (i % 1000)),
        }),
      ),
    );
    const elapsedMs = Date.now() - started;
    const creates = ex.requests.filter((r) => r.method === 'POST' && r.path === '/v2/orders');
    const accepted = creates.filter((r) => r.status === 200);
    return {
      name,
      placed: ex.account(accountId).orders.length,
      failed: results.filter((r) => r.status === 'rejected').length,
      server429: creates.filter((r) => r.status === 429).length,
      server401: creates.filter((r) => r.status === 401).length,
      elapsedMs,
      secondWindowStartMs: accepted[LIMIT] === undefined ? undefined : accepted[LIMIT].time - started,
    };
  } finally {
    await server.close();
  }
}

const runs: Figures[] = [];
for (const [name, jitter] of [
  ['loopback', 0],
  ['loopback + 0–100 ms jitter each way', 100],
] as const) {
  process.stdout.write(`${name}: ${ORDERS} creates at once against ${LIMIT}/min… `);
  const figures = await run(name, jitter);
  runs.push(figures);
  const ratio = IDEAL_MS > 0 ? (figures.elapsedMs / IDEAL_MS).toFixed(3) : 'n/a';
  console.log(
    `placed ${figures.placed}/${ORDERS}, failed ${figures.failed}, server 429s ${figures.server429}, ` +
      `401s ${figures.server401}; order ${LIMIT + 1} reached the server at ${figures.secondWindowStartMs} ms; ` +
      `all done in ${(figures.elapsedMs / 1000).toFixed(2)} s = ${ratio}× ideal (${IDEAL_MS / 1000} s)`,
  );
}

const missed = runs.filter(
  (r) =>
    r.server429 > 0 || r.failed > 0 || r.placed !== ORDERS || (IDEAL_MS > 0 && r.elapsedMs > GOAL_RATIO * IDEAL_MS),
);
if (missed.length > 0) {
  console.error(
    `Goal missed (0 server 429s, all placed, ≤ ${GOAL_RATIO}× ideal): ${missed.map((r) => r.name).join(', ')}`,
  );
  process.exitCode = 1;
}
