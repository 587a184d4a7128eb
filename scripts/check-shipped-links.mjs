// Every relative link in a shipped Markdown file must point at a file that is shipped too (npm pack's list);
// otherwise a reader of the package (on npm or in node_modules) follows it into nothing.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const root = new URL('../', import.meta.url).pathname;
const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }));
const shipped = new Set(pack.files.map((f) => f.path));
const shippedDirs = new Set([...shipped].flatMap((p) => p.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
let broken = 0;
for (const file of shipped) {
  if (!file.endsWith('.md')) continue;
  const text = readFileSync(join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:|^#/i.test(target)) continue;
    const path = normalize(join(dirname(file), target.split('#')[0])).replace(/\/$/, '');
    if (!shipped.has(path) && !shippedDirs.has(path)) {
      broken++;
      console.log(`${file}: link to ${target} — not in the package`);
    }
  }
}
console.log(broken ? `check-shipped-links: ${broken} broken` : `check-shipped-links: OK, ${shipped.size} files`);
process.exit(broken ? 1 : 0);
