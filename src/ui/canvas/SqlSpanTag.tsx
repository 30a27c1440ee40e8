import type { TextSpan } from '../../pipeline/document.ts';
import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { useT } from '../i18n/i18n.ts';

/** `12:3–14:20`: where a clause starts and ends, as the SQL tab's line:column. */
export const spanText = (s: TextSpan): string => `${s.line}:${s.column}–${s.endLine}:${s.endColumn}`;

/** The first line of the clause, trimmed, so a tooltip can say which statement this is. */
export function clauseStart(script: string, s: TextSpan): string {
  const line = script.split('\n')[s.line - 1] ?? '';
  const text = (s.line === s.endLine ? line.slice(s.column - 1, s.endColumn - 1) : line.slice(s.column - 1)).trim();
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** The SQL span a node was planned from, on the node and in the inspector. */
export function SqlSpanTag({ span }: { span: TextSpan }) {
  const t = useT();
  const script = useStore(editorStore, (s) => s.doc.origin?.sql ?? '');
  return (
    <span className="op-sql-span" title={t('observatory.node.sqlSpanTitle', { from: span.line, to: span.endLine, clause: clauseStart(script, span) })}>
      {t('observatory.node.sqlSpan', { span: spanText(span) })}
    </span>
  );
}
