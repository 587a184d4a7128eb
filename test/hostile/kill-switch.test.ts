// The kill switch at the edges of a real wire: after a 429 with ANY Retry-After (sane, fractional, ten years, 20
// digits, negative, "soon", an HTTP date in the past or future, duplicated) on ANY bucket, `orders.cancel`,
// `orders.cancelAll` and `orders.closePosition` still reach the server: as probes at most one per second per
// paused bucket, never refused by the client's own pacing. And no pause outlives `rateLimit.maxPauseMs`: a plain
// call on the paused bucket goes out once the cap has passed.
import fc from 'fast-check';
import type { FuturesClient } from 'futures-sdk';
import { describe, expect, it } from 'vitest';
import { endpointByName, hostileEndpoints } from './endpoints.ts';
import {
  type ClientSettings,
  DEFAULT_SETTINGS,
  deadlineBound,
  describeError,
  distinctiveKey,
  hunt,
  makeClient,
  minimizeArray,
  recordingFetch,
  recordingLogger,
  report,
  type Violation,
} from './harness.ts';
import {
  answer,
  HEALTHY,
  type HostileRequest,
  RETRY_AFTER_FORMS,
  type RetryAfterForm,
  SANE_RETRY_AFTER,
  startHostileServer,
} from './hostile-server.ts';

const settings: ClientSettings = { ...DEFAULT_SETTINGS, timeoutMs: 800 };

type ProbeKind = 'orders.cancel' | 'orders.cancelAll' | 'orders.closePosition';
const PROBES: Record<
  ProbeKind,
  { bucket: string; call(c: FuturesClient, i: number): Promise<unknown>; is(r: HostileRequest): boolean }
> = {
  'orders.cancel': {
    bucket: endpointByName('orders.cancel').bucket,
    call: (c, i) => c.orders.cancel(`probe-${i}`),
    is: (r) => r.path.startsWith('/v2/orders/probe-'),
  },
  'orders.cancelAll': {
    bucket: endpointByName('orders.cancelAll').bucket,
    call: (c) => c.orders.cancelAll({ symbol: 'ETHUSDT' }),
    is: (r) => r.path === '/v2/orders/open' && r.query.get('symbol') === 'ETHUSDT',
  },
  'orders.closePosition': {
    bucket: endpointByName('orders.closePosition').bucket,
    call: (c) => c.orders.closePosition({ positionId: 'probe-pos' }),
    is: (r) => r.path === '/v2/positions/close' && (r.body ?? '').includes('probe-pos'),
  },
};
const isProbe = (r: HostileRequest) => Object.values(PROBES).some((p) => p.is(r));
const probeOfCall = (kind: ProbeKind, i: number) => (r: HostileRequest) =>
  kind === 'orders.cancel' ? r.path === `/v2/orders/probe-${i}/cancel` : PROBES[kind].is(r);

/** A plain (not kill-switch) call per bucket, for the pause-cap check. */
const PLAIN_BY_BUCKET: Record<string, string> = {
  default: 'orders.list',
  orders: 'orders.create',
  batch: 'orders.createBatch',
  public: 'market.symbols',
};

/** The shortest pause a 429 with these Retry-After values may cause (absurd values: ignored → 1 s, or clamped). */
function minPauseMs(forms: RetryAfterForm[]): number {
  const sane = forms.filter((f) => SANE_RETRY_AFTER.has(f));
  if (forms.length === 0 || sane.length === 0) return 1000;
  const ms: Record<string, number> = {
    'seconds-0': 0,
    'seconds-1': 1000,
    'fraction-0.5': 500,
    'fraction-1.5': 1500,
    'date-future-1s': 1000,
  };
  return Math.min(...sane.map((f) => ms[f] ?? 0));
}

interface KillCase {
  trigger: string;
  retryAfter: RetryAfterForm[];
  probes: ProbeKind[];
  probeAnswer: 'ok' | '429';
  checkCap: boolean;
}

const killCaseArb: fc.Arbitrary<KillCase> = fc.record({
  trigger: fc.constantFrom(...hostileEndpoints().map((e) => e.name)),
  retryAfter: fc.oneof(
    { weight: 1, arbitrary: fc.constant([] as RetryAfterForm[]) },
    { weight: 4, arbitrary: fc.array(fc.constantFrom(...RETRY_AFTER_FORMS), { minLength: 1, maxLength: 1 }) },
    { weight: 1, arbitrary: fc.array(fc.constantFrom(...RETRY_AFTER_FORMS), { minLength: 2, maxLength: 2 }) },
  ),
  probes: fc.array(fc.constantFrom<ProbeKind>('orders.cancel', 'orders.cancelAll', 'orders.closePosition'), {
    minLength: 1,
    maxLength: 3,
  }),
  probeAnswer: fc.constantFrom('ok' as const, '429' as const),
  checkCap: fc.boolean(),
});

