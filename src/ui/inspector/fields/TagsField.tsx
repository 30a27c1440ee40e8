import { useState } from 'react';
import { FieldShell, describedBy } from './FieldShell.tsx';
import { domId } from './fieldTypes.ts';
import type { FieldProps } from './fieldTypes.ts';
import { useT } from '../../i18n/i18n.ts';

/** A list of strings (usually field names) as removable chips plus an input; Enter or comma adds. */
export function TagsField(p: FieldProps) {
  const tags = Array.isArray(p.value) ? (p.value as unknown[]).map(String) : [];
  const [draft, setDraft] = useState('');
  const t = useT();
  const id = domId(p.path);
  const set = (next: string[]) => p.onChange(next.length || p.required ? next : undefined);
  const add = (raw: string) => {
    const parts = raw.split(',').map((x) => x.trim()).filter(Boolean);
    if (!parts.length) return;
    set([...tags, ...parts.filter((x) => !tags.includes(x))]);
    setDraft('');
  };
  const suggestions = p.fieldNames.filter((f) => !tags.includes(f));
  return (
    <FieldShell p={p}>
      <div className={`tags${p.problems.has(p.path) ? ' invalid' : ''}`}>
        {tags.map((tag, i) => (
          <span key={`${tag}-${i}`} className={`tag${p.problems.has(`${p.path}[${i}]`) ? ' tag-bad' : ''}`} title={p.problems.get(`${p.path}[${i}]`)?.join('\n')}>
            {tag}
            <button type="button" className="tag-x" aria-label={t('inspector.removeFrom', { item: tag, name: p.name })} onClick={() => set(tags.filter((_, j) => j !== i))}>
              ×
            </button>
          </span>
        ))}
        <input
          id={id}
          className="tag-input"
          value={draft}
          list={suggestions.length ? `${id}-fields` : undefined}
          placeholder={tags.length ? '' : t('inspector.typeEnter')}
          aria-describedby={describedBy(p) || undefined}
          onChange={(e) => {
            const v = e.target.value;
            if (v.endsWith(',')) add(v);
            else setDraft(v);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add(draft);
            } else if (e.key === 'Backspace' && draft === '' && tags.length) set(tags.slice(0, -1));
          }}
          onBlur={() => add(draft)}
        />
        {suggestions.length > 0 && (
          <datalist id={`${id}-fields`}>
            {suggestions.map((f) => (
              <option key={f} value={f} />
            ))}
          </datalist>
        )}
      </div>
      {tags.map((_, i) => p.problems.get(`${p.path}[${i}]`)?.map((m) => <div key={`${i}${m}`} className="field-error">{m}</div>))}
    </FieldShell>
  );
}
