// The resource classes (`client.orders`, `client.futures`, `client.account`, `client.market`) are derived from the
// standalone functions of src/standalone/<resource>.ts: one method per function, same parameters without the
// client, same return type, documented by `{@inheritDoc}` of the function, delegating to it. Nothing in
// src/resources/ is written by hand but each class's own TSDoc, which this script keeps.
//   npm run generate:resources          rewrites src/resources/*.ts (then formats them with Biome)
//   test/docs/resources.test.ts         fails when a committed file differs from what this script makes
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
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

/** Type names used in a piece of type text. */
function typeNames(text: string): string[] {
  return [...text.matchAll(/\b[A-Z]\w*\b/g)].map((m) => m[0]);
}

/** The generated source of src/resources/<resource>.ts, before formatting. */
export function resourceSource(resource: Resource): string {
  const standalonePath = `src/standalone/${resource}.ts`;
  const source = ts.createSourceFile(standalonePath, read(standalonePath), ts.ScriptTarget.ES2022, true);

  // Where each type name the standalone file imports comes from, as seen from src/resources/.
  const moduleOf = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !statement.importClause) continue;
    const from = (statement.moduleSpecifier as ts.StringLiteral).text;
    const bindings = statement.importClause.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) moduleOf.set(element.name.text, from);
  }

  const methods: string[] = [];
  const used = new Set<string>(['BaseClient', 'CallOptions']);
  for (const statement of source.statements) {
    if (!ts.isFunctionDeclaration(statement) || !statement.name) continue;
    if (!statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    const name = statement.name.text;
    const [, ...parameters] = statement.parameters;
    const params = parameters.map((p) => {
      const optional = p.questionToken !== undefined || p.initializer !== undefined;
      return `${p.name.getText(source)}${optional ? '?' : ''}: ${p.type?.getText(source) ?? 'unknown'}`;
    });
    const args = ['this.client', ...parameters.map((p) => p.name.getText(source))];
    const typeParameters = statement.typeParameters ? `<${statement.typeParameters.map((t) => t.getText(source)).join(', ')}>` : '';
    const returns = statement.type?.getText(source) ?? 'unknown';
    const own = new Set(statement.typeParameters?.map((t) => t.name.text) ?? []);
    for (const text of [...params, returns, typeParameters]) {
      for (const type of typeNames(text)) if (!own.has(type)) used.add(type);
    }
    methods.push(
      `  /** {@inheritDoc futures-sdk/${resource}!${name}} */\n` +
        `  ${name}${typeParameters}(${params.join(', ')}): ${returns} {\n` +
        `    return ${resource}Functions.${name}${typeParameters ? `<${statement.typeParameters!.map((t) => t.name.text).join(', ')}>` : ''}(${args.join(', ')});\n` +
        '  }',
    );
  }

  const fromStandalone = (specifier: string) => specifier.replace(/^\.\.\//, '../');
  const imports = new Map<string, Set<string>>();
  const builtIns = new Set(['Promise', 'AsyncGenerator', 'Record', 'Array', 'ReadonlyArray']);
  for (const type of used) {
    if (builtIns.has(type)) continue;
    const from = type === 'BaseClient' ? '../base-client.ts' : type === 'CallOptions' ? '../options.ts' : moduleOf.get(type);
    if (!from) throw new Error(`${standalonePath}: cannot tell where ${type} comes from`);
    const names = imports.get(fromStandalone(from)) ?? new Set<string>();
    names.add(type);
    imports.set(fromStandalone(from), names);
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
    `// Generated from src/standalone/${resource}.ts by scripts/generate-resources.ts (npm run generate:resources): edit`,
    '// the standalone functions, not this file; test/docs/resources.test.ts checks that it is up to date.',
    ...importLines,
    `import * as ${resource}Functions from '../standalone/${resource}.ts';`,
    '',
    classDoc,
    `export class ${RESOURCES[resource]} {`,
    '  private readonly client: BaseClient;',
    '',
    '  /** @internal */',
    '  constructor(client: BaseClient) {',
    '    this.client = client;',
    '  }',
    '',
    methods.join('\n\n'),
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
