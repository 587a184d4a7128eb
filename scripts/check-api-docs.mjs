// docs/api is generated from the TSDoc by TypeDoc (`npm run docs:api`). This check regenerates it into a scratch
// folder and fails when anything differs from what is committed, so the reference never drifts from the code.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('../', import.meta.url).pathname;
const out = mkdtempSync(join(tmpdir(), 'futures-sdk-api-'));
const list = (dir) =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
try {
  execFileSync(join(root, 'node_modules/.bin/typedoc'), ['--out', out, '--logLevel', 'Error'], { cwd: root, stdio: 'inherit' });
  const committed = list(join(root, 'docs/api'));
  const fresh = list(out);
  const problems = [];
  for (const file of new Set([...committed, ...fresh])) {
    if (!committed.includes(file)) problems.push(`missing from docs/api: ${file}`);
    else if (!fresh.includes(file)) problems.push(`stale in docs/api: ${file}`);
    else if (readFileSync(join(root, 'docs/api', file), 'utf8') !== readFileSync(join(out, file), 'utf8')) {
      problems.push(`differs: docs/api/${file}`);
    }
  }
  if (problems.length) {
    console.log(`${problems.join('\n')}\ncheck-api-docs: docs/api is out of date; run npm run docs:api and commit it`);
    process.exit(1);
  }
  console.log(`check-api-docs: OK, ${fresh.length} files match the code`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
