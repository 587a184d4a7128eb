// The layers of src/, written down once, and checked on every import (static, `import type`, `export … from`,
// `import()` and `typeof import()`, read from the syntax tree so comments and strings never count): a file may
// import only from its own layer or the layers listed before it; no import cycle anywhere in src/ (type-only
// imports count: a cycle of types is a tangle too); no file over 450 lines; every file belongs to a layer; the
// client (src/ outside src/testing) at most 12,000 lines in all (issue 19: no loss of behaviour or tests).
// docs/architecture.md and CONTRIBUTING.md describe the same order.  Run: npm run check:layers
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

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
  ['base client', [/^base-client\.ts$/, /^public-client\.ts$/]],
  ['endpoints', [/^endpoints\//, /^market-feed\//]],
  ['resources', [/^resources\//]],
  ['events', [/^events\//]],
  ['client', [/^client\.ts$/]],
  ['entry points', [/^index\.ts$/, /^redis\//]],
];

/** The simulator imports nothing of the client but exact decimal arithmetic (directly or through it). */
const SIMULATOR = /^testing\//;
const SIMULATOR_MAY_IMPORT = [/^testing\//, /^_internal\/decimal\.ts$/];

const MAX_LINES = 450;
const MAX_CLIENT_LINES = 12_000;

/** The package's own name: `futures-sdk` and `futures-sdk/<subpath>` resolve to entry files of src/. */
const SELF = 'futures-sdk';

/** An absolute path as the rules name it: relative to src/, with forward slashes. */
const inSrc = (path) => relative(src, path).split('\\').join('/');

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => inSrc(join(entry.parentPath, entry.name)))
    .sort();
}

const files = sourceFiles(src);
const fileSet = new Set(files);

/** `futures-sdk[/subpath]` → the src/ file that entry is built from (tsup.config.ts), or undefined. */
function selfTarget(specifier) {
  if (specifier === SELF) return 'index.ts';
  const sub = specifier.slice(SELF.length + 1);
  return [`${sub}/index.ts`, `${sub}.ts`, `endpoints/${sub}/index.ts`].find((candidate) => fileSet.has(candidate));
}

/** Every module specifier a file names: import/export declarations, `import()`, `import('…').T`, `require`. */
function specifiersOf(sourceFile) {
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      found.push(node.moduleSpecifier);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      found.push(node.moduleReference.expression);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      found.push(node.argument.literal);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      found.push(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found.filter((literal) => literal && ts.isStringLiteralLike(literal)).map((literal) => literal.text);
}

const problems = [];
let clientLines = 0;
/** file → the src/ files it imports (relative specifiers and the package's own name, resolved). */
const graph = new Map();
for (const file of files) {
  const text = readFileSync(join(src, file), 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_LINES) problems.push(`${file}: ${lines} lines (at most ${MAX_LINES}: split it by job)`);
  if (!SIMULATOR.test(file)) clientLines += lines;
  const targets = new Set();
  for (const specifier of specifiersOf(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false))) {
    let target;
    if (specifier.startsWith('.')) {
      target = inSrc(resolve(dirname(join(src, file)), specifier));
    } else if (specifier === SELF || specifier.startsWith(`${SELF}/`)) {
      target = selfTarget(specifier);
      if (target === undefined) {
        problems.push(`${file}: imports ${specifier}, which is no entry file of src/`);
        continue;
      }
    } else continue; // a library
    if (!fileSet.has(target)) problems.push(`${file}: imports ${target}, which is not a source file`);
    else targets.add(target);
  }
  graph.set(file, [...targets]);
}

const layerOf = (file) => LAYERS.findIndex(([, patterns]) => patterns.some((p) => p.test(file)));

for (const file of files) {
  if (!SIMULATOR.test(file) && layerOf(file) < 0) {
    problems.push(`${file}: in no layer (add it to LAYERS in scripts/check-layers.mjs and docs/architecture.md)`);
  }
}

for (const [file, targets] of graph) {
  for (const target of targets) {
    if (SIMULATOR.test(file)) {
      if (!SIMULATOR_MAY_IMPORT.some((p) => p.test(target))) {
        problems.push(
          `${file}: the simulator imports ${target} (it may import only testing/ and _internal/decimal.ts)`,
        );
      }
      continue;
    }
    if (SIMULATOR.test(target)) {
      problems.push(`${file}: imports the simulator (${target})`);
      continue;
    }
    const from = layerOf(file);
    const to = layerOf(target);
    if (from >= 0 && to > from) {
      problems.push(`${file} (${LAYERS[from][0]}) imports ${target} (${LAYERS[to][0]}), a layer above it`);
    }
  }
}

// What the simulator may import must not reach further into the client itself.
for (const allowed of files.filter((file) => !SIMULATOR.test(file) && SIMULATOR_MAY_IMPORT.some((p) => p.test(file)))) {
  for (const target of graph.get(allowed)) {
    if (!SIMULATOR_MAY_IMPORT.some((p) => p.test(target))) {
      problems.push(`${allowed}: the simulator uses it, so it may import only what the simulator may (not ${target})`);
    }
  }
}

// Cycles: each strongly connected component of more than one file (or a file importing itself) is one tangle,
// reported as its shortest cycle through its first file, plus the other files caught in it.
function tangles() {
  let index = 0;
  const indexOf = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const connect = (file) => {
    indexOf.set(file, index);
    low.set(file, index);
    index += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file)) {
      if (!indexOf.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file), low.get(target)));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file), indexOf.get(target)));
    }
    if (low.get(file) === indexOf.get(file)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || graph.get(file).includes(file)) found.push(component.sort());
    }
  };
  for (const file of files) if (!indexOf.has(file)) connect(file);
  return found;
}

function shortestCycle(start, members) {
  const inside = new Set(members);
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  for (const file of queue) {
    for (const target of graph.get(file)) {
      if (target === start) {
        const path = [start];
        for (let at = file; at !== start; at = previous.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (inside.has(target) && !previous.has(target)) {
        previous.set(target, file);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

for (const component of tangles()) {
  const cycle = shortestCycle(component[0], component);
  const others = component.filter((file) => !cycle.includes(file));
  const listed = others.length > 8 ? [...others.slice(0, 8), `… ${others.length - 8} more`] : others;
  problems.push(`import cycle: ${cycle.join(' → ')}${others.length > 0 ? ` (same tangle: ${listed.join(', ')})` : ''}`);
}

if (clientLines > MAX_CLIENT_LINES) {
  problems.push(`src/ outside src/testing: ${clientLines} lines (at most ${MAX_CLIENT_LINES})`);
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`check-layers: ${problems.length} problem(s) in ${files.length} files`);
  process.exit(1);
}
console.log(
  `check-layers: OK, ${files.length} files in ${LAYERS.length} layers, no cycles, none over ${MAX_LINES} lines, ${clientLines} client lines (at most ${MAX_CLIENT_LINES})`,
);
