// Completion for the SQL tab: table and column names from the script's own catalog, which the
// tab refreshes after each check. Registered once for Monaco's built-in 'sql' language.
import type * as Monaco from 'monaco-editor';
import type { SqlAnalysis } from './sqlAnalysis.ts';

type Catalog = SqlAnalysis['catalog'];
const catalogs = new Map<string, Catalog>();
let registered = false;

export const setSqlCatalog = (uri: string, catalog: Catalog): void => void catalogs.set(uri, catalog);

/** Words Flink adds to standard SQL, coloured as keywords in the SQL tab. */
const FLINK_KEYWORDS = ['WATERMARK', 'TUMBLE', 'HOP', 'CUMULATE', 'SESSION', 'DESCRIPTOR', 'ENFORCED', 'METADATA', 'VIRTUAL', 'TEMPORARY', 'STATEMENT', 'EXECUTE', 'LATERAL', 'MATCH_RECOGNIZE', 'WINDOW_START', 'WINDOW_END', 'PROCTIME', 'TO_TIMESTAMP_LTZ', 'SYSTEM_TIME'];

export function registerFlinkSql(monaco: typeof Monaco, sqlLanguage: { keywords: string[] } & Monaco.languages.IMonarchLanguage): void {
  if (registered) return;
  registered = true;
  monaco.languages.setMonarchTokensProvider('sql', { ...sqlLanguage, keywords: [...new Set([...sqlLanguage.keywords, ...FLINK_KEYWORDS])] });
  monaco.languages.registerCompletionItemProvider('sql', {
    triggerCharacters: ['.'],
    provideCompletionItems(model, position) {
      const catalog = catalogs.get(model.uri.toString()) ?? [];
      const word = model.getWordUntilPosition(position);
      const range = { startLineNumber: position.lineNumber, endLineNumber: position.lineNumber, startColumn: word.startColumn, endColumn: word.endColumn };
      const before = model.getLineContent(position.lineNumber).slice(0, word.startColumn - 1);
      const qualifier = /([A-Za-z_][\w]*)\.$/.exec(before)?.[1]?.toLowerCase();
      const K = monaco.languages.CompletionItemKind;
      const owner = qualifier ? catalog.find((c) => c.name.toLowerCase() === qualifier) : undefined;
      // After `name.`: that table's columns when it is a table, else every column (an alias).
      const tables = qualifier ? (owner ? [owner] : catalog) : catalog;
      const columns = tables.flatMap((c) => c.columns.map((col) => ({ label: col.name, kind: K.Field, detail: `${c.name}.${col.name} ${col.type}`, insertText: col.name, range })));
      const names = qualifier ? [] : catalog.map((c) => ({ label: c.name, kind: c.kind === 'view' ? K.Interface : K.Struct, detail: c.kind, insertText: c.name, range }));
      const seen = new Set<string>();
      return { suggestions: [...names, ...columns].filter((s) => !seen.has(`${s.label}|${s.detail}`) && seen.add(`${s.label}|${s.detail}`)) };
    },
  });
}
