import * as sdk from 'futures-sdk';
import type { Exchange } from 'futures-sdk/testing';
import * as testing from 'futures-sdk/testing';
import { handlers } from 'futures-sdk/testing/msw';
import { setupServer } from 'msw/node';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as ws from 'ws';
import { declaredNames, docFiles, docSnippets, freeNameTypes, readRepoFile, referencedNames } from './_snippets.ts';

// Every ```ts block of README.md and docs/*.md runs here against the simulated exchange, served by MSW at the
// docs' own `https://api.example.com`, so a snippet that calls a method or passes a parameter the SDK does not
// have (the SDK rejects unknown parameters at run time) fails CI. See _snippets.ts for the conventions.

const BASE_URL = 'https://api.example.com';
const snippets = docSnippets();

/** The snippet as the body of an async function: types stripped, imports turned into lookups. */
function toFunctionBody(code: string): string {
  const js = ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  return js
    .replace(/^export \{\};?$/m, '')
    .replace(
      /import\s*\{([^}]*)\}\s*from\s*'([^']+)';?/g,
      (_, names: string, from: string) =>
        `const {${names.replace(/\bas\b/g, ':')}} = __import(${JSON.stringify(from)});`,
    )
    .replace(
      /import\s+(\w+)\s+from\s*'([^']+)';?/g,
      (_, name: string, from: string) => `const ${name} = __import(${JSON.stringify(from)}).default;`,
    );
}

const modules: Record<string, unknown> = { 'futures-sdk': sdk, 'futures-sdk/testing': testing, ws };
const importModule = (name: string) => {
  const found = modules[name];
  if (found === undefined) throw new Error(`snippet imports ${name}, which the harness does not provide`);
  return found;
};

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...args: string[]
) => (...values: unknown[]) => Promise<void>;

/**
 * Values of the free names: a funded account and its client, plus, only when the snippet names them (so that
 * the setters do not meet the open-position guards), an open long and a resting LIMIT order.
 */
async function freeNames(ex: Exchange, uses: (name: string) => boolean): Promise<Record<string, unknown>> {
  const { accountId, subAccountId } = ex.createAccount({ balances: { USDT: '100000' }, spotBalances: { USDT: '5' } });
  const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  process.env.FUTURES_API_KEY = apiKey;
  process.env.FUTURES_API_SECRET = apiSecret;
  ex.setMarkPrice('BTCUSDT', '60000');
  const client = new sdk.FuturesClient({ baseUrl: BASE_URL, apiKey, apiSecret });
  if (uses('position')) {
    await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
  }
  const { order } =
    uses('order') || uses('orderId')
      ? await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '50000' })
      : { order: undefined };
  const { positions } = await client.account.positions();
  const values: Record<string, unknown> = {
    client,
    ex,
    accountId,
    subAccountId,
    apiKey,
    apiSecret,
    baseUrl: BASE_URL,
    order,
    orderId: order?.id,
    position: positions[0],
    market: client.market,
    jwt: ex.issueJwt(accountId),
    session: { freshJwt: async () => ex.issueJwt(accountId) },
    log: { warn: () => {} },
    resyncOverRest: () => {},
    doSomething: async () => {},
    options: { timeoutMs: 5_000 },
  };
  expect(Object.keys(values).sort()).toEqual(Object.keys(freeNameTypes).sort());
  return { ...sdk, ...values };
}

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => {
  server.close();
  delete process.env.FUTURES_API_KEY;
  delete process.env.FUTURES_API_SECRET;
});

describe('every TypeScript snippet of README.md and docs/ runs against the simulator', () => {
  it('finds the snippets, and skips few', () => {
    expect(snippets.length).toBeGreaterThan(30);
    // Skipped here: the Redis fleet, and docs/proxies.md's recipes, which run against real nginx and tinyproxy in
    // test/infra instead.
    const skipped = snippets.filter((s) => s.skipRun !== undefined);
    expect(skipped.filter((s) => !s.file.endsWith('proxies.md')).length).toBeLessThanOrEqual(3);
    expect(skipped.length).toBeLessThanOrEqual(8);
  });

  // Whole-file examples run as their own test files; `snippet: skip` blocks are counted above.
  const runnable = snippets.filter((s) => s.skipRun === undefined && s.wholeFile === undefined);
  for (const snippet of runnable) {
    it(`${snippet.file}:${snippet.line}`, async () => {
      const ex = testing.createExchange({ seed: 1, baseUrl: BASE_URL, volatility: 0 });
      server.resetHandlers(...handlers(ex));
      const declared = declaredNames(snippet.code);
      const referenced = referencedNames(snippet.code);
      const uses = (name: string) => referenced.has(name) && !declared.has(name);
      const context = await freeNames(ex, uses);
      const free = Object.keys(context).filter(uses);
      const run = new AsyncFunction(...free, '__import', toFunctionBody(snippet.code));
      const log = vi.spyOn(console, 'log').mockImplementation(() => {});
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      try {
        await run(...free.map((name) => context[name]), importModule);
      } finally {
        log.mockRestore();
        warn.mockRestore();
      }
    });
  }
});

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');

describe('docs links', () => {
  it.each(docFiles)('every relative link of %s points to an existing file and heading', (file) => {
    const text = readRepoFile(file).replace(/```[\s\S]*?```/g, '');
    const base = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (target === undefined || /^[a-z]+:/.test(target)) continue;
      const [path = '', anchor] = target.split('#');
      const resolved = path === '' ? file : new URL(path, `file:///${base}`).pathname.slice(1);
      let linked: string;
      try {
        linked = readRepoFile(resolved);
      } catch {
        broken.push(`${target} (no file ${resolved})`);
        continue;
      }
      if (anchor === undefined) continue;
      const anchors = [...linked.matchAll(/^#+ (.+)$/gm)].map((m) => anchorOf(m[1] ?? ''));
      if (!anchors.includes(anchor)) broken.push(`${target} (no heading #${anchor} in ${resolved})`);
    }
    expect(broken).toEqual([]);
  });
});

describe('docs/configuration.md', () => {
  /** `name -> @default` of every FuturesClientOptions field, read from the interface's TSDoc. */
  function optionDefaults(): Map<string, string | undefined> {
    const source = ts.createSourceFile('options.ts', readRepoFile('src/options.ts'), ts.ScriptTarget.ES2022, true);
    const options = source.statements.find(
      (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'FuturesClientOptions',
    );
    const fields = new Map<string, string | undefined>();
    for (const member of options?.members ?? []) {
      if (!ts.isPropertySignature(member) || !ts.isIdentifier(member.name)) continue;
      const tag = ts.getJSDocTags(member).find((t) => t.tagName.text === 'default');
      const text = typeof tag?.comment === 'string' ? tag.comment : undefined;
      fields.set(member.name.text, text);
    }
    return fields;
  }

  it('lists every FuturesClientOptions field, with the default the code documents', () => {
    const doc = readRepoFile('docs/configuration.md');
    const rows = new Map(
      [...doc.matchAll(/^\| `(\w+)` \| ([^|]+) \|/gm)].map((m) => [m[1] ?? '', (m[2] ?? '').replace(/`/g, '').trim()]),
    );
    const fields = optionDefaults();
    expect(fields.size).toBeGreaterThan(10);
    for (const [name, fallback] of fields) {
      expect(rows.has(name), `docs/configuration.md has no row for ${name}`).toBe(true);
      const documented = rows.get(name) ?? '';
      if (fallback === undefined) expect(documented, name).toMatch(/^(none|required)$/);
      else expect(documented, name).toBe(fallback.replace(/^the /, ''));
    }
  });
});
