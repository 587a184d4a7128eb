import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// The ```ts blocks of README.md and docs/*.md, for snippets.test.ts (runs them) and snippets-typecheck.test.ts.
// A block right after `<!-- example: <file> -->` is a whole file that CI runs as that file (docs-examples.test.ts
// checks that they match), so it is neither run nor typechecked here. A block right after
// `<!-- snippet: skip (reason) -->` is not run (it is still typechecked).

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const readRepoFile = (path: string) => readFileSync(`${repoRoot}${path}`, 'utf8');

/** README.md, CONTRIBUTING.md and every docs/*.md, repository-relative. */
export const docFiles = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(`${repoRoot}docs`)
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

export interface Snippet {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
  /** Why the block is not run, if it is not. */
  skipRun: string | undefined;
  /** A whole file checked elsewhere. */
  wholeFile: string | undefined;
}

/** The ```ts blocks of README.md and docs/ (CONTRIBUTING.md shows src-internal code, typechecked by no one). */
export function docSnippets(): Snippet[] {
  const found: Snippet[] = [];
  const pattern = /(?:<!-- snippet: skip \(([^)]*)\) -->\n+|<!-- example: (\S+) -->\n+)?```ts\n([\s\S]*?)```/g;
  for (const file of docFiles.filter((f) => f !== 'CONTRIBUTING.md')) {
    const text = readRepoFile(file);
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split('\n').length;
      found.push({ file, line, code: match[3] ?? '', skipRun: match[1], wholeFile: match[2] });
    }
  }
  return found;
}

/** Names a snippet declares at its top level (imports, const/let, functions, classes). */
export function declaredNames(code: string): Set<string> {
  const source = ts.createSourceFile('snippet.ts', code, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const names = new Set<string>();
  const addBinding = (name: ts.BindingName) => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) addBinding(element.name);
  };
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) addBinding(declaration.name);
    } else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) {
      names.add(statement.name.text);
    } else if (ts.isImportDeclaration(statement) && statement.importClause) {
      const { name, namedBindings } = statement.importClause;
      if (name) names.add(name.text);
      if (namedBindings && ts.isNamedImports(namedBindings)) {
        for (const specifier of namedBindings.elements) names.add(specifier.name.text);
      }
      if (namedBindings && ts.isNamespaceImport(namedBindings)) names.add(namedBindings.name.text);
    }
  }
  return names;
}

/** Identifiers a snippet reads: comments, strings and property names do not count. */
export function referencedNames(code: string): Set<string> {
  const source = ts.createSourceFile('snippet.ts', code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const names = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node)) {
      const { parent } = node;
      const isPropertyName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
        (ts.isPropertyAssignment(parent) && parent.name === node) ||
        (ts.isBindingElement(parent) && parent.propertyName === node) ||
        (ts.isPropertySignature(parent) && parent.name === node);
      if (!isPropertyName) names.add(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/**
 * The names snippets may use without declaring them, with their types. snippets.test.ts gives each a real value
 * from the simulator; the package's exports also count as imported (a doc imports them once, in its first block).
 */
export const freeNameTypes: Record<string, string> = {
  client: "import('futures-sdk').FuturesClient",
  ex: "import('futures-sdk/testing').Exchange",
  accountId: 'string',
  subAccountId: 'string',
  apiKey: 'string',
  apiSecret: 'string',
  baseUrl: 'string',
  order: "import('futures-sdk').Order",
  orderId: 'string',
  position: "import('futures-sdk').Position",
  market: "import('futures-sdk').MarketResource",
  jwt: 'string',
  session: '{ freshJwt(): Promise<string> }',
  log: "Pick<Console, 'warn'>",
  resyncOverRest: '() => void',
  doSomething: '() => Promise<void>',
  options: "Omit<import('futures-sdk').FuturesClientOptions, 'baseUrl' | 'apiKey' | 'apiSecret' | 'signer'>",
};
