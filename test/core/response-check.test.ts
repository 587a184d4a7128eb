// What every endpoint's 2xx check does, as a user sees it through the transport's answer: a body the schema
// accepts comes back exactly as the server sent it (unknown fields kept, at every level); a body it rejects throws
// `ResponseValidationError` with the schema's own issues in English; an own `__proto__` key never survives.
// Checked on every endpoint's spec-shaped body and on random mutations of it (fields removed, retyped, added).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeParse } from 'zod/mini';
import { answerOf } from '../../src/_internal/answer.ts';
import type { Endpoint } from '../../src/_internal/endpoint.ts';
import type { EndpointCall } from '../../src/_internal/endpoint-call.ts';
import { parseContext } from '../../src/_internal/issue-message.ts';
import { isFailureEnvelope, toPathKey } from '../../src/_internal/response.ts';
import { ENDPOINTS } from '../../src/endpoints/registry.ts';
import { ResponseValidationError } from '../../src/index.ts';
import { specRoutes } from '../actions/_fixtures.ts';

const routes = specRoutes() as Record<string, { body?: unknown } | Array<{ body?: unknown }>>;
const bodyOf = (method: string, path: string): unknown => {
  const concrete = path.replace('{id}', path.startsWith('/v2/accounts') ? 'acc-1' : 'ord-1');
  const route = routes[`${method} ${concrete}`];
  return Array.isArray(route) ? route[0]?.body : route?.body;
};
const cases = ENDPOINTS.map((endpoint) => ({ endpoint, body: bodyOf(endpoint.method, endpoint.path) })).filter(
  (c) => c.body !== undefined,
);

/** The transport's answer to a 200 carrying `text`: the value, or the error thrown. */
function answer(endpoint: Endpoint, text: string): { value: unknown } | { error: unknown } {
  const call = {
    method: endpoint.method,
    path: endpoint.path,
    signed: false,
    bucket: endpoint.bucket,
    safety: 'idempotent',
    schema: endpoint.response,
  } as EndpointCall<unknown>;
  const context = { sentAt: 0, receivedAt: 0, serverNow: () => 0, logger: undefined, acted: () => undefined };
  try {
    const result = answerOf(call, new Response(text, { status: 200 }), text, context);
    if (result.kind !== 'ok') throw new Error(`expected a 2xx answer, got ${result.kind}`);
    return { value: result.value };
  } catch (error) {
    return { error };
  }
}

/** `value` with `serverAddedField` added to every object in it (arrays left as they are). */
function withUnknownFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withUnknownFields);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([key, v]) => [key, withUnknownFields(v)]);
  return { ...Object.fromEntries(entries), serverAddedField: { nested: [1, 'two'] } };
}

/** Every path to a value inside `value` (objects and arrays), for picking what to mutate. */
function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value !== 'object' || value === null) return [prefix];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [prefix, ...entries.flatMap(([key, v]) => paths(v, [...prefix, key]))];
}

function mutate(body: unknown, path: Array<string | number>, replacement: unknown, remove: boolean): unknown {
  if (path.length === 0) return replacement;
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (remove && !Array.isArray(target)) delete target[last];
  else target[last] = replacement;
  return copy;
}

const replacements = fc.oneof(
  fc.constant(null),
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant({ extra: 'kept' }),
  fc.constant([]),
  fc.constant('0.01'),
);

describe("every endpoint's 2xx check (plain safeParse of its response schema)", () => {
  it('covers most endpoints', () => {
    expect(cases.length).toBeGreaterThan(20);
  });

  it.each(cases.map((c) => [c.endpoint.name, c] as const))(
    '%s: returns the body as sent, unknown fields kept at every level',
    (_, { endpoint, body }) => {
      const text = JSON.stringify(withUnknownFields(body));
      const result = answer(endpoint, text);
      expect(result).toStrictEqual({ value: JSON.parse(text) });
    },
  );

  it.each(cases.map((c) => [c.endpoint.name, c] as const))(
    '%s: rejects a body of the wrong type with ResponseValidationError',
    (_, { endpoint }) => {
      for (const text of ['42', '"ok"', '[]', 'null']) {
        const result = answer(endpoint, text);
        expect('error' in result && result.error).toBeInstanceOf(ResponseValidationError);
      }
    },
  );

  it('drops an own __proto__ key of a body (JSON.parse makes one; copying it would set a prototype)', () => {
    const { endpoint, body } = cases.find((c) => c.endpoint.name === 'account.balance')!;
    const text = JSON.stringify(body).replace('{', '{"__proto__":{"polluted":true},');
    const result = answer(endpoint, text);
    if (!('value' in result)) throw result.error;
    expect(Object.hasOwn(result.value as object, '__proto__')).toBe(false);
    expect(Object.assign({}, result.value)).not.toHaveProperty('polluted');
  });

  it('mutated bodies of every endpoint: all kept when accepted, the schema’s English issues when not', () => {
    let rejected = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...cases),
        fc.nat(),
        replacements,
        fc.boolean(),
        ({ endpoint, body }, pick, replacement, remove) => {
          const all = paths(body);
          const text = JSON.stringify(mutate(body, all[pick % all.length]!, replacement, remove));
          const sent: unknown = JSON.parse(text);
          fc.pre(!isFailureEnvelope(sent)); // `ok: false` is a failed call, not a body to check
          const result = answer(endpoint, text);
          const expected = safeParse(endpoint.response, sent, parseContext);
          if (expected.success) {
            // What the server sent is all kept; a schema may add what it defaults (cancel-all's `total`).
            expect(result).toStrictEqual({ value: expected.data });
            expect(expected.data).toMatchObject(sent as object);
            return;
          }
          rejected++;
          if (!('error' in result)) throw new Error(`accepted a body the schema rejects: ${text}`);
          expect(result.error).toBeInstanceOf(ResponseValidationError);
          const { issues, body: kept } = result.error as ResponseValidationError;
          expect(kept).toStrictEqual(sent);
          expect(issues).toEqual(
            expected.error.issues.map((issue) => ({ path: issue.path.map(toPathKey), message: issue.message })),
          );
          for (const issue of issues) expect(issue.message).toMatch(/^[A-Z][a-z]+ /);
        },
      ),
      { numRuns: 2_000 },
    );
    expect(rejected).toBeGreaterThan(100);
  });
});
