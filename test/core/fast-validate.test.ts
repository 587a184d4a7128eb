// The fast path for 2xx bodies must give exactly what the response schema gives: the same verdict, the same
// value (unknown fields kept) and, on failure, the same issues. Checked on every endpoint's spec-shaped body, and
// on random mutations of those bodies (fields removed, retyped, added, nested), both ways it checks a body: zod's
// compiled check (servers) and the twin schema (browsers, Workers, before the compiler has loaded).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { compiledCheckOf, loadSchemaCompiler, validateResponse } from '../../src/_internal/fast-validate.ts';
import { parseContext } from '../../src/_internal/issue-message.ts';
import { ENDPOINTS } from '../../src/actions/endpoints.ts';
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

/** Every path to a value inside `value` (objects and arrays), for picking what to mutate. */
function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value !== 'object' || value === null) return [prefix];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [prefix, ...entries.flatMap(([key, v]) => paths(v, [...prefix, key]))];
}

function mutate(body: unknown, path: Array<string | number>, replacement: unknown, remove: boolean): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  if (path.length === 0) return replacement;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (remove && !Array.isArray(target)) delete target[last];
  else target[last] = replacement;
  return copy;
}

const replacements = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.constant({ extra: 'kept' }),
  fc.constant([]),
  fc.constant('0.01'),
);

beforeAll(() => loadSchemaCompiler());

describe('validateResponse (the fast path for 2xx bodies)', () => {
  it('covers most endpoints', () => {
    expect(cases.length).toBeGreaterThan(20);
  });

  it('has a compiled check for every response schema here (Node)', () => {
    expect(cases.filter((c) => compiledCheckOf(c.endpoint.response) === undefined).map((c) => c.endpoint.name)).toEqual(
      [],
    );
  });

  it.each(cases.map((c) => [c.endpoint.name, c] as const))(
    '%s: same value as the schema, unknown fields kept',
    (_, c) => {
      const withExtras = { ...(c.body as object), serverAddedField: { nested: [1, 'two'] } };
      const fast = validateResponse(c.endpoint.response, withExtras, JSON.stringify(withExtras));
      const real = c.endpoint.response.safeParse(withExtras, parseContext);
      expect(fast.success).toBe(true);
      expect(real.success).toBe(true);
      expect(fast.data).toEqual(real.data);
      expect(fast.data).toMatchObject({ serverAddedField: { nested: [1, 'two'] } });
    },
  );

  it('leaves a body that could hold a __proto__ key to the real schema, which drops it', () => {
    const { endpoint, body } = cases.find((c) => c.endpoint.name === 'account.balance')!;
    const text = JSON.stringify(body).replace('{', '{"__proto__":{"polluted":true},');
    const fast = validateResponse(endpoint.response, JSON.parse(text), text);
    expect(fast.success).toBe(true);
    expect(Object.hasOwn(fast.data as object, '__proto__')).toBe(false);
    expect(Object.assign({}, fast.data)).not.toHaveProperty('polluted');
  });

  it.each([
    ['the compiled check', true],
    ['the twin', false],
  ])(
    'gives the same verdict, value and issues as the schema for mutated bodies of every endpoint (%s)',
    (_, compiled) => {
      fc.assert(
        fc.property(
          fc.constantFrom(...cases),
          fc.nat(),
          replacements,
          fc.boolean(),
          ({ endpoint, body }, pick, replacement, remove) => {
            const all = paths(body);
            const mutated = mutate(body, all[pick % all.length]!, replacement, remove);
            const fast = validateResponse(endpoint.response, mutated, JSON.stringify(mutated) ?? '', compiled);
            const real = endpoint.response.safeParse(mutated, parseContext);
            expect(fast.success).toBe(real.success);
            if (real.success) expect(fast.data).toEqual(real.data);
            else expect(fast.error?.issues).toEqual(real.error.issues);
          },
        ),
        { numRuns: 2_000 },
      );
    },
  );
});
