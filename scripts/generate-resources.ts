// The resource classes (`client.orders`, `client.futures`, `client.account`, `client.market`) are derived from the
// public functions of the endpoint files: those src/endpoints/<resource>/index.ts (the `futures-sdk/<resource>`
// entry) exports. One method per function, same parameters without the client, same return type, documented by
// `{@inheritDoc}` of the function, delegating to it (`async`/`return await`, so that a failure's stack trace shows
// the method). Nothing in src/resources/ is written by hand but each class's own TSDoc, which this script keeps.
//   npm run generate:resources          rewrites src/resources/*.ts (then formats them with Biome)
//   test/docs/resources.test.ts         fails when a committed file differs from what this script makes
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const RESOURCES = {
  orders: 'OrdersResource',
  futures: 'FuturesResource',
  account: 'AccountResource',
  market: 'MarketResource',
} as const;
type Resource = keyof typeof RESOURCES;

const root = fileURLToPath(new URL('../', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');
const parse = (path: string) => ts.createSourceFile(path, read(path), ts.ScriptTarget.ES2022, true);
const isExported = (node: ts.Node) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** Type names used in a piece of type text. */
function typeNames(text: string): string[] {
  return [...text.matchAll(/\b[A-Z]\w*\b/g)].map((m) => m[0]);
}

/** The functions an entry exports, in its order: `export { name } from './file.ts'` → [name, src/ path of file]. */
function entryFunctions(resource: Resource): Array<[string, string]> {
  const entry = `src/endpoints/${resource}/index.ts`;
  const found: Array<[string, string]> = [];
  for (const statement of parse(entry).statements) {
    if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier) continue;
    if (!statement.exportClause || !ts.isNamedExports(statement.exportClause)) continue;
    const from = posix.join(posix.dirname(entry), (statement.moduleSpecifier as ts.StringLiteral).text);
    // Only endpoint files make methods (futures-sdk/market also exports createMarketFeed, from market-feed/).
    if (!from.startsWith(`${posix.dirname(entry)}/`)) continue;
    for (const element of statement.exportClause.elements) found.push([element.name.text, from]);
  }
  return found;
}

/** Where each type name an endpoint file declares or imports comes from, as a path from the repository root. */
function typeHomes(path: string, source: ts.SourceFile): Map<string, string> {
  const homes = new Map<string, string>();
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && statement.importClause) {
      const from = posix.join(posix.dirname(path), (statement.moduleSpecifier as ts.StringLiteral).text);
      const bindings = statement.importClause.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) homes.set(element.name.text, from);
    } else if (
      (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isClassDeclaration(statement)) &&
      statement.name &&
      isExported(statement)
    ) {
      homes.set(statement.name.text, path);
    }
  }
  return homes;
}

/** The generated source of src/resources/<resource>.ts, before formatting. */
export function resourceSource(resource: Resource): string {
  const methods: string[] = [];
  const imports = new Map<string, Set<string>>();
  const use = (type: string, from: string) => {
    const specifier = `../${posix.relative('src', from)}`;
    const names = imports.get(specifier) ?? new Set<string>();
    names.add(type);
    imports.set(specifier, names);
  };
  use('BaseClient', 'src/base-client.ts');
  use('CallOptions', 'src/options.ts');
  const builtIns = new Set(['Promise', 'AsyncGenerator', 'Record', 'Array', 'ReadonlyArray']);

  for (const [name, path] of entryFunctions(resource)) {
    const source = parse(path);
    const homes = typeHomes(path, source);
    const fn = source.statements.find(
      (s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === name && isExported(s),
    );
    if (!fn) throw new Error(`${path}: no exported function ${name}`);
    const [, ...parameters] = fn.parameters;
    const params = parameters.map((p) => {
      const optional = p.questionToken !== undefined || p.initializer !== undefined;
      return `${p.name.getText(source)}${optional ? '?' : ''}: ${p.type?.getText(source) ?? 'unknown'}`;
    });
    const args = ['this.#client', ...parameters.map((p) => p.name.getText(source))];
    const typeParameters = fn.typeParameters ? `<${fn.typeParameters.map((t) => t.getText(source)).join(', ')}>` : '';
    const typeArguments = fn.typeParameters ? `<${fn.typeParameters.map((t) => t.name.text).join(', ')}>` : '';
    const returns = fn.type?.getText(source) ?? 'unknown';
    const own = new Set(fn.typeParameters?.map((t) => t.name.text) ?? []);
    for (const text of [...params, returns, typeParameters]) {
      for (const type of typeNames(text)) {
        if (own.has(type) || builtIns.has(type)) continue;
        const home = type === 'CallOptions' ? 'src/options.ts' : homes.get(type);
        if (!home) throw new Error(`${path}: cannot tell where ${type} comes from`);
        use(type, home);
      }
    }
    // A generator is returned as it is; a promise is awaited, so that the method stays in a failure's stack trace.
    const call = `${resource}Functions.${name}${typeArguments}(${args.join(', ')})`;
    const body = returns.startsWith('Promise<') ? `return await ${call};` : `return ${call};`;
    methods.push(
      `  /** {@inheritDoc futures-sdk/${resource}!${name}} */\n` +
        `  ${returns.startsWith('Promise<') ? 'async ' : ''}${name}${typeParameters}(${params.join(', ')}): ${returns} {\n` +
        `    ${body}\n` +
        '  }',
    );
  }

  const importLines = [...imports]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([from, names]) => `import type { ${[...names].sort().join(', ')} } from '${from}';`);

  // The class's own TSDoc is the one hand-written part: kept from the current file.
  const current = read(`src/resources/${resource}.ts`);
  const classAt = current.indexOf(`export class ${RESOURCES[resource]}`);
  const docAt = current.lastIndexOf('/**', classAt);
  const classDoc = current.slice(docAt, classAt).trimEnd();

  return [
    `// Generated from src/endpoints/${resource}/ by npm run generate:resources (scripts/generate-resources.ts): edit those.`,
    ...importLines,
    `import * as ${resource}Functions from '../endpoints/${resource}/index.ts';`,
    '',
    classDoc,
    `export class ${RESOURCES[resource]} {`,
    '  readonly #client: BaseClient;',
    '',
    '  /** @internal */',
    '  constructor(client: BaseClient) {',
    '    this.#client = client;',
    '  }',
    '',
    methods.join('\n'),
    '}',
    '',
  ].join('\n');
}

/** `text` formatted by the project's Biome settings, as it would be committed. */
export function formatted(path: string, text: string): string {
  const biome = spawnSync(`${root}node_modules/.bin/biome`, ['check', '--write', `--stdin-file-path=${path}`], {
    cwd: root,
    input: text,
    encoding: 'utf8',
  });
  if (biome.status !== 0) throw new Error(`biome format failed for ${path}: ${biome.stderr}`);
  return biome.stdout;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const resource of Object.keys(RESOURCES) as Resource[]) {
    const path = `src/resources/${resource}.ts`;
    const text = formatted(path, resourceSource(resource));
    const changed = text !== read(path);
    if (changed) writeFileSync(`${root}${path}`, text);
    console.log(`${changed ? 'updated  ' : 'unchanged'} ${path}`);
  }
}
