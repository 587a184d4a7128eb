// The endpoint tables of docs/orders.md, futures.md, account.md and market.md, generated from the endpoint
// definitions (src/endpoints/registry.ts) between `<!-- endpoints:start -->` and `<!-- endpoints:end -->`.
//   npm run docs:endpoints            rewrites the tables
//   test/docs/endpoint-tables.test.ts fails when a committed table differs from the definitions
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Endpoint } from '../src/_internal/endpoint.ts';
import { ENDPOINTS } from '../src/endpoints/registry.ts';

export const RESOURCES = ['orders', 'futures', 'account', 'market'] as const;
const START = '<!-- endpoints:start (generated from the endpoint definitions: npm run docs:endpoints) -->';
const END = '<!-- endpoints:end -->';
const BUCKETS: Record<string, string> = {
  orders: 'orders (300/min)',
  batch: 'batch (100/min)',
  close: 'close (300/min)',
};

const docPath = (resource: string) => fileURLToPath(new URL(`../docs/${resource}.md`, import.meta.url));

/**
 * The one-line TSDoc comment above each definition (`name` → text), read from the action files: the text stays
 * out of the bundles, which a `summary` field of the definition would not.
 */
function summaries(): Map<string, string> {
  const found = new Map<string, string>();
  const folder = fileURLToPath(new URL('../src/endpoints/', import.meta.url));
  for (const dir of readdirSync(folder, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const file of readdirSync(`${folder}${dir.name}`)) {
      const text = readFileSync(`${folder}${dir.name}/${file}`, 'utf8');
      // The comment right above the definition: its text may not contain `*/`, so it cannot start earlier.
      const pattern = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export const \w+Endpoint = [^{]*\{\s*name: '([\w.]+)'/g;
      for (const [, comment = '', name = ''] of text.matchAll(pattern)) {
        found.set(name, comment.replace(/^\s*\*\s?/gm, ' ').replace(/\s+/g, ' ').trim());
      }
    }
  }
  return found;
}

function row(endpoint: Endpoint, notes: Map<string, string>): string {
  const summary = notes.get(endpoint.name);
  if (!summary) throw new Error(`${endpoint.name}: no one-line TSDoc comment above its definition`);
  const method = endpoint.name.split('.')[1];
  const retried =
    endpoint.safety === 'idempotent' ? 'yes' : '**no** — only on 429, connection refused or the clock re-sync';
  const auth = endpoint.auth === 'signed' ? 'key + signature' : 'public';
  const subAccount = endpoint.subAccountDefault ? '; `subAccountId` defaults from the client' : '';
  const bucket = BUCKETS[endpoint.bucket] ?? endpoint.bucket;
  return `| \`${method}\` | ${endpoint.method} ${endpoint.path} | ${auth} | ${bucket} | ${retried} | ${summary.replace(/\|/g, '\\|')}${subAccount} |`;
}

/** The generated table of one resource, markers included. */
export function endpointTable(resource: string): string {
  const notes = summaries();
  const rows = ENDPOINTS.filter((e) => e.name.startsWith(`${resource}.`)).map((e) => row(e, notes));
  return [
    START,
    '| Method | Endpoint | Auth | Bucket | Retried after it may have reached the server? | Notes |',
    '|---|---|---|---|---|---|',
    ...rows,
    END,
  ].join('\n');
}

/** `text` with its generated table replaced by the current one; throws when the markers are missing. */
export function withEndpointTable(text: string, resource: string): string {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/${resource}.md has no endpoint table markers`);
  return text.slice(0, start) + endpointTable(resource) + text.slice(end + END.length);
}

/** The committed doc of a resource and what it should be. */
export function endpointDoc(resource: string): { path: string; committed: string; expected: string } {
  const path = docPath(resource);
  const committed = readFileSync(path, 'utf8');
  return { path, committed, expected: withEndpointTable(committed, resource) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const resource of RESOURCES) {
    const { path, committed, expected } = endpointDoc(resource);
    if (committed !== expected) writeFileSync(path, expected);
    console.log(`${committed === expected ? 'unchanged' : 'updated  '} docs/${resource}.md`);
  }
}
