// The simulator's boundaries, read from its imports: it shares nothing with the client but exact decimals
// (so a client bug cannot be mirrored by it), and outside its two transport entries it needs only the platform.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../src/', import.meta.url));
const testingDir = join(root, 'testing');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier a file imports or re-exports, with whether the import is type-only. */
function importsOf(file: string): { specifier: string; typeOnly: boolean }[] {
  const text = readFileSync(file, 'utf8');
  const found: { specifier: string; typeOnly: boolean }[] = [];
  for (const match of text.matchAll(/^(import|export)(\s+type)?[^;]*?from\s+'([^']+)'/gms)) {
    found.push({ specifier: match[3] as string, typeOnly: match[2] !== undefined });
  }
  for (const match of text.matchAll(/import\('([^']+)'\)/g))
    found.push({ specifier: match[1] as string, typeOnly: false });
  return found;
}

const files = sources(testingDir);
const rel = (file: string) => relative(root, file);

describe('src/testing layout', () => {
  it('imports nothing of the client but _internal/decimal.ts', () => {
    const leaks = files.flatMap((file) =>
      importsOf(file)
        .filter(({ specifier }) => specifier.startsWith('.'))
        .map(({ specifier }) => rel(resolve(dirname(file), specifier)))
        .filter((target) => !target.startsWith('testing/') && target !== '_internal/decimal.ts')
        .map((target) => `${rel(file)} -> ${target}`),
    );
    expect(leaks).toEqual([]);
  });

  it('needs no Node built-in, msw or ws at run time outside server/ and msw/', () => {
    const core = files.filter((file) => !/testing\/(server|msw)\//.test(file));
    const platformOnly = core.flatMap((file) =>
      importsOf(file)
        .filter(({ specifier, typeOnly }) => !typeOnly && /^(node:|msw|ws$)/.test(specifier))
        .map(({ specifier }) => `${rel(file)} -> ${specifier}`),
    );
    expect(platformOnly).toEqual([]);
  });

  it('keeps the matching engine and the market apart from the HTTP edge: engine/ and market/ import only each other', () => {
    const inner = files.filter((file) => /testing\/(engine|market)\//.test(file));
    const reaches = inner.flatMap((file) =>
      importsOf(file)
        .filter(({ specifier }) => specifier.startsWith('.'))
        .map(({ specifier }) => rel(resolve(dirname(file), specifier)))
        .filter((target) => !/^testing\/(engine|market)\//.test(target) && target !== '_internal/decimal.ts')
        .map((target) => `${rel(file)} -> ${target}`),
    );
    expect(reaches).toEqual([]);
    // The HTTP edge has a folder of its own: authentication, limits, faults, the pipeline and the routes.
    const edge = files.filter((file) => /testing\/http\//.test(file)).map(rel);
    expect(edge).toEqual(
      expect.arrayContaining(
        ['auth', 'jwt', 'signature', 'rate-limits', 'faults', 'request-pipeline', 'routes/router'].map(
          (name) => `testing/http/${name}.ts`,
        ),
      ),
    );
  });

  it('keeps every file under 450 lines', () => {
    const long = files
      .map((file) => ({ file: rel(file), lines: readFileSync(file, 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > 450);
    expect(long).toEqual([]);
  });
});
