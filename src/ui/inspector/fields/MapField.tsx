import { useState } from 'react';
import type { JsonSchema } from '../../../pipeline/kindSpec.ts';
import type { FieldProps } from './fieldTypes.ts';
import { domId, emptyValue, helpOf, propsOf, schemaOf } from './fieldTypes.ts';
import { ObjectFields } from './ObjectField.tsx';
import { InlineMarkdown } from '../InlineMarkdown.tsx';
import { useT } from '../../i18n/i18n.ts';

/** Of an entry's fields, those that apply to the type its key has (`x-weir-for-types`); all when the type is unknown. */
function forType(s: JsonSchema, type: unknown): JsonSchema {
  if (typeof type !== 'string') return s;
  const props = Object.entries(propsOf(s)).filter(([, f]) => !Array.isArray(f['x-weir-for-types']) || (f['x-weir-for-types'] as unknown[]).includes(type));
  return { ...s, properties: Object.fromEntries(props) };
}

/**
 * An object used as a map: a declared schema (field → type) as name/value rows, or, when each value
 * is itself an object (a datagen column's options), one small form per entry. With
 * `x-weir-keys-from: 'schema'` the names are chosen from the sibling map's keys (the declared
 * columns), and each entry's form shows the fields for that column's type.
 */
export function MapField(p: FieldProps) {
  const value = (p.value && typeof p.value === 'object' ? p.value : {}) as Record<string, unknown>;
  const valueSchema = schemaOf(p.schema.additionalProperties);
  const options = Array.isArray(valueSchema.enum) ? (valueSchema.enum as string[]) : null;
  const forms = valueSchema.type === 'object' && !!valueSchema.properties;
  const keysFrom = typeof p.schema['x-weir-keys-from'] === 'string' ? (p.schema['x-weir-keys-from'] as string) : null;
  const source = keysFrom ? p.siblings?.[keysFrom] : undefined;
  const declared = keysFrom ? ((source && typeof source === 'object' ? source : {}) as Record<string, unknown>) : null;
  const entries = Object.entries(value);
  const [newKey, setNewKey] = useState('');
  const set = (next: [string, unknown][]) => p.onChange(next.length || p.required ? Object.fromEntries(next) : undefined);
  const help = helpOf(p);
  const t = useT();
  const id = domId(p.path);
  const remove = (k: string, i: number) => (
    <button type="button" className="btn-icon" aria-label={t('inspector.removeFrom', { item: k, name: p.name })} onClick={() => set(entries.filter((_, j) => j !== i))}>
      ×
    </button>
  );
  const free = declared ? Object.keys(declared).filter((k) => !(k in value)) : null;
  const chosen = free ? (free.includes(newKey) ? newKey : (free[0] ?? '')) : newKey;
  return (
    <fieldset className="field-group" aria-label={p.name}>
      <legend className="field-label">{p.name}</legend>
      {help && (
        <div className="field-help">
          <InlineMarkdown text={help} />
        </div>
      )}
      {entries.map(([k, v], i) =>
        forms ? (
          <fieldset key={k} className="field-group map-entry" aria-label={`${p.name} ${k}`}>
            <legend className="field-label map-entry-title">
              <span className="mono">{k}</span>
              {declared && typeof declared[k] === 'string' && <span className="muted small">{String(declared[k])}</span>}
              {remove(k, i)}
            </legend>
            {declared && !(k in declared) && <div className="field-error">{t('inspector.mapKeyUndeclared', { key: k, from: keysFrom! })}</div>}
            <ObjectFields {...p} name={k} schema={forType(valueSchema, declared?.[k])} value={v} path={`${p.path}.${k}`} helpPath={`${p.helpPath ?? p.path}.*`} onChange={(next) => set(entries.map((x, j) => (j === i ? [k, next] : x)))} />
          </fieldset>
        ) : (
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
            {remove(k, i)}
          </div>
        ),
      )}
      {free ? (
        free.length > 0 ? (
          <div className="map-row">
            <select id={id} className="input mono" aria-label={t('inspector.newEntry', { name: p.name })} value={chosen} onChange={(e) => setNewKey(e.target.value)}>
              {free.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
            <button type="button" className="btn btn-small" onClick={() => add(chosen)}>
              {t('inspector.add')}
            </button>
          </div>
        ) : (
          Object.keys(declared!).length === 0 && <div className="field-help">{t('inspector.mapDeclareFirst', { from: keysFrom! })}</div>
        )
      ) : (
        <div className="map-row">
          <input id={id} className="input mono" placeholder={t('inspector.newEntryName')} aria-label={t('inspector.newEntry', { name: p.name })} value={newKey} onChange={(e) => setNewKey(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && add(newKey)} />
          <button type="button" className="btn btn-small" onClick={() => add(newKey)} disabled={!newKey.trim() || newKey in value}>
            {t('inspector.add')}
          </button>
        </div>
      )}
      {(p.problems.get(p.path) ?? []).map((m) => (
        <div key={m} className="field-error">
          {m}
        </div>
      ))}
    </fieldset>
  );

  function add(name: string) {
    const k = name.trim();
    if (!k || k in value) return;
    set([...entries, [k, forms ? emptyValue(valueSchema) : options ? options[0] : '']]);
    setNewKey('');
  }
}
