import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatted, RESOURCES, resourceSource } from '../../scripts/generate-resources.ts';
import { repoRoot } from './_snippets.ts';

describe('src/resources/ (derived from the standalone functions)', () => {
  it.each(Object.keys(RESOURCES) as Array<keyof typeof RESOURCES>)(
    'src/resources/%s.ts is what npm run generate:resources makes',
    (resource) => {
      const path = `src/resources/${resource}.ts`;
      expect(readFileSync(`${repoRoot}${path}`, 'utf8')).toBe(formatted(path, resourceSource(resource)));
    },
  );
});
