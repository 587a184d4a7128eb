import { expect, it } from 'vitest';
import { runScenario, type ScenarioResult } from './maker-fill-scenario.ts';

const COUNT = Number(process.env.MAKER_FILL_FUZZ_COUNT ?? 5_000);
const FIRST_SEED = Number(process.env.MAKER_FILL_FUZZ_SEED ?? 1);

it(`maker fills reported by the watcher equal the simulator's, over ${COUNT} random scenarios`, async () => {
  const started = performance.now();
  const failures: ScenarioResult[] = [];
  const results: ScenarioResult[] = [];
  let expected = 0;
  const latency = new Map<number, number>();
  for (let seed = FIRST_SEED; seed < FIRST_SEED + COUNT; seed++) {
    // One scenario in ten runs requests in the millisecond of their step: same-millisecond ties happen there.
    const result = await runScenario(seed, { watchFirst: seed % 4 === 0, sameMs: seed % 10 === 5 });
    expected += result.expected;
    results.push({ ...result, log: [] });
    for (const polls of result.latencies) latency.set(polls, (latency.get(polls) ?? 0) + 1);
    if (result.missed.length > 0 || result.falses.length > 0) failures.push(result);
  }
  const undecidable = results.filter((r) => r.undecidable.length > 0);
  const missed = failures.reduce((n, f) => n + f.missed.length, 0);
  const falses = failures.reduce((n, f) => n + f.falses.length, 0);
  const total = [...latency.values()].reduce((a, b) => a + b, 0);
  const distribution = [...latency.entries()]
    .sort(([a], [b]) => a - b)
    .map(([polls, n]) => `${polls} poll(s) late: ${n} (${((100 * n) / total).toFixed(2)} %)`);
  console.log(
    `maker-fill fuzz: ${COUNT} scenarios, ${expected} maker fills shown, missed ${missed}, false ${falses}, ` +
      `undecidable ${undecidable.length} scenario(s) (${((100 * undecidable.length) / COUNT).toFixed(2)} %: ` +
      `case 1 ${undecidable.filter((r) => r.undecidable.some((u) => u.startsWith('case 1'))).length}, ` +
      `case 2 ${undecidable.filter((r) => r.undecidable.some((u) => u.startsWith('case 2'))).length}; ` +
      `${undecidable.filter((r) => r.seed % 10 === 5).length} of them among the ${Math.round(COUNT / 10)} ` +
      `same-millisecond scenarios), ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s\n  ${distribution.join('\n  ')}`,
  );
  for (const failure of failures.slice(0, 3))
    console.log(failure.seed, failure.missed, failure.falses, failure.log.join('\n'));
  expect(failures.map((f) => f.seed)).toEqual([]);
}, 300_000);
