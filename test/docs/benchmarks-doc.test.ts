import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { SIZE_CASES } from '../../scripts/size.mjs';

const doc = readFileSync(new URL('../../docs/benchmarks.md', import.meta.url), 'utf8');
const block = (name: string) => doc.split(`<!-- bench:${name}:start -->`)[1]?.split(`<!-- bench:${name}:end -->`)[0];

it('docs/benchmarks.md holds the tables npm run bench writes, one row per size case', () => {
  const sizes = block('sizes') ?? '';
  for (const c of SIZE_CASES as Array<{ name: string }>) expect(sizes).toContain(`| ${c.name} |`);
  expect(block('core')).toMatch(/\| cold import \+ construct.*\| met/);
});
