import type { editor, MarkerSeverity } from 'monaco-editor';
import type { SqlProblem, SqlSpan } from '../../import/flinkSql/index.ts';

export const spanRange = (s: SqlSpan) => ({ startLineNumber: s.line, startColumn: s.column, endLineNumber: s.endLine, endColumn: s.endColumn });

const contains = (s: SqlSpan, line: number, column: number): boolean =>
  (line > s.line || (line === s.line && column >= s.column)) && (line < s.endLine || (line === s.endLine && column <= s.endColumn));

const size = (s: SqlSpan): number => (s.endLine - s.line) * 10_000 + (s.endColumn - s.column);

/** The node whose span holds the position; the innermost one when spans nest (a subquery in a view). */
export function spanAt(spans: Record<string, SqlSpan>, line: number, column: number): string | null {
  let best: [string, number] | null = null;
  for (const [id, s] of Object.entries(spans)) if (contains(s, line, column) && (!best || size(s) < best[1])) best = [id, size(s)];
  return best?.[0] ?? null;
}

/** A problem as one sentence: the construct it names, then what is wrong with it. */
export const problemText = (p: SqlProblem): string => (p.construct && p.construct !== 'warning' ? `${p.construct}: ${p.message}` : p.message);

/** The planner marks most problems at one character; the squiggle covers the word that starts there. */
export function toMarkers(model: editor.ITextModel, problems: SqlProblem[], severity: typeof MarkerSeverity): editor.IMarkerData[] {
  const lines = model.getLineCount();
  return problems.map((p) => {
    const line = Math.min(Math.max(p.line, 1), lines);
    const word = p.endLine === p.line && p.endColumn - p.column <= 1 ? model.getWordAtPosition({ lineNumber: line, column: p.column }) : null;
    return {
      severity: p.severity === 'error' ? severity.Error : severity.Warning,
      message: problemText(p),
      source: p.construct,
      startLineNumber: line,
      startColumn: p.column,
      endLineNumber: Math.min(p.endLine, lines),
      endColumn: word && word.startColumn <= p.column ? word.endColumn : p.endColumn,
    };
  });
}
