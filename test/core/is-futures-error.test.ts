import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { FuturesError, isFuturesError, NotFoundError, RateLimitError } from 'futures-sdk';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'futures-sdk-dual-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('isFuturesError', () => {
  it('recognises every SDK error class and nothing else', () => {
    expect(isFuturesError(new FuturesError('x'))).toBe(true);
    expect(isFuturesError(new NotFoundError({ status: 404, method: 'GET', path: '/v2/orders/x', body: {} }))).toBe(
      true,
    );
    expect(isFuturesError(new RateLimitError({ status: 429, method: 'GET', path: '/x', body: {} }))).toBe(true);
    expect(isFuturesError(new Error('x'))).toBe(false);
    expect(isFuturesError({ name: 'FuturesError', message: 'look-alike' })).toBe(false);
    expect(isFuturesError(null)).toBe(false);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(isFuturesError(proxy)).toBe(false);
  });

  it('works across an ESM and a CommonJS copy of the package loaded in one process', async () => {
    // Two real builds of the package, as the dual-package hazard loads them: import() and require().
    for (const format of ['esm', 'cjs'] as const) {
      await build({
        entryPoints: [join(root, 'src/index.ts')],
        bundle: true,
        format,
        platform: 'node',
        outfile: join(dir, format === 'esm' ? 'sdk.mjs' : 'sdk.cjs'),
        logLevel: 'error',
      });
    }
    writeFileSync(
      join(dir, 'check.mjs'),
      `import { createRequire } from 'node:module';
const esm = await import('./sdk.mjs');
const cjs = createRequire(import.meta.url)('./sdk.cjs');
const fromCjs = new cjs.NotFoundError({ status: 404, method: 'GET', path: '/v2/orders/x', body: {} });
const fromEsm = new esm.TimeoutError({ method: 'GET', path: '/x', timeoutMs: 5 });
console.log(JSON.stringify({
  instanceofAcross: fromCjs instanceof esm.FuturesError,
  esmSeesCjs: esm.isFuturesError(fromCjs),
  cjsSeesEsm: cjs.isFuturesError(fromEsm),
  plainError: esm.isFuturesError(new Error('x')),
}));
`,
    );
    const out = execFileSync(process.execPath, [join(dir, 'check.mjs')], { encoding: 'utf8', cwd: root });
    expect(JSON.parse(out)).toEqual({ instanceofAcross: false, esmSeesCjs: true, cjsSeesEsm: true, plainError: false });
  });
});
