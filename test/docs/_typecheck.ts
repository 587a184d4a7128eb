// Typechecks pieces of documentation (README/docs snippets, TSDoc examples) as users' modules, in memory, with
// the project's tsconfig: one TypeScript program for all of them. Names a piece uses without declaring are
// imported from the package entries that export them, or declared with the given free-name types.
import ts from 'typescript';
import { declaredNames, referencedNames, repoRoot } from './_snippets.ts';

/** One piece of code to check, and where it comes from (`file:line`, for the messages). */
export interface DocModule {
  label: string;
  code: string;
  /** Where the module stands, repository-relative (its relative imports resolve from there); default test/docs/. */
  path?: string | undefined;
}

/** A package entry whose runtime exports count as imported (`futures-sdk`, `futures-sdk/testing`). */
export interface AutoImport {
  from: string;
  exports: Record<string, unknown>;
}

/** Every compile error of every module, as `label (+line): message`. */
export function typecheckModules(
  modules: readonly DocModule[],
  autoImports: readonly AutoImport[],
  freeNames: Readonly<Record<string, string>>,
): string[] {
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
  modules.forEach((module, index) => {
    const declared = declaredNames(module.code);
    const referenced = [...referencedNames(module.code)].filter((name) => !declared.has(name));
    const imported = new Set<string>();
    const imports = autoImports.map(({ from, exports }) => {
      const names = referenced.filter((name) => !imported.has(name) && name in exports);
      for (const name of names) imported.add(name);
      return names.length > 0 ? `import { ${names.join(', ')} } from '${from}';` : '';
    });
    const preamble = [
      ...imports,
      ...referenced.flatMap((name) => {
        const type = freeNames[name];
        return type === undefined || imported.has(name) ? [] : [`declare const ${name}: ${type};`];
      }),
      'export {};',
      '',
    ].join('\n');
    // Beside the real sources (so relative resolution and tsconfig paths behave as for a file of the repo).
    virtual.set(module.path ? `${repoRoot}${module.path}` : `${repoRoot}test/docs/__doc_module_${index}.ts`, {
      label: module.label,
      text: preamble + module.code,
      offset: preamble.split('\n').length - 1,
    });
  });

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
  return errors;
}
