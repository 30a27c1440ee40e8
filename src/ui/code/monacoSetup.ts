// The heavy module: loaded on demand (see loadMonaco) so the canvas paints before Monaco arrives.
import * as monaco from 'monaco-editor';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import TsWorker from 'monaco-editor/languages/features/typescript/ts.worker?worker';
import JsonWorker from 'monaco-editor/languages/features/json/json.worker?worker';
import { PROCESS_CONTEXT_DTS } from '../../pipeline/kinds/process.ts';
import { UDF_LIB_DTS } from './udfWrappers.ts';
import { language as sqlLanguage } from 'monaco-editor/languages/definitions/sql/sql.js';
import { registerFlinkSql } from './sqlLanguage.ts';

// Workers come from the bundle: nothing is fetched from a CDN, so the editor works offline.
self.MonacoEnvironment = {
  getWorker(_id: string, label: string) {
    if (label === 'typescript' || label === 'javascript') return new TsWorker();
    if (label === 'json') return new JsonWorker();
    return new EditorWorker();
  },
};

const ts = monaco.typescript;
ts.typescriptDefaults.setCompilerOptions({
  target: ts.ScriptTarget.ESNext,
  module: ts.ModuleKind.ESNext,
  strict: true,
  // Signatures the editor does not know leave parameters untyped; that alone is not an error.
  noImplicitAny: false,
  lib: ['es2022'],
  allowNonTsExtensions: true,
});
ts.typescriptDefaults.setDiagnosticsOptions({ noSemanticValidation: false, noSyntaxValidation: false });
ts.typescriptDefaults.addExtraLib(PROCESS_CONTEXT_DTS, 'file:///weir/process-context.d.ts');
ts.typescriptDefaults.addExtraLib(UDF_LIB_DTS, 'file:///weir/udf-lib.d.ts');

registerFlinkSql(monaco, sqlLanguage);

/** How the designer's full-size code views look (Pipeline JSON, SQL): one set, so they read alike. */
export const CODE_VIEW_OPTIONS = { minimap: { enabled: false }, automaticLayout: true, fontSize: 12.5, tabSize: 2, scrollBeyondLastLine: false, fixedOverflowWidgets: true } as const;

let themeName: 'vs' | 'vs-dark' = 'vs';
export function setMonacoTheme(dark: boolean): void {
  themeName = dark ? 'vs-dark' : 'vs';
  monaco.editor.setTheme(themeName);
}
export const monacoTheme = (): string => themeName;

/** Registers the pipeline document schema for the JSON tab, when the file exists. */
export async function registerPipelineSchema(): Promise<void> {
  try {
    const res = await fetch(`${import.meta.env.BASE_URL}schema/pipeline.schema.json`);
    if (!res.ok) return;
    const schema = (await res.json()) as object;
    monaco.json.jsonDefaults.setDiagnosticsOptions({
      validate: true,
      allowComments: false,
      schemas: [{ uri: 'urn:weir:pipeline-schema', fileMatch: ['*pipeline.weir.json'], schema }],
    });
  } catch {
    // No schema yet: the JSON tab still checks syntax and the compiler checks the rest.
  }
}

export { monaco };
