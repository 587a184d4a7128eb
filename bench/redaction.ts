/**
 * What per-client redaction costs as clients come and go: the heap retained after 10,000 clients were built and
 * dropped, and the time to build (and render) one error while 10,000 clients are alive.
 *
 * Run: `npm run bench:redaction` (needs --expose-gc, which the script passes).
 */
import { FuturesClient, type FuturesError } from 'futures-sdk';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc (npm run bench:redaction does)');
const N = 10_000;
const makeClient = (i: number) =>
  new FuturesClient({
    baseUrl: 'https://api.example.com',
    apiKey: `ak_${i.toString(36).padStart(8, '0')}_${'k'.repeat(24)}`,
    apiSecret: `sk_${i.toString(36)}_${'s'.repeat(40)}`,
    fetch: async () => new Response(JSON.stringify({ ok: false, error: `Invalid API key ak_${i}` }), { status: 401 }),
    retry: false,
  });

async function errorCost(client: FuturesClient, runs: number): Promise<number> {
  const started = performance.now();
  for (let r = 0; r < runs; r++) {
    const error = (await client.account.balance().catch((e: unknown) => e)) as FuturesError;
    String(error);
    JSON.stringify(error);
  }
  return (performance.now() - started) / runs;
}

gc();
const before = process.memoryUsage().heapUsed;
for (let i = 0; i < N; i++) makeClient(i);
gc();
const retained = process.memoryUsage().heapUsed - before;

const probe = makeClient(N + 1);
const alone = await errorCost(probe, 200);
const alive = Array.from({ length: N }, (_, i) => makeClient(i));
const crowded = await errorCost(probe, 200);
console.log(`heap retained after ${N} clients were dropped: ${(retained / 1024 / 1024).toFixed(2)} MB`);
console.log(
  `one failed call, error built and rendered: ${alone.toFixed(3)} ms alone, ${crowded.toFixed(3)} ms with ${alive.length} live clients`,
);