/**
 * Settles `promise`, waiting up to `ms` + 5 s so that a call over its bound is measured (how long it took) rather
 * than abandoned.
 */
async function settleWithin(promise: Promise<unknown>, ms: number) {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const outcome = await Promise.race([
      promise.then(
        () => ({ settled: true, resolved: true, error: undefined as unknown }),
        (error: unknown) => ({ settled: true, resolved: false, error }),
      ),
      new Promise<{ settled: false; resolved: false; error: undefined }>((resolve) => {
        timer = setTimeout(() => resolve({ settled: false, resolved: false, error: undefined }), ms + 5000);
      }),
    ]);
    return { ...outcome, took: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Concurrent probes' 429s may pause the bucket again while a plain call waits, so every attempt of it may wait a
 * whole capped pause in the pacer on top of the usual bound.
 */
const bound = deadlineBound(settings) + (settings.retry.limit + 2) * settings.maxPauseMs;

async function runKillCase(k: KillCase): Promise<Violation[]> {
  const v: Violation[] = [];
  const triggerEndpoint = endpointByName(k.trigger);
  const tooMany = answer({ status: 429, body: 'envelope', error: 'Too many requests', retryAfter: k.retryAfter });
  const server = await startHostileServer({
    holdMs: 20_000,
    answer: (r) => {
      if (isProbe(r)) return k.probeAnswer === 'ok' ? HEALTHY : tooMany;
      if (r.tag === 'cap') return HEALTHY;
      return tooMany;
    },
  });
  const apiKey = distinctiveKey('Kk');
  const logs: string[] = [];
  const client = makeClient({
    baseUrl: server.url,
    apiKey,
    apiSecret: distinctiveKey('Ks'),
    settings,
    fetch: recordingFetch([], () => undefined),
    logger: recordingLogger(logs),
  });
  try {
    server.tag = 'trigger';
    const triggerCall = settleWithin(triggerEndpoint.call(client), bound);
    const first429 = await server.waitFor((r) => r.tag === 'trigger' && r.answeredAt !== undefined, 3000);
    if (!first429) {
      v.push({ invariant: 'kill-switch-setup', detail: `${k.trigger} never reached the server` });
      return v;
    }
    // Let the client read the 429 and pause the bucket.
    await new Promise((resolve) => setTimeout(resolve, 40));
    server.tag = 'probes';
    const t0 = Date.now();
    const probeCalls = k.probes.map((kind, i) => ({
      kind,
      i,
      startedAt: Date.now(),
      result: settleWithin(PROBES[kind].call(client, i), bound),
    }));
    const settled = await Promise.all(probeCalls.map((p) => p.result));
    const trigger = await triggerCall;

    const pausedBucket = triggerEndpoint.bucket;
    const pause = minPauseMs(k.retryAfter);
    // 429s answered (trigger attempts, and probe attempts when they get 429): each pauses its bucket again.
    const pauseStarts = server.records
      .filter(
        (r) => r.answer.status === 429 && r.answeredAt !== undefined && (r.endpoint?.bucket ?? '') === pausedBucket,
      )
      .map((r) => r.answeredAt!);
    // Paused for sure: past the client's reading of a 429 (20 ms) and not at the very end of its pause (50 ms).
    const pausedAt = (t: number) => pauseStarts.some((s) => t >= s + 20 && t < s + pause - 50);

    for (const [index, p] of probeCalls.entries()) {
      const outcome = settled[index]!;
      const name = `${p.kind}#${p.i}`;
      if (!outcome.settled || outcome.took > bound) {
        v.push({
          invariant: 'settles-within-bound',
          detail: `${name} ${outcome.settled ? `took ${outcome.took} ms` : `did not settle within ${bound + 5000} ms`} (bound ${bound} ms)`,
        });
        if (!outcome.settled) continue;
      }
      const mine = server.records.filter(probeOfCall(p.kind, p.i));
      if (mine.length === 0) {
        v.push({
          invariant: 'kill-switch-reaches-server',
          detail: `${name} never reached the server after a 429 (Retry-After ${k.retryAfter.join('+') || 'none'}) on ${pausedBucket}: ${describeError(outcome.error)}`,
        });
        continue;
      }
      // One probe per second on a paused bucket, counting the request that got the 429: the n-th probe goes out
      // at most n seconds after the 429. A probe on another bucket is not held at all.
      const arrival = mine[0]!.receivedAt;
      const sameBucket = PROBES[p.kind].bucket === pausedBucket;
      // Every request the bucket sent since the 429 (the 429'd call's own retries included) takes a slot.
      const before = server.records.filter(
        (r) =>
          sameBucket &&
          r.endpoint?.bucket === pausedBucket &&
          r.receivedAt > first429.receivedAt &&
          r.receivedAt < arrival,
      ).length;
      const since = sameBucket ? first429.answeredAt! : t0;
      const allowed = sameBucket ? (before + 1) * 1000 + 300 : 400;
      if (arrival - since > allowed) {
        v.push({
          invariant: 'kill-switch-reaches-server',
          detail: `${name} reached the server ${arrival - since} ms after ${sameBucket ? 'the 429' : 'it was called'} (allowed ${allowed} ms: ${before} request(s) before it${sameBucket ? ` on the paused ${pausedBucket} bucket` : `; its bucket ${PROBES[p.kind].bucket} was not paused`}); ${outcome.resolved ? 'resolved' : describeError(outcome.error)}`,
        });
      }
    }
    // At most one probe per second per paused bucket.
    const onBucket = server.records.filter(
      (r) => r.endpoint?.killSwitch && r.endpoint.bucket === pausedBucket && r.receivedAt > first429.receivedAt,
    );
    for (let i = 1; i < onBucket.length; i++) {
      const gap = onBucket[i]!.receivedAt - onBucket[i - 1]!.receivedAt;
      if (pausedAt(onBucket[i]!.receivedAt) && gap < 900) {
        v.push({
          invariant: 'kill-switch-probes-one-per-second',
          detail: `probes #${onBucket[i - 1]!.seq} and #${onBucket[i]!.seq} on the paused ${pausedBucket} bucket were ${gap} ms apart`,
        });
        break;
      }
    }
    // The call that got the 429 ends with RateLimitError (also when its Retry-After was absurd).
    if (!trigger.settled || trigger.took > bound) {
      v.push({
        invariant: 'settles-within-bound',
        detail: `${k.trigger} (the 429'd call) ${trigger.settled ? `took ${trigger.took} ms` : `did not settle within ${bound + 5000} ms`} (bound ${bound} ms; ${server.records.filter((r) => !isProbe(r)).length} attempts reached the server)`,
      });
    }
    if (!trigger.settled) {
      // measured above
    } else if (trigger.resolved || (trigger.error as { name?: string })?.name !== 'RateLimitError') {
      v.push({
        invariant: 'a-429-ends-with-RateLimitError',
        detail: `${k.trigger} answered 429 (Retry-After ${k.retryAfter.join('+') || 'none'}) on every attempt ended with ${trigger.resolved ? 'success' : describeError(trigger.error)}`,
      });
    }

    // No pause outlives maxPauseMs: a plain call on the bucket goes out once the cap has passed.
    const plain = PLAIN_BY_BUCKET[pausedBucket];
    if (k.checkCap && plain) {
      const lastPause = Math.max(
        ...server.records.filter((r) => r.answer.status === 429 && r.answeredAt).map((r) => r.answeredAt!),
      );
      const at = lastPause + settings.maxPauseMs + 150;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
      server.tag = 'cap';
      const startedAt = Date.now();
      const outcome = await settleWithin(endpointByName(plain).call(client), bound);
      const reached = server.records.find((r) => r.tag === 'cap');
      if (!reached || reached.receivedAt - startedAt > 1200 || !outcome.resolved) {
        v.push({
          invariant: 'pause-capped-by-maxPauseMs',
          detail: `${plain} called ${startedAt - lastPause} ms after the last 429 (Retry-After ${k.retryAfter.join('+') || 'none'}; maxPauseMs ${settings.maxPauseMs}) ${
            reached ? `reached the server after ${reached.receivedAt - startedAt} ms` : 'never reached the server'
          } and ${outcome.resolved ? 'resolved' : `failed: ${describeError(outcome.error)}`}`,
        });
      }
    }
  } finally {
    server.tag = undefined;
    await server.close();
  }
  return v;
}

describe('hostile server: the kill switch and the pause cap', () => {
  it('cancel / cancelAll / closePosition reach the server during any pause; no pause outlives maxPauseMs', async () => {
    const result = await hunt({
      name: 'kill switch',
      // Up to three independent cases (each its own server and client) side by side: the waits overlap.
      arbitrary: fc.array(killCaseArb, { minLength: 1, maxLength: 3 }),
      run: async (cases) =>
        (await Promise.all(cases.map(runKillCase))).flatMap((vs, i) =>
          vs.map((v) => ({ ...v, detail: `case ${i}: ${v.detail}` })),
        ),
      minimize: (cases, invariant, until) =>
        minimizeArray(cases, invariant, until, async (subset) => (await Promise.all(subset.map(runKillCase))).flat()),
      numRuns: 12,
      timeBudgetMs: 45_000,
      roundBudgetMs: 15_000,
    });
    const text = report('kill switch', result);
    console.log(text);
    expect(result.observed.size, text).toBe(0);
  }, 90_000);
});
