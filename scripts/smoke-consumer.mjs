// Installs the packed package into a scratch project, as a user would, and uses both entry points through
// `require` and `import` on the oldest supported Node (22.12, from the npm package `node`) and on this one.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'futures-sdk-consumer-'));
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { cwd: dir, stdio: 'inherit', ...opts });
try {
  writeFileSync(join(dir, 'package.json'), '{ "name": "consumer", "version": "1.0.0", "private": true }\n');
  run('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--silent', `./${tarball}`, 'msw', 'ws', 'node@22.12.0']);
  for (const file of ['require.cjs', 'import.mjs']) copyFileSync(join(root, 'scripts/consumer', file), join(dir, file));
  for (const node of [join(dir, 'node_modules/.bin/node'), process.execPath]) {
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    for (const file of ['require.cjs', 'import.mjs']) {
      process.stdout.write(`node ${version} ${file}: `);
      run(node, [file]);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
