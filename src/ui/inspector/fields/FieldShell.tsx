import type { ReactNode } from 'react';
import { domId, describe, helpOf, messagesAt } from './fieldTypes.ts';
import type { FieldProps } from './fieldTypes.ts';
import { InlineMarkdown } from '../InlineMarkdown.tsx';

/** Label, help text and inline problems around one control. The label is a real <label>. */
export function FieldShell({ p, children, asGroup, extra }: { p: FieldProps; children: ReactNode; asGroup?: boolean; extra?: ReactNode }) {
  const id = domId(p.path);
  const msgs = messagesAt(p.problems, p.path);
  const help = helpOf(p);
  const label = (
    <>
      {p.name}
      {p.required && (
        <span className="req" aria-hidden>
          {' '}
          *
        </span>
      )}
    </>
  );
  return (
    <div className={`field${msgs.length ? ' has-error' : ''}`} data-path={p.path}>
      <div className="field-label-row">
        {asGroup ? (
          <span className="field-label" id={`${id}-label`}>
            {label}
          </span>
        ) : (
          <label className="field-label" htmlFor={id}>
            {label}
          </label>
        )}
        {extra}
      </div>
      {children}
      {help && (
        <div className="field-help" id={`${id}-help`}>
          <InlineMarkdown text={help} />
        </div>
      )}
      {msgs.map((m) => (
        <div key={m} className="field-error" id={`${id}-err`}>
          {m}
        </div>
      ))}
    </div>
  );
}

export const describedBy = (p: FieldProps): string => {
  const id = domId(p.path);
  return [describe(p.schema) ? `${id}-help` : '', messagesAt(p.problems, p.path).length ? `${id}-err` : ''].filter(Boolean).join(' ') || '';
};
