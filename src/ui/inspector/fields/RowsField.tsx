import type { FieldProps } from './fieldTypes.ts';
import { emptyValue, helpOf, schemaOf } from './fieldTypes.ts';
import { ObjectFields } from './ObjectField.tsx';
import { InlineMarkdown } from '../InlineMarkdown.tsx';
import { useT } from '../../i18n/i18n.ts';

/** An array of objects (aggregates, assignments): one compact group per row, add and remove. */
export function RowsField(p: FieldProps) {
  const rows = Array.isArray(p.value) ? (p.value as unknown[]) : [];
  const item = schemaOf(p.schema.items);
  const set = (next: unknown[]) => p.onChange(next.length || p.required ? next : undefined);
  const help = helpOf(p);
  const t = useT();
  const msgs = p.problems.get(p.path) ?? [];
  return (
    <fieldset className="field-group rows" aria-label={p.name}>
      <legend className="field-label">{p.name}</legend>
      {help && (
        <div className="field-help">
          <InlineMarkdown text={help} />
        </div>
      )}
      {rows.map((row, i) => (
        <div key={i} className="row-item" role="group" aria-label={`${p.name} ${i + 1}`}>
          <div className="row-head">
            <span className="row-index">#{i + 1}</span>
            <button type="button" className="btn-icon" aria-label={`${t('inspector.remove')} ${p.name} ${i + 1}`} title={t('inspector.remove')} onClick={() => set(rows.filter((_, j) => j !== i))}>
              ×
            </button>
          </div>
          <div className="row-fields">
            <ObjectFields {...p} schema={item} value={row} path={`${p.path}[${i}]`} helpPath={p.helpPath === undefined ? undefined : `${p.helpPath}[]`} onChange={(v) => set(rows.map((r, j) => (j === i ? v : r)))} />
          </div>
        </div>
      ))}
      {msgs.map((m) => (
        <div key={m} className="field-error">
          {m}
        </div>
      ))}
      <button type="button" className="btn btn-small" onClick={() => set([...rows, emptyValue(item)])}>
        {t('inspector.add')} {p.name}
      </button>
    </fieldset>
  );
}
