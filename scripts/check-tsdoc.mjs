// Fails when a public export of `futures-sdk`, `/testing` or `/redis` has no TSDoc or no summary, or is a
// function or class without an `@example` (types and schemas need a summary only).
// Public = whatever the entry files export (re-exports followed to the declaration). Public members of an
// exported class need at least a summary (an inherited one counts, as it does in an editor's hover).
//
// Usage: node scripts/check-tsdoc.mjs [--list]   (--list also prints every export that was checked)
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entries = [
  'src/index.ts',
  'src/endpoints/orders/index.ts',
  'src/endpoints/futures/index.ts',
  'src/endpoints/account/index.ts',
  'src/endpoints/market/index.ts',
  'src/testing/index.ts', 'src/testing/msw/index.ts', 'src/testing/server/index.ts',
  'src/redis/index.ts',
];
const listAll = process.argv.includes('--list');

const configPath = resolve(root, 'tsconfig.json');
const configFile = ts.readConfigFile(configPath, ts.sys.readFile);
if (configFile.error) fail(ts.flattenDiagnosticMessageText(configFile.error.messageText, '\n'));
const config = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root, undefined, configPath);
// Only the entry files as roots: the checker reaches the rest through imports, which keeps this fast.
const program = ts.createProgram({
  rootNames: entries.map((e) => resolve(root, e)),
  options: { ...config.options, noEmit: true },
});
const checker = program.getTypeChecker();

/** @type {Map<string, {file: string, line: number, name: string, problem: string}>} */
const offenders = new Map();
const checkedDeclarations = new Set();
const checkedMembers = new Set();
let exportCount = 0;

for (const entry of entries) {
  const sourceFile = program.getSourceFile(resolve(root, entry));
  if (!sourceFile) fail(`entry not found: ${entry}`);
  const moduleSymbol = checker.getSymbolAtLocation(sourceFile);
  if (!moduleSymbol) fail(`${entry} is not a module`);
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    exportCount += 1;
    const name = exported.getName();
    const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declarations = publicDeclarations(target);
    if (listAll) console.log(`${entry}: ${name}${declarations.length ? ` -> ${where(declarations[0]).file}` : ''}`);
    if (declarations.length === 0) {
      report(sourceFile, name, 'export resolves to no declaration');
      continue;
    }
    declarations.forEach((declaration, index) => {
      if (checkedDeclarations.has(declaration)) return;
      checkedDeclarations.add(declaration);
      if (isExternal(declaration)) {
        report(declaration, name, 're-exported from a dependency: document a local alias instead');
        return;
      }
      // What a user calls needs an example (for overloads, the first signature); a type or a schema, a summary.
      const problem = docProblem(declaration, { needExample: index === 0 && isCallable(declaration) });
      const declaredAs = target.getName() === name ? '' : `, declared as ${target.getName()}`;
      if (problem) report(declaration, name, `${problem}${declaredAs}`);
      if (ts.isClassDeclaration(declaration)) checkClassMembers(declaration, name);
    });
  }
}

const sorted = [...offenders.values()].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
for (const o of sorted) console.log(`${o.file}:${o.line} ${o.name}  (${o.problem})`);
if (sorted.length > 0) {
  console.error(`check-tsdoc: ${sorted.length} public declaration(s) lack TSDoc or an @example`);
  process.exit(1);
}
console.log(
  `check-tsdoc: OK, ${exportCount} exports (${checkedDeclarations.size} declarations, ` +
    `${checkedMembers.size} class members) documented`,
);

// ── helpers ──────────────────────────────────────────────────────────────────────────────────────────────────

/** Declarations a user can see: overload implementations are hidden behind their signatures. */
function publicDeclarations(symbol) {
  const declarations = symbol.declarations ?? [];
  const hasOverloads = declarations.filter(isFunctionLike).length > 1;
  return declarations.filter((d) => !(hasOverloads && isFunctionLike(d) && d.body !== undefined));
}

