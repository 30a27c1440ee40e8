import { useState } from 'react';
import type { FieldProps } from './fieldTypes.ts';
import { domId, helpOf, schemaOf } from './fieldTypes.ts';
import { InlineMarkdown } from '../InlineMarkdown.tsx';
import { useT } from '../../i18n/i18n.ts';

/** An object used as a map (a declared schema: field → type): editable name/value rows. */
export function MapField(p: FieldProps) {
  const value = (p.value && typeof p.value === 'object' ? p.value : {}) as Record<string, unknown>;
  const valueSchema = schemaOf(p.schema.additionalProperties);
  const options = Array.isArray(valueSchema.enum) ? (valueSchema.enum as string[]) : null;
  const entries = Object.entries(value);
  const [newKey, setNewKey] = useState('');
  const set = (next: [string, unknown][]) => p.onChange(next.length || p.required ? Object.fromEntries(next) : undefined);
  const help = helpOf(p);
  const t = useT();
  const id = domId(p.path);
  return (
    <fieldset className="field-group" aria-label={p.name}>
      <legend className="field-label">{p.name}</legend>
      {help && (
        <div className="field-help">
          <InlineMarkdown text={help} />
        </div>
      )}
      {entries.map(([k, v], i) => (
        <div key={k} className="map-row">
          <input className="input mono" aria-label={`${t('inspector.entryName', { name: p.name })} ${i + 1}`} value={k} onChange={(e) => set(entries.map((x, j) => (j === i ? [e.target.value, x[1]] : x)))} />
          {options ? (
            <select className="input" aria-label={`${p.name} ${k}`} value={String(v)} onChange={(e) => set(entries.map((x, j) => (j === i ? [k, e.target.value] : x)))}>
              {options.map((o) => (
                <option key={o}>{o}</option>
              ))}
            </select>
          ) : (
            <input className="input" aria-label={`${p.name} ${k}`} value={typeof v === 'string' ? v : JSON.stringify(v)} onChange={(e) => set(entries.map((x, j) => (j === i ? [k, e.target.value] : x)))} />
          )}
          <button type="button" className="btn-icon" aria-label={t('inspector.removeFrom', { item: k, name: p.name })} onClick={() => set(entries.filter((_, j) => j !== i))}>
            ×
          </button>
        </div>
      ))}
      <div className="map-row">
        <input id={id} className="input mono" placeholder={t('inspector.newEntryName')} aria-label={t('inspector.newEntry', { name: p.name })} value={newKey} onChange={(e) => setNewKey(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && addKey()} />
        <button type="button" className="btn btn-small" onClick={addKey} disabled={!newKey.trim() || newKey in value}>
          {t('inspector.add')}
        </button>
      </div>
      {(p.problems.get(p.path) ?? []).map((m) => (
        <div key={m} className="field-error">
          {m}
        </div>
      ))}
    </fieldset>
  );

  function addKey() {
    const k = newKey.trim();
    if (!k || k in value) return;
    set([...entries, [k, options ? options[0] : '']]);
    setNewKey('');
  }
}
