import * as sdk from 'futures-sdk';
import { expect, it } from 'vitest';
import { docSnippets, freeNameTypes } from './_snippets.ts';
import { typecheckModules } from './_typecheck.ts';

// Every ```ts block of README.md and docs/*.md is typechecked with the project's tsconfig (strict,
// exactOptionalPropertyTypes), as a module of its own: a wrong name, parameter shape, return field or error
// field in the docs fails CI. Free names are declared with the types of _snippets.ts; the package's exports
// count as imported. No file is written: the snippets live in memory, next to the real sources.

it('every README/docs snippet typechecks against the real API', () => {
  const modules = docSnippets()
    .filter((snippet) => snippet.wholeFile === undefined)
    .map((snippet) => ({ label: `${snippet.file}:${snippet.line}`, code: snippet.code }));
  expect(modules.length).toBeGreaterThan(30);
  expect(typecheckModules(modules, [{ from: 'futures-sdk', exports: sdk }], freeNameTypes)).toEqual([]);
}, 60_000);
