import { readdirSync, readFileSync } from 'node:fs';
import * as sdk from 'futures-sdk';
import * as testing from 'futures-sdk/testing';
import { expect, it } from 'vitest';
import { freeNameTypes, repoRoot } from './_snippets.ts';
import { typecheckModules } from './_typecheck.ts';

// Every ```ts block of an `@example` in src/ is typechecked as a user's module with the project's tsconfig: an
// example that names something the package does not export, calls a method with the wrong shape or reads a
// field that does not exist fails CI. No example may repeat another word for word (each shows what its own
// symbol is for). Free names (client, ex, orderId, …) are declared with the types below; the exports of
// `futures-sdk` and `futures-sdk/testing` count as imported.

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

it('no two TSDoc examples are the same word for word', () => {
  const seen = new Map<string, string>();
  const repeats: string[] = [];
  for (const { file, line, code } of examples) {
    const key = code.replace(/\s+/g, ' ').trim();
    const first = seen.get(key);
    if (first) repeats.push(`${file}:${line} repeats ${first}`);
    else seen.set(key, `${file}:${line}`);
  }
  expect(repeats).toEqual([]);
});

it('every TSDoc example in src/ compiles against the public API', () => {
  expect(examples.length).toBeGreaterThan(150);
  const modules = examples.map(({ file, line, code }) => ({ label: `${file}:${line}`, code }));
  const autoImports = [
    { from: 'futures-sdk', exports: sdk },
    { from: 'futures-sdk/testing', exports: testing },
  ];
  expect(typecheckModules(modules, autoImports, exampleFreeNames)).toEqual([]);
}, 120_000);