function isFunctionLike(node) {
  return ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isMethodSignature(node);
}

/** A function, a class, or a `const` bound to a function: things a user calls, shown with an example. */
function isCallable(node) {
  if (isFunctionLike(node) || ts.isClassDeclaration(node)) return true;
  const init = ts.isVariableDeclaration(node) ? node.initializer : undefined;
  return init !== undefined && (ts.isArrowFunction(init) || ts.isFunctionExpression(init));
}

function isExternal(node) {
  const file = node.getSourceFile();
  return program.isSourceFileFromExternalLibrary(file) || file.fileName.includes('/node_modules/');
}

/** The TSDoc block a reader sees for `node`: the last `/** *\/` comment in front of it, or the `@param` text. */
function tsdocOf(node) {
  if (ts.isParameter(node)) {
    // A constructor parameter property is documented by the constructor's `@param`.
    const tag = ts.getJSDocParameterTags(node)[0];
    return tag ? { summary: ts.getTextOfJSDocComment(tag.comment) ?? '', tags: [] } : undefined;
  }
  const blocks = ts
    .getJSDocCommentsAndTags(node)
    .filter(ts.isJSDoc)
    .filter((doc) => !(doc.tags ?? []).some((t) => ['packageDocumentation', 'module'].includes(t.tagName.text)));
  const doc = blocks.at(-1);
  if (!doc) return undefined;
  return { summary: ts.getTextOfJSDocComment(doc.comment) ?? '', tags: doc.tags ?? [] };
}

function docProblem(node, { needExample }) {
  const doc = tsdocOf(node);
  if (!doc) return 'no TSDoc';
  if (doc.summary.trim() === '') return 'TSDoc has no summary';
  if (!needExample) return undefined;
  const example = doc.tags.find((t) => t.tagName.text === 'example');
  if (!example) return 'no @example';
  if ((ts.getTextOfJSDocComment(example.comment) ?? '').replace(/```\w*/g, '').trim() === '') return 'empty @example';
  return undefined;
}

function checkClassMembers(classDeclaration, className) {
  const members = [...classDeclaration.members];
  const ctor = members.find(ts.isConstructorDeclaration);
  if (ctor) members.push(...ctor.parameters.filter((p) => ts.isParameterPropertyDeclaration(p, ctor)));
  for (const member of members) {
    if (ts.isConstructorDeclaration(member) || ts.isClassStaticBlockDeclaration(member)) continue;
    if (ts.isIndexSignatureDeclaration(member) || ts.isSemicolonClassElement(member)) continue;
    if (!member.name || ts.isPrivateIdentifier(member.name)) continue;
    const flags = ts.getCombinedModifierFlags(member);
    if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
    const symbol = checker.getSymbolAtLocation(member.name);
    if (!symbol || checkedMembers.has(symbol)) continue;
    checkedMembers.add(symbol);
    const memberName = `${className}.${symbol.getName()}`;
    const visible = publicDeclarations(symbol).filter((d) => d.parent === classDeclaration || ts.isParameter(d));
    const own = visible.map((d) => docProblem(d, { needExample: false }));
    if (own.every((p) => p === undefined)) continue;
    // A get/set pair or an override may carry its summary on the other accessor or on the base member.
    const inherited = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
    if (inherited !== '') continue;
    const firstBad = visible[own.findIndex((p) => p !== undefined)] ?? member;
    report(firstBad, memberName, own.find((p) => p !== undefined) ?? 'no TSDoc');
  }
}

function where(node) {
  const file = node.getSourceFile();
  const position = ts.isSourceFile(node) ? 0 : node.getStart(file);
  const { line } = file.getLineAndCharacterOfPosition(position);
  return { file: relative(root, file.fileName), line: line + 1 };
}

function report(node, name, problem) {
  const { file, line } = where(node);
  offenders.set(`${file}:${line}:${name}`, { file, line, name, problem });
}

function fail(message) {
  console.error(`check-tsdoc: ${message}`);
  process.exit(2);
}
