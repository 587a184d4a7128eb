// Every endpoint of the client against a hostile server whose answers are generated (status × headers × body ×
// timing). Checked for every call of every generated case (see harness.ts for the exact rules):
//   settles within its bound; rejects only with FuturesErrors; outcomeUnknown exactly when an attempt may have
//   acted; neverSent only when nothing reached the server; GETs never outcomeUnknown; no duplicate orders and no
//   second cancel/close once one may have acted; no signature or timestamp repeats; no secret in any rendering
//   of an error or in a log line; success only on an intact valid 2xx and always on one; an over-large response
//   is never retried; the custom fetch is called as fetch(url: string, init); the kill switch is not refused by
//   the client's own pacing.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/endpoints/registry.ts';
import { laneArb } from './arbitraries.ts';
import { hostileEndpoints } from './endpoints.ts';
import { coverageReport, DEFAULT_SETTINGS, hunt, type LaneCase, minimizeLanes, report, runLane } from './harness.ts';
import { HEALTHY } from './hostile-server.ts';

const settings = DEFAULT_SETTINGS;

describe('hostile server: every endpoint', () => {
  it('covers every endpoint of the registry, and each resolves against a healthy answer', async () => {
    expect(
      hostileEndpoints()
        .map((e) => e.name)
        .sort(),
    ).toEqual(ENDPOINTS.map((e) => e.name).sort());
    const lane: LaneCase = { calls: hostileEndpoints().map((e) => ({ endpoint: e.name, answers: [HEALTHY] })) };
    const result = await runLane(lane, settings);
    const failures = result.outcomes.filter((o) => !o.resolved).map((o) => `${o.endpoint.name}: ${String(o.error)}`);
    expect(failures).toEqual([]);
    expect(result.violations).toEqual([]);
  });

  it('keeps every invariant whatever the server answers (property, shrunk per invariant)', async () => {
    const arbitrary = fc.array(laneArb(settings.timeoutMs), { minLength: 1, maxLength: 4 });
    const result = await hunt({
      name: 'every endpoint',
      arbitrary,
      numRuns: 40,
      timeBudgetMs: 50_000,
      roundBudgetMs: 10_000,
      minimize: (lanes, invariant, until) => minimizeLanes(lanes, invariant, until, settings),
      minimizeBudgetMs: 8_000,
      run: async (lanes) => {
        const results = await Promise.all(lanes.map((lane) => runLane(lane, settings)));
        return results.flatMap((r, i) => r.violations.map((v) => ({ ...v, detail: `lane ${i}: ${v.detail}` })));
      },
    });
    const text = report('every endpoint', result);
    console.log(`${text}\n\npremises met (runs and shrinks included):\n${coverageReport()}`);
    expect(result.observed.size, text).toBe(0);
  }, 90_000);
});
