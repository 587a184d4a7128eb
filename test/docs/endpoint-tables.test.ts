import { describe, expect, it } from 'vitest';
import { endpointDoc, RESOURCES } from '../../scripts/endpoint-docs.ts';

describe('endpoint tables of docs/', () => {
  it.each(RESOURCES)(
    'docs/%s.md shows the table generated from the endpoint definitions (npm run docs:endpoints)',
    (resource) => {
      const { committed, expected } = endpointDoc(resource);
      expect(committed).toBe(expected);
    },
  );
});
