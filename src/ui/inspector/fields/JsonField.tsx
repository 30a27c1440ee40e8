import { useState } from 'react';
import { FieldShell, describedBy } from './FieldShell.tsx';
import { domId } from './fieldTypes.ts';
import type { FieldProps } from './fieldTypes.ts';
import { useDraft } from './useDraft.ts';
import { safeJsonParse } from '../../../core/source.ts';

/** Any value the form has no better control for, as JSON text; only valid JSON is applied. */
export function JsonField(p: FieldProps) {
  const external = p.value === undefined ? '' : JSON.stringify(p.value, null, 2);
  const draft = useDraft(external);
  const [error, setError] = useState<string | null>(null);
  const rows = Math.min(14, Math.max(3, draft.text.split('\n').length));
  return (
    <FieldShell p={p}>
      <textarea
        id={domId(p.path)}
        className="input mono json-input"
        rows={rows}
        spellCheck={false}
        value={draft.text}
        aria-describedby={describedBy(p) || undefined}
        aria-invalid={!!error || p.problems.has(p.path) || undefined}
        onFocus={draft.focus}
        onBlur={() => {
          setError(null);
          draft.blur();
        }}
        onChange={(e) => {
          const t = e.target.value;
          draft.setText(t);
          if (t.trim() === '') {
            setError(null);
            return p.onChange(undefined);
          }
          try {
            const v = safeJsonParse(t);
            setError(null);
            p.onChange(v);
          } catch (err) {
            setError(`not valid JSON yet: ${(err as Error).message}`);
          }
        }}
      />
      {error && <div className="field-error">{error}</div>}
    </FieldShell>
  );
}
