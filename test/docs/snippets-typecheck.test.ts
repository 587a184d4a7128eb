import * as sdk from 'futures-sdk';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { declaredNames, docSnippets, freeNameTypes, referencedNames, repoRoot } from './_snippets.ts';

// Every ```ts block of README.md and docs/*.md is typechecked with the project's tsconfig (strict,
// exactOptionalPropertyTypes), as a module of its own: a wrong name, parameter shape, return field or error
// field in the docs fails CI. Free names are declared with the types of _snippets.ts; the package's exports
// count as imported. No file is written: the snippets live in memory, next to the real sources.

it('every README/docs snippet typechecks against the real API', () => {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${repoRoot}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json not found');

  const virtual = new Map<string, { label: string; text: string; offset: number }>();
  for (const snippet of docSnippets()) {
    if (snippet.wholeFile !== undefined) continue;
    const declared = declaredNames(snippet.code);
    const referenced = [...referencedNames(snippet.code)].filter((name) => !declared.has(name));
    const fromSdk = referenced.filter((name) => name in sdk);
    const preamble = [
      fromSdk.length > 0 ? `import { ${fromSdk.join(', ')} } from 'futures-sdk';` : '',
      ...referenced.flatMap((name) => {
        const type = freeNameTypes[name];
        return type === undefined || name in sdk ? [] : [`declare const ${name}: ${type};`];
      }),
      'export {};',
      '',
    ].join('\n');
    const path = `${repoRoot}test/docs/__snippet_${snippet.file.replace(/\W/g, '_')}_${snippet.line}.ts`;
    virtual.set(path, {
      label: `${snippet.file}:${snippet.line}`,
      text: preamble + snippet.code,
      offset: preamble.split('\n').length - 1,
    });
  }
  expect(virtual.size).toBeGreaterThan(30);

  const options = { ...config.options, noEmit: true };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => virtual.has(name) || fileExists.call(host, name);
  host.readFile = (name) => virtual.get(name)?.text ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) => {
    const file = virtual.get(name);
    return file ? ts.createSourceFile(name, file.text, language) : getSourceFile.call(host, name, language, ...rest);
  };
  const program = ts.createProgram([...virtual.keys()], options, host);

  const errors: string[] = [];
  for (const [path, { label, offset }] of virtual) {
    const source = program.getSourceFile(path);
    for (const diagnostic of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const line =
        diagnostic.file && diagnostic.start !== undefined
          ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line - offset + 1
          : 0;
      errors.push(`${label} (+${line}): ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
    }
  }
  expect(errors).toEqual([]);
}, 60_000);
