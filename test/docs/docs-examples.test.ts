import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');

/** The fenced block that follows `<!-- example: <file> -->` in a doc. */
function exampleBlock(doc: string, file: string): string | undefined {
  const marker = `<!-- example: ${file} -->`;
  const start = doc.indexOf(marker);
  if (start === -1) return undefined;
  const match = /```ts\n([\s\S]*?)```/.exec(doc.slice(start + marker.length));
  return match?.[1];
}

describe('docs examples run in CI', () => {
  it('docs/testing.md shows test/docs/testing-guide.test.ts verbatim', () => {
    const file = 'test/docs/testing-guide.test.ts';
    const doc = read('docs/testing.md');
    expect(doc).toContain(`\`${file}\``);
    expect(exampleBlock(doc, file)).toBe(read(file));
  });
});
