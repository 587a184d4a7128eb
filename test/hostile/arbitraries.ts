/** fast-check arbitraries of hostile answers and of lanes of calls over every endpoint. */
import fc from 'fast-check';
import { hostileEndpoints } from './endpoints.ts';
import type { CallCase, LaneCase } from './harness.ts';
import {
  type Answer,
  type BodyForm,
  CONTENT_TYPE_FORMS,
  DATE_FORMS,
  ECHO_FORMS,
  type EncodingForm,
  type LengthForm,
  RETRY_AFTER_FORMS,
  type Timing,
} from './hostile-server.ts';

const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
const c = <T>(weight: number, value: T) => ({ weight, arbitrary: fc.constant(value) });

export const ERROR_STRINGS = [
  'Internal error',
  'Too many requests',
  'Invalid or expired timestamp',
  'Signature replay detected',
  'Invalid signature',
  'Insufficient balance',
  'Close quantity exceeds available position quantity',
] as const;

export const statusArb: fc.Arbitrary<number> = fc.oneof(
  c(6, 200),
  c(1, 201),
  c(1, 204),
  c(1, 301),
  c(1, 307),
  c(1, 400),
  c(1, 401),
  c(1, 403),
  c(1, 404),
  c(1, 409),
  c(1, 418),
  c(3, 429),
  c(1, 500),
  c(1, 502),
  c(2, 503),
  c(1, 599),
);

export const retryAfterArb = fc.oneof(
  c(4, [] as Answer['retryAfter']),
  w(3, fc.array(fc.constantFrom(...RETRY_AFTER_FORMS), { minLength: 1, maxLength: 1 })),
  w(1, fc.array(fc.constantFrom(...RETRY_AFTER_FORMS), { minLength: 2, maxLength: 2 })),
);

/** Timings; `timeoutMs` separates answers that arrive in time from those that arrive after the deadline. */
export function timingArb(timeoutMs: number): fc.Arbitrary<Timing> {
  return fc.oneof(
    c(10, { kind: 'immediate' } as Timing),
    w(
      2,
      fc.integer({ min: 1, max: 60 }).map((ms): Timing => ({ kind: 'delayed', ms })),
    ),
    w(
      1,
      fc.integer({ min: timeoutMs + 100, max: timeoutMs + 250 }).map((ms): Timing => ({ kind: 'delayed', ms })),
    ),
    c(1, { kind: 'stall-after-headers' } as Timing),
    c(1, { kind: 'stall-mid-body' } as Timing),
    c(1, { kind: 'drop-before-answer' } as Timing),
    c(2, { kind: 'drop-after-read' } as Timing),
    c(1, { kind: 'drop-mid-body' } as Timing),
  );
}

export function answerArb(timeoutMs: number): fc.Arbitrary<Answer> {
  return fc.record({
    status: statusArb,
    retryAfter: retryAfterArb,
    date: fc.oneof(c(5, 'real' as const), w(3, fc.constantFrom(...DATE_FORMS))),
    length: fc.oneof(
      c(8, 'honest' as LengthForm),
      c(1, 'chunked' as LengthForm),
      c(1, 'close-delimited' as LengthForm),
      c(1, 'larger' as LengthForm),
      c(1, 'ten-gb' as LengthForm),
    ),
    encoding: fc.oneof(
      c(10, 'identity' as EncodingForm),
      c(2, 'gzip' as EncodingForm),
      c(1, 'gzip-truncated' as EncodingForm),
      c(1, 'gzip-bomb' as EncodingForm),
    ),
    contentType: fc.oneof(c(6, 'json' as const), w(2, fc.constantFrom(...CONTENT_TYPE_FORMS))),
    hugeHeaderBytes: fc.oneof(c(12, 0), c(1, 8000), c(1, 70_000)),
    body: fc.oneof(
      c(6, 'valid' as BodyForm),
      c(4, 'envelope' as BodyForm),
      c(1, 'garbage' as BodyForm),
      c(1, 'truncated' as BodyForm),
      c(1, 'html' as BodyForm),
      c(1, 'huge' as BodyForm),
      c(1, 'empty' as BodyForm),
    ),
    error: fc.constantFrom(...ERROR_STRINGS),
    echo: fc.oneof(c(2, 'none' as const), w(3, fc.constantFrom(...ECHO_FORMS))),
    timing: timingArb(timeoutMs),
  });
}

export const endpointNames = (): string[] => hostileEndpoints().map((e) => e.name);

export function callArb(timeoutMs: number, names: string[] = endpointNames()): fc.Arbitrary<CallCase> {
  return fc.record({
    endpoint: fc.constantFrom(...names),
    answers: fc.array(answerArb(timeoutMs), { minLength: 1, maxLength: 3 }),
  });
}

export function laneArb(timeoutMs: number, names?: string[]): fc.Arbitrary<LaneCase> {
  return fc.record(
    {
      calls: fc.array(callArb(timeoutMs, names), { minLength: 1, maxLength: 3 }),
      closedPort: fc.oneof(c(15, false), c(1, true)),
    },
    { requiredKeys: ['calls'] },
  );
}
