// CONTRIBUTING.md's "Recipe: adding an endpoint" shows a whole endpoint file. It is typechecked here as the file it
// says it is (src/endpoints/orders/funding-history.ts, in memory: nothing is written to src/), so its imports, the
// definition's fields and the function's types follow the code. Then it is run: written to a scratch folder with its
// imports pointed at src/, and called with a recording fetch, so what the recipe says callEndpoint does (check the
// parameters, send them where the definition says) is what it does.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../src/index.ts';
import { recordingFetch, testClient } from '../actions/_recording-fetch.ts';
import { readRepoFile, repoRoot } from './_snippets.ts';
import { typecheckModules } from './_typecheck.ts';

/** The recipe's code block: the ````ts fence right after `<!-- recipe: <path> -->`, its indentation removed. */
function recipe(): { path: string; code: string } {
  const text = readRepoFile('CONTRIBUTING.md');
  const match = /<!-- recipe: (\S+) -->\n( *)````ts\n([\s\S]*?)\n *````/.exec(text);
  if (!match) throw new Error('CONTRIBUTING.md: no <!-- recipe: … --> block');
  const [, path = '', indent = '', body = ''] = match;
  const code = body
    .split('\n')
    .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()))
    .join('\n');
  return { path, code };
}

describe("CONTRIBUTING.md's endpoint recipe", () => {
  it('is one endpoint file that typechecks where it says it goes', () => {
    const { path, code } = recipe();
    expect(path).toMatch(/^src\/endpoints\/\w+\/[\w-]+\.ts$/);
    expect(typecheckModules([{ label: `CONTRIBUTING.md (${path})`, code, path }], [], {})).toEqual([]);
  }, 60_000);

  it('runs: its parameters are checked before sending and go where the definition says', async () => {
    const { path, code } = recipe();
    const dir = mkdtempSync(join(tmpdir(), 'futures-sdk-recipe-'));
    try {
      // Relative imports of the file as it would stand in src/endpoints/<resource>/, made absolute.
      const here = new URL(path, `file://${repoRoot}`);
      const file = join(dir, 'endpoint.ts');
      writeFileSync(
        file,
        code.replace(/from '(\.[^']*)'/g, (_, spec: string) => `from '${new URL(spec, here).pathname}'`),
      );
      const endpoint = await import(/* @vite-ignore */ file);
      const { fetch, requests } = recordingFetch({
        'GET /v2/futures/funding-history': {
          body: { ok: true, data: [{ symbol: 'BTCUSDT', rate: '0.0001', time: 1_700_000_000_000 }] },
        },
      });
      const client = testClient(fetch);

      const { data } = await endpoint.fundingHistory(client, { symbol: 'BTCUSDT', limit: 10 });
      expect(data).toEqual([{ symbol: 'BTCUSDT', rate: '0.0001', time: 1_700_000_000_000 }]);
      expect(requests.map((r) => [r.method, r.url.pathname, r.query.get('symbol'), r.query.get('limit')])).toEqual([
        ['GET', '/v2/futures/funding-history', 'BTCUSDT', '10'],
      ]);

      const refused = await endpoint.fundingHistory(client, { symbol: 'BTCUSDT', limit: 501 }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(RequestValidationError);
      expect((refused as Error).message).toContain('orders.fundingHistory');
      expect((refused as Error).message).toContain('limit');
      expect(requests).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
