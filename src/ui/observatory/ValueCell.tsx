import { entriesOf, fmtScalar, summarize } from './format.ts';

/** A state value: scalars inline, lists and maps as a summary that expands in place (a native disclosure). */
export function ValueCell({ value, onToggle }: { value: unknown; onToggle?: (open: boolean) => void }) {
  const s = summarize(value);
  if (!s.expandable) return <span className="obs-value" title={typeof value === 'object' ? JSON.stringify(value) : undefined}>{s.text}</span>;
  return (
    <details className="obs-value-more" onToggle={onToggle && ((e) => onToggle(e.currentTarget.open))}>
      <summary title={JSON.stringify(value)}>{s.text}</summary>
      <ul className="obs-value-list">
        {entriesOf(value)
          .slice(0, 50)
          .map(([k, v]) => (
            <li key={k}>
              <span className="muted">{k}</span> {typeof v === 'object' && v !== null ? JSON.stringify(v) : fmtScalar(v)}
            </li>
          ))}
        {s.size > 50 && <li className="muted">… {s.size - 50}</li>}
      </ul>
    </details>
  );
}
