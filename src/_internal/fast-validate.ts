// A faster check of 2xx bodies with exactly the same verdict and the same value. Response schemas are
// `z.looseObject`s (unknown fields are kept), and zod copies every unknown key of every object one by one: for a
// page of 200 orders that is ~3× the cost of checking the known keys. When a schema cannot change a value (no
// transform, default, coercion or trimming anywhere in it) and keeps every unknown key, the JSON value that passes
// it IS its output; so the value is checked without building an output and returned as it is: on servers by
// zod's ahead-of-time compiled check of the schema (`#schema-compiler`), elsewhere (and until the compiler has
// loaded) by a twin schema that skips unknown keys. A value the check rejects goes through the real schema, for
// the real issues.

import type * as z from 'zod/mini';
import { $ZodObjectJIT, safeParse } from 'zod/v4/core';
import { parseContext } from './issue-message.ts';

type Schema = z.ZodMiniType;
interface Def {
  type: string;
  checks?: ReadonlyArray<{ _zod: { def: { check: string } } }>;
  [key: string]: unknown;
}

interface Internals {
  _zod: { def: Def; constr: new (def: Def) => Schema };
}
const defOf = (schema: Schema) => (schema as unknown as Internals)._zod.def;
/**
 * The same kind of schema with some of its definition replaced: zod's own constructor, so no schema builder is
 * imported here (bundles that use few of them keep few).
 */
const rebuilt = (schema: Schema, patch: Partial<Def>): Schema => {
  const internals = (schema as unknown as Internals)._zod;
  return new internals.constr({ ...internals.def, ...patch });
};

/** Twins already built (null: the schema may change values, or drops unknown keys, so it must run itself). */
const twins = new WeakMap<Schema, Schema | null>();

type Check = (value: unknown) => boolean;
/** zod's compiler where the package's `#schema-compiler` import provides one (servers), once it has loaded. */
let compiler: ((schema: Schema) => Check | undefined) | undefined;
let compilerLoading: Promise<void> | undefined;
/** Compiled checks already built (null: zod declined the schema; its twin is used). */
const compiledChecks = new WeakMap<Schema, Check | null>();

/** Starts loading the compiler once; resolves when it is there or known to be missing. */
export function loadSchemaCompiler(): Promise<void> {
  compilerLoading ??= import('#schema-compiler').then(
    (module) => {
      compiler = module.compiledCheck;
    },
    () => undefined, // not resolvable here (src run without a build, an unusual bundler): the twins do the job
  );
  return compilerLoading;
}

/** The compiled check of `schema` (tests and the bench ask whether there is one). */
export function compiledCheckOf(schema: Schema): Check | undefined {
  if (!compiler) return undefined;
  let check = compiledChecks.get(schema);
  if (check === undefined) {
    check = compiler(schema) ?? null;
    compiledChecks.set(schema, check);
  }
  return check ?? undefined;
}

/** Leaf types whose output is their input when they accept it. */
const LEAVES = new Set(['string', 'number', 'boolean', 'literal', 'enum', 'null', 'unknown', 'any', 'int']);

/** The twin of each of `schemas`, in order, or null when one of them has none. */
function twinsOf(schemas: readonly Schema[]): Schema[] | null {
  const found: Schema[] = [];
  for (const schema of schemas) {
    const twin = twinOf(schema);
    if (!twin) return null;
    found.push(twin);
  }
  return found;
}

function twinOf(schema: Schema): Schema | null {
  const def = defOf(schema);
  // An "overwrite" check (trim, toLowerCase, …) changes the value it accepts.
  if (def.checks?.some((check) => check._zod.def.check === 'overwrite')) return null;
  if (LEAVES.has(def.type)) return def.coerce ? null : schema;
  switch (def.type) {
    case 'object': {
      const catchall = def.catchall as Schema | undefined;
      // Only objects that keep unknown keys as they are: a stripping object's output differs from its input,
      // and a strict one already rejects what a twin would skip.
      if (!catchall || defOf(catchall).type !== 'unknown' || (def.checks?.length ?? 0) > 0) return null;
      const entries = Object.entries(def.shape as Record<string, Schema>);
      const values = twinsOf(entries.map(([, value]) => value));
      if (!values) return null;
      const shape = Object.fromEntries(entries.map(([key], i) => [key, values[i]]));
      // zod/mini's objects check their keys one by one (no generated code, for strict CSPs); the twin is the
      // compiled kind, which checks a page of 200 orders about twice as fast and falls back by itself where
      // `new Function` is not allowed.
      const { catchall: _kept, ...rest } = def;
      return new $ZodObjectJIT({ ...rest, shape } as unknown as z.core.$ZodObjectDef) as unknown as Schema;
    }
    case 'array': {
      if ((def.checks?.length ?? 0) > 0) return null;
      const element = twinOf(def.element as Schema);
      return element && rebuilt(schema, { element });
    }
    case 'optional':
    case 'nullable': {
      const innerType = twinOf(def.innerType as Schema);
      return innerType && rebuilt(schema, { innerType });
    }
    case 'union': {
      const options = twinsOf(def.options as Schema[]);
      return options && rebuilt(schema, { options });
    }
    case 'tuple': {
      if (def.rest) return null;
      const items = twinsOf(def.items as Schema[]);
      return items && rebuilt(schema, { items });
    }
    case 'record': {
      const valueType = twinOf(def.valueType as Schema);
      return valueType && rebuilt(schema, { valueType });
    }
    default:
      return null;
  }
}

/**
 * `value` (parsed from `text`) when `schema` accepts it and cannot have changed it, else the real schema's
 * result: the same `success`, `data` and `error` as `schema.safeParse(value)`, sooner for large bodies.
 * `useCompiled: false` checks with the twin even where the compiled check is available (tests cover both).
 */
export function validateResponse<T>(
  schema: z.ZodMiniType<T>,
  value: unknown,
  text: string,
  useCompiled = true,
): z.core.util.SafeParseResult<T> {
  // zod never copies an own `__proto__` key (which `JSON.parse` creates, and `Object.assign` would turn into a
  // prototype): a body that could hold one, even spelled with escapes, takes the real schema.
  if (text.includes('proto') || text.includes('\\u')) return schema.safeParse(value, parseContext);
  let twin = twins.get(schema);
  if (twin === undefined) {
    try {
      twin = twinOf(schema);
    } catch {
      twin = null; // a schema shape this module does not know: the real schema decides
    }
    twins.set(schema, twin);
  }
  if (twin) {
    void loadSchemaCompiler();
    const check = useCompiled ? compiledCheckOf(schema) : undefined;
    if (check ? check(value) : safeParse(twin, value).success) {
      return { success: true, data: value as T } as z.core.util.SafeParseResult<T>;
    }
  }
  return schema.safeParse(value, parseContext);
}
