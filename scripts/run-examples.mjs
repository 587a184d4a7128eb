// Runs every example (and the demo) against the in-process simulator, as CI does. Needs `npm run build` first:
// examples import 'futures-sdk' exactly as users do, which resolves to ./dist through the package's exports.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const files = readdirSync(new URL('../examples/', import.meta.url))
  .filter((name) => name.endsWith('.ts') && !name.startsWith('_'))
  .sort();
const env = { ...process.env };
for (const key of ['FUTURES_BASE_URL', 'FUTURES_API_KEY', 'FUTURES_API_SECRET']) delete env[key];

let failures = 0;
for (const name of files) {
  const started = Date.now();
  const run = spawnSync(process.execPath, [`examples/${name}`], { env, encoding: 'utf8', timeout: 90_000 });
  const ms = Date.now() - started;
  if (run.status === 0) {
    console.log(`ok   ${name} (${ms} ms)`);
  } else {
    failures++;
    console.log(`FAIL ${name} (exit ${run.status ?? run.signal}, ${ms} ms)`);
    console.log(run.stdout.slice(-2000));
    console.log(run.stderr.slice(-4000));
  }
}
console.log(`examples: ${files.length - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
