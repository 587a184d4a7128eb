/**
 * Runs `build` at module load and returns its value. Every top-level value made by a call (the zod schemas,
 * mostly) is written `/* @__PURE__ *\/ pure(() => …)`: zod's builders are not annotated as side-effect free, so
 * `/* @__PURE__ *\/ z.looseObject({ a: z.string() })` would still keep the inner calls; a pure call whose only
 * argument is a function has nothing a bundler must evaluate, so esbuild, Rollup and Terser drop the whole value
 * (and what it alone uses) when nothing imports it. Checked by `npm run check:size`.
 */
export function pure<T>(build: () => T): T {
  return build();
}
