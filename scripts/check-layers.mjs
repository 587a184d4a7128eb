// The layers of src/, written down once, and checked on every import (static, `import type`, `export … from`
// and dynamic `import()`): a file may import only from its own layer or the layers listed before it; no import
// cycle anywhere in src/ (type-only imports count: a cycle of types is a tangle too); no file over 450 lines.
// docs/architecture.md and CONTRIBUTING.md describe the same order.  Run: npm run check:layers
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const src = join(root, 'src');

/**
 * Lowest first. A file belongs to the first layer with a matching pattern (paths relative to src/). The
 * simulator (testing/) is not in this list: it is checked by its own rule below.
 */
export const LAYERS = [
  [
    'foundation',
    [
      /^options\.ts$/,
      /^signer\.ts$/,
      /^fleet\/types\.ts$/,
      /^events\/web-socket\.ts$/,
      /^_internal\/(pure|decimal|uuid|env|backoff|redact)\.ts$/,
    ],
  ],
  ['schemas', [/^schemas\//]],
  ['errors', [/^errors\//]],
  ['core', [/^_internal\//, /^helpers\//, /^fleet\//]],
  ['actions', [/^actions\//]],
  ['base client', [/^base-client\.ts$/, /^standalone\//]],
  ['resources', [/^resources\//]],
  ['events', [/^events\//]],
  ['client', [/^client\.ts$/]],
  ['entry points', [/^index\.ts$/, /^redis\//]],
];

/** The simulator imports nothing of the client but exact decimal arithmetic. */
const SIMULATOR = /^testing\//;
const SIMULATOR_MAY_IMPORT = [/^testing\//, /^_internal\/decimal\.ts$/];

const MAX_LINES = 450;

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(src, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

/** Relative specifiers of every import, re-export and dynamic import of a file (comments removed first). */
function importsOf(file) {
  const code = readFileSync(join(src, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const found = new Set();
  const patterns = [/\bfrom\s*['"](\.[^'"]+)['"]/g, /\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)/g, /^\s*import\s*['"](\.[^'"]+)['"]/gm];
  for (const pattern of patterns) {
    for (const match of code.matchAll(pattern)) {
      const target = relative(src, resolve(dirname(join(src, file)), match[1])).split('\\').join('/');
      found.add(target);
    }
  }
  return [...found];
}

const layerOf = (file) => LAYERS.findIndex(([, patterns]) => patterns.some((p) => p.test(file)));

const files = sourceFiles(src);
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const problems = [];

for (const [file, targets] of graph) {
  const lines = readFileSync(join(src, file), 'utf8').split('\n').length;
  if (lines > MAX_LINES) problems.push(`${file}: ${lines} lines (at most ${MAX_LINES}: split it by job)`);
  for (const target of targets) {
    if (!graph.has(target)) {
      if (!target.endsWith('.cjs.ts')) problems.push(`${file}: imports ${target}, which is not a source file`);
      continue;
    }
    if (SIMULATOR.test(file)) {
      if (!SIMULATOR_MAY_IMPORT.some((p) => p.test(target))) {
        problems.push(`${file}: the simulator imports ${target} (it may import only testing/ and _internal/decimal.ts)`);
      }
      continue;
    }
    if (SIMULATOR.test(target)) {
      problems.push(`${file}: imports the simulator (${target})`);
      continue;
    }
    const from = layerOf(file);
    const to = layerOf(target);
    if (from < 0) problems.push(`${file}: in no layer (add it to LAYERS in scripts/check-layers.mjs)`);
    else if (to > from) {
      problems.push(`${file} (${LAYERS[from][0]}) imports ${target} (${LAYERS[to][0]}), a layer above it`);
    }
  }
}

// Cycles: depth-first search over the whole graph; each cycle is reported once, from its smallest file.
const state = new Map();
const stack = [];
const cycles = new Set();
function visit(file) {
  state.set(file, 'open');
  stack.push(file);
  for (const target of graph.get(file) ?? []) {
    if (!graph.has(target)) continue;
    if (state.get(target) === 'open') {
      const cycle = stack.slice(stack.indexOf(target));
      const start = cycle.indexOf([...cycle].sort()[0]);
      const rotated = [...cycle.slice(start), ...cycle.slice(0, start)];
      cycles.add([...rotated, rotated[0]].join(' → '));
    } else if (!state.has(target)) visit(target);
  }
  stack.pop();
  state.set(file, 'done');
}
for (const file of files) if (!state.has(file)) visit(file);
for (const cycle of cycles) problems.push(`import cycle: ${cycle}`);

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`check-layers: ${problems.length} problem(s) in ${files.length} files`);
  process.exit(1);
}
console.log(`check-layers: OK, ${files.length} files in ${LAYERS.length} layers, no cycles, none over ${MAX_LINES} lines`);
