/**
 * Runs `build`. Top-level values made by calls (zod schemas) are written `/* @__PURE__ *\/ pure(() => …)`: zod's
 * builders are not annotated, so a bare `/* @__PURE__ *\/ z.looseObject(…)` keeps its inner calls, while a pure
 * call of a function is dropped whole by esbuild, Rollup and Terser when unused (`npm run check:size`).
 */
export function pure<T>(build: () => T): T {
  return build();
}
