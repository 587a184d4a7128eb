// Issue 10 work in progress: typechecks every ```ts block of an `@example` in src/ as a user's module, and lists
// examples that repeat another word for word. Not in CI yet (src/ still has examples that do not compile); when it
// reports nothing, move it into test/docs/ as a test so CI keeps it that way.
//   npm run check:tsdoc-examples
import { readdirSync, readFileSync } from 'node:fs';
import * as sdk from 'futures-sdk';
import * as testing from 'futures-sdk/testing';
import ts from 'typescript';
import { declaredNames, freeNameTypes, referencedNames, repoRoot } from '../test/docs/_snippets.ts';

// Every ```ts block of an `@example` in src/ is typechecked as a user's module with the project's tsconfig: an
// example that names something the package does not export, calls a method with the wrong shape or reads a
// field that does not exist fails CI. No example may repeat another word for word (each should show what its
// own symbol is for). Free names (client, ex, orderId, …) are declared with the types of _snippets.ts; the
// exports of `futures-sdk` and `futures-sdk/testing` count as imported.

interface TsdocExample {
  file: string;
  line: number;
  code: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(`${repoRoot}${dir}`, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => `${entry.parentPath.slice(repoRoot.length)}/${entry.name}`.replace(/^\/+/, ''));
}

function tsdocExamples(): TsdocExample[] {
  const found: TsdocExample[] = [];
  for (const file of sourceFiles('src')) {
    const text = readFileSync(`${repoRoot}${file}`, 'utf8');
    for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
      const body = comment[0].replace(/^\s*\/?\*+\/? ?/gm, '');
      for (const block of body.matchAll(/@example\s*\n```ts\n([\s\S]*?)```/g)) {
        const offset = (comment.index ?? 0) + comment[0].indexOf('```ts');
        found.push({ file, line: text.slice(0, offset).split('\n').length, code: block[1] ?? '' });
      }
    }
  }
  return found;
}

/** Free names TSDoc examples may use without declaring them, beyond those of the docs' snippets. */
const exampleFreeNames: Record<string, string> = {
  ...freeNameTypes,
  signal: 'AbortSignal',
  stream: "import('futures-sdk').AccountStream",
  watcher: "import('futures-sdk').AccountWatcher",
  json: 'unknown',
  text: 'string',
  input: 'unknown',
  err: 'unknown',
  fleet: "import('futures-sdk').Fleet",
  wanted: "import('futures-sdk').MarketChannel",
  symbol: 'string',
  userInput: 'string',
  transfer: "import('futures-sdk').Transfer",
  activity: "import('futures-sdk').Activity",
  orders: "import('futures-sdk').Order[]",
  items: "import('futures-sdk').CreateBatchParameters",
  lastId: 'number',
  url: 'string',
  token: 'string',
  login: '() => Promise<string>',
  fillInput: "import('futures-sdk').DetectMakerFillsInput",
  previous: "import('futures-sdk').PositionQuantity[]",
  current: "import('futures-sdk').PositionQuantity[]",
  trades: "import('futures-sdk').TakerTrade[]",
  messageListener: "(event: import('futures-sdk').WebSocketMessageEventLike) => void",
  errorListener: "(event: import('futures-sdk').WebSocketErrorEventLike) => void",
  closeListener: "(event: import('futures-sdk').WebSocketCloseEventLike) => void",
  expect: "typeof import('vitest').expect",
};

const examples = tsdocExamples();


const problems: string[] = [];
{
  const seen = new Map<string, string>();
  const repeats: string[] = [];
  for (const { file, line, code } of examples) {
    const key = code.replace(/\s+/g, ' ').trim();
    const first = seen.get(key);
    if (first) repeats.push(`${file}:${line} repeats ${first}`);
    else seen.set(key, `${file}:${line}`);
  }
  problems.push(...repeats);
}

{
  const config = ts.getParsedCommandLineOfConfigFile(
    `${repoRoot}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json not found');
  const virtual = new Map<string, { label: string; text: string; offset: number }>();
  for (const example of examples) {
    const declared = declaredNames(example.code);
    const referenced = [...referencedNames(example.code)].filter((name) => !declared.has(name));
    const fromSdk = referenced.filter((name) => name in sdk);
    const fromTesting = referenced.filter((name) => !(name in sdk) && name in testing);
    const preamble = [
      fromSdk.length > 0 ? `import { ${fromSdk.join(', ')} } from 'futures-sdk';` : '',
      fromTesting.length > 0 ? `import { ${fromTesting.join(', ')} } from 'futures-sdk/testing';` : '',
      ...referenced.flatMap((name) => {
        const type = exampleFreeNames[name];
        return type === undefined || name in sdk || name in testing ? [] : [`declare const ${name}: ${type};`];
      }),
      'export {};',
      '',
    ].join('\n');
    const path = `${repoRoot}test/docs/__tsdoc_${example.file.replace(/\W/g, '_')}_${example.line}.ts`;
    virtual.set(path, {
      label: `${example.file}:${example.line}`,
      text: preamble + example.code,
      offset: preamble.split('\n').length - 1,
    });
  }
  const options = { ...config.options, noEmit: true };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => virtual.has(name) || fileExists.call(host, name);
  host.readFile = (name) => virtual.get(name)?.text ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) => {
    const file = virtual.get(name);
    return file ? ts.createSourceFile(name, file.text, language) : getSourceFile.call(host, name, language, ...rest);
  };
  const program = ts.createProgram([...virtual.keys()], options, host);
  const errors: string[] = [];
  for (const [path, { label, offset }] of virtual) {
    const source = program.getSourceFile(path);
    for (const diagnostic of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const line =
        diagnostic.file && diagnostic.start !== undefined
          ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line - offset + 1
          : 0;
      errors.push(`${label} (+${line}): ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
    }
  }
  problems.push(...errors);
}
for (const line of problems) console.log(line);
console.log(`tsdoc-examples: ${examples.length} examples, ${problems.length} problems`);
process.exit(problems.length > 0 ? 1 : 0);
