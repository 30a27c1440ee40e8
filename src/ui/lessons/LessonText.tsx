import type { ReactNode } from 'react';
import { Term } from './Term.tsx';
import { isTermId } from './glossary.ts';

// [[term]] or [[term|shown text]] becomes a glossary Term; `code` becomes <code>.
const TOKEN = /\[\[(\w+)(?:\|([^\]]+))?\]\]|`([^`]+)`/g;

/** Renders a lesson sentence with glossary terms and inline code. Unknown terms show as plain text. */
export function LessonText({ text }: { text: string }) {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const [, term, shown, code] = m;
    if (code !== undefined) out.push(<code key={m.index}>{code}</code>);
    else if (isTermId(term)) out.push(<Term key={m.index} id={term}>{shown}</Term>);
    else out.push(shown ?? term);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return <>{out}</>;
}
