// What the endpoint definitions promise as a whole: one definition per endpoint, each reachable as a resource
// method and a standalone function, each served by the simulator, and each path literal written in one file.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createExchange } from 'futures-sdk/testing';
import { describe, expect, it } from 'vitest';
import * as account from '../../src/endpoints/account/index.ts';
import * as futures from '../../src/endpoints/futures/index.ts';
import * as market from '../../src/endpoints/market/index.ts';
import * as orders from '../../src/endpoints/orders/index.ts';
import { ENDPOINTS } from '../../src/endpoints/registry.ts';
import { FuturesClient } from '../../src/index.ts';

const standalone: Record<string, Record<string, unknown>> = { orders, futures, account, market };
const src = join(import.meta.dirname, '../../src');

describe('endpoint definitions', () => {
  it('name every endpoint once, each a resource method and a standalone function of its subpath', () => {
    const names = ENDPOINTS.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    const keys = ENDPOINTS.map((e) => `${e.method} ${e.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const client = new FuturesClient({ baseUrl: 'https://api.example.com' });
    for (const { name } of ENDPOINTS) {
      const [resource = '', method = ''] = name.split('.');
      expect(typeof (client as unknown as Record<string, Record<string, unknown>>)[resource]?.[method], name).toBe(
        'function',
      );
      expect(typeof standalone[resource]?.[method], `futures-sdk/${resource} exports ${method}`).toBe('function');
    }
  });

  it('are all served by the simulator (no endpoint the SDK calls is missing from it)', async () => {
    const ex = createExchange({ seed: 1, volatility: 0 });
    for (const endpoint of ENDPOINTS) {
      const path = endpoint.path.replace('{id}', 'some-id');
      const response = await ex.fetch(`${ex.baseUrl}${path}`, {
        method: endpoint.method,
        ...(endpoint.method === 'POST' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}),
      });
      const text = await response.text();
      // Unsigned on purpose: a signed route answers 401, a public one 200 or 400; only a missing route says
      // "Cannot METHOD path".
      expect(text, `${endpoint.method} ${path}`).not.toContain('Cannot ');
      if (endpoint.auth === 'signed') expect(response.status, `${endpoint.method} ${path}`).toBe(401);
    }
  });

  it('are the only place in src/ (outside the simulator) where a path of the API is written', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir)) {
        const full = join(dir, entry);
        if (statSync(full).isDirectory()) {
          if (entry !== 'testing') walk(full);
        } else if (full.endsWith('.ts')) files.push(full);
      }
    };
    walk(src);
    const filesByPath = new Map<string, Set<string>>();
    for (const file of files) {
      // Code only: block and line comments (TSDoc mentions paths in prose and examples) are removed first.
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      for (const match of code.matchAll(/['"`](\/(?:v2\/[\w\-/{}]*|health))['"`]/g)) {
        const path = match[1] ?? '';
        const set = filesByPath.get(path) ?? new Set<string>();
        set.add(relative(src, file));
        filesByPath.set(path, set);
      }
    }
    // One file per definition: GET and POST /v2/orders are two endpoints, so that path is written twice.
    const definitions = (path: string) => ENDPOINTS.filter((e) => e.path === path).length;
    for (const endpoint of ENDPOINTS) expect(filesByPath.has(endpoint.path), endpoint.path).toBe(true);
    for (const [path, where] of filesByPath) expect([...where], path).toHaveLength(Math.max(1, definitions(path)));
  });
});
