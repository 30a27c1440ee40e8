// Monaco's SQL grammar ships without types; the SQL tab extends its keyword list with Flink's.
declare module 'monaco-editor/languages/definitions/sql/sql.js' {
  import type { languages } from 'monaco-editor';
  export const language: languages.IMonarchLanguage & { keywords: string[] };
  export const conf: languages.LanguageConfiguration;
}
