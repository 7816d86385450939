// `npm test`'s check that the console calls no deprecated API: every use TypeScript marks deprecated (an
// antd 6 prop such as Modal's maskClosable, a React 19 type such as FormEvent) in the projects named on the
// command line (default: the console's). A deprecated antd prop still works, but a development build logs
// it as a console error on every render, and the production build the end-to-end tests drive hides it.
//   node tools/deprecated-api/check.ts [tsconfig.json …]
import path from 'node:path';
import ts from 'typescript';

/** The uses of deprecated API in the project of `configPath`, one `file:line message` each. */
export function deprecatedUses(configPath: string): string[] {
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, ' '));
  const project = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(configPath));
  const service = ts.createLanguageService({
    getScriptFileNames: () => project.fileNames,
    getScriptVersion: () => '1',
    getScriptSnapshot: (file) => (ts.sys.fileExists(file) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(file)!) : undefined),
    getCurrentDirectory: () => path.dirname(configPath),
    getCompilationSettings: () => project.options,
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  });
  return project.fileNames.flatMap((file) => service.getSuggestionDiagnostics(file)
    .filter((d) => d.reportsDeprecated && d.file && d.start !== undefined)
    .map((d) => `${path.relative(process.cwd(), file)}:${d.file!.getLineAndCharacterOfPosition(d.start!).line + 1} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`));
}

if (process.argv[1] === import.meta.filename) {
  const configs = process.argv.slice(2);
  const uses = (configs.length > 0 ? configs : ['web/tsconfig.json']).flatMap((c) => deprecatedUses(path.resolve(c)));
  for (const use of uses) console.log(use);
  console.log(uses.length === 0 ? 'No deprecated API in use.' : `${uses.length} uses of deprecated API: use what each message names instead.`);
  process.exit(uses.length === 0 ? 0 : 1);
}
