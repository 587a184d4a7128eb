// Timestamps never repeat, whatever the local clock does. A client whose injected clock steps mid-run (±70 s,
// ±1 h, one or two steps) talks to a server that enforces the spec's 5 s drift and 60 s replay window on (key,
// signature) and sends an honest Date. After each step, 50 cancels of the SAME order (identical requests but for
// timestamp and signature; in bursts of concurrent calls) must all succeed, and the server must never answer
// `401 Signature replay detected`. A `401 Invalid or expired timestamp` the client recovers from is allowed.
import fc from 'fast-check';
import type { Clock } from 'futures-sdk';
import { describe, expect, it } from 'vitest';
import {
  type ClientSettings,
  DEFAULT_SETTINGS,
  deadlineBound,
  describeError,
  distinctiveKey,
  hunt,
  makeClient,
  recordingFetch,
  recordingLogger,
  report,
  type Violation,
} from './harness.ts';
import { HEALTHY, startHostileServer } from './hostile-server.ts';

const settings: ClientSettings = { ...DEFAULT_SETTINGS, timeoutMs: 800 };
const STEPS = [70_000, -70_000, 3_600_000, -3_600_000] as const;

interface StepCase {
  /** Calls before the first step (the client learns the server's clock from them). */
  before: number;
  steps: number[];
  /** Concurrent cancels per burst. */
  burst: number;
}

const stepCaseArb: fc.Arbitrary<StepCase> = fc.record({
  before: fc.integer({ min: 1, max: 5 }),
  steps: fc.array(fc.constantFrom(...STEPS), { minLength: 1, maxLength: 2 }),
  burst: fc.integer({ min: 1, max: 5 }),
});

/** The real clock shifted by a step the test changes mid-run; real sleeps. */
function steppedClock(): Clock & { stepMs: number } {
  const clock = {
    stepMs: 0,
    now: () => Date.now() + clock.stepMs,
    random: () => Math.random(),
    sleep: (ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, ms);
        const onAbort = () => {
          clearTimeout(timer);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
  };
  return clock;
}

/** What the runs saw, to show the rig bites (steps do make the server refuse stale timestamps). */
const stats = { requests: 0, timestamp401: 0 };

async function runStepCase(k: StepCase): Promise<Violation[]> {
  const v: Violation[] = [];
  const apiKey = distinctiveKey('Ck');
  const apiSecret = distinctiveKey('Cs');
  const server = await startHostileServer({ auth: { keys: { [apiKey]: apiSecret } }, answer: () => HEALTHY });
  const clock = steppedClock();
  const logs: string[] = [];
  const client = makeClient({
    baseUrl: server.url,
    apiKey,
    apiSecret,
    settings,
    fetch: recordingFetch([], () => undefined),
    logger: recordingLogger(logs),
    clock,
  });
  const bound = deadlineBound(settings);
  const cancel = async (phase: string) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.orders.cancel('ord-1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`did not settle within ${bound} ms`)), bound);
        }),
      ]);
      return undefined;
    } catch (error) {
      return `${phase}: ${error instanceof Error && error.message.startsWith('did not settle') ? error.message : describeError(error)}`;
    } finally {
      clearTimeout(timer);
    }
  };
  try {
    const failures: string[] = [];
    for (let i = 0; i < k.before; i++) {
      const f = await cancel('before the step');
      if (f) failures.push(f);
    }
    for (const [n, step] of k.steps.entries()) {
      clock.stepMs += step;
      const phase = `after step ${n + 1} (${step > 0 ? '+' : ''}${step / 1000} s, clock now ${clock.stepMs / 1000} s off)`;
      for (let done = 0; done < 50; ) {
        const size = Math.min(k.burst, 50 - done);
        const results = await Promise.all(Array.from({ length: size }, () => cancel(phase)));
        for (const f of results) if (f) failures.push(f);
        done += size;
      }
    }
    if (failures.length > 0) {
      v.push({
        invariant: 'no-failure-after-clock-step',
        detail: `${failures.length} of ${k.before + 50 * k.steps.length} cancels failed; first: ${failures[0]}`,
      });
    }
    stats.requests += server.records.length;
    stats.timestamp401 += server.records.filter((r) => r.authFailure === 'Invalid or expired timestamp').length;
    const replays = server.records.filter((r) => r.authFailure === 'Signature replay detected');
    if (replays.length > 0) {
      v.push({
        invariant: 'no-replay-401-after-clock-step',
        detail: `${replays.length} request(s) answered 401 Signature replay detected (first #${replays[0]!.seq}, timestamp ${replays[0]!.timestamp})`,
      });
    }
    const seen = new Map<string, number>();
    for (const r of server.records) {
      const prior = r.signature === undefined ? undefined : seen.get(r.signature);
      if (prior !== undefined) {
        v.push({
          invariant: 'no-signature-repeats',
          detail: `requests #${prior} and #${r.seq} carry the same signature`,
        });
        break;
      }
      if (r.signature !== undefined) seen.set(r.signature, r.seq);
    }
  } finally {
    await server.close();
  }
  return v;
}

describe('hostile server: clock steps', () => {
  it('50 cancels after a step of ±70 s or ±1 h: no failure, no replay 401', async () => {
    const result = await hunt({
      name: 'clock step',
      arbitrary: stepCaseArb,
      run: runStepCase,
      numRuns: 12,
      timeBudgetMs: 45_000,
      roundBudgetMs: 25_000,
    });
    const text = report('clock step', result);
    console.log(
      `${text}\n(${stats.requests} requests, ${stats.timestamp401} answered 401 Invalid or expired timestamp)`,
    );
    expect(result.observed.size, text).toBe(0);
  }, 90_000);
});
