import type { FieldType } from '../../core/streamInfo.ts';
import { FIELD_TYPES } from '../../core/streamInfo.ts';
import { useT } from '../i18n/i18n.ts';

export interface SchemaChoice {
  schema: Record<string, FieldType>;
  /** '' for no event time. */
  timeField: string;
  delayMs: number;
}

/**
 * The inferred types of a source's fields, one select per field, with the event-time field and
 * watermark delay beside them: what a person confirms after pasting rows or giving a file.
 */
export function SchemaConfirm({ value, onChange }: { value: SchemaChoice; onChange(next: SchemaChoice): void }) {
  const t = useT();
  const { schema, timeField, delayMs } = value;
  return (
    <>
      <table className="schema-confirm">
        <tbody>
          {Object.entries(schema).map(([f, ty]) => (
            <tr key={f}>
              <td className="mono">{f}</td>
              <td>
                <select aria-label={t('sourceData.typeOf', { field: f })} value={ty} onChange={(e) => onChange({ ...value, schema: { ...schema, [f]: e.target.value as FieldType } })}>
                  {FIELD_TYPES.map((x) => <option key={x} value={x}>{x}</option>)}
                </select>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <label className="field-label">
        {t('sourceData.eventTime')}
        <select value={timeField} onChange={(e) => onChange({ ...value, timeField: e.target.value })}>
          <option value="">{t('sourceData.noEventTime')}</option>
          {Object.keys(schema).map((f) => <option key={f} value={f}>{f}</option>)}
        </select>
      </label>
      {timeField && (
        <label className="field-label">
          {t('sourceData.delay')}
          <input type="number" min={0} value={delayMs} onChange={(e) => onChange({ ...value, delayMs: Math.max(0, Number(e.target.value) || 0) })} />
        </label>
      )}
    </>
  );
}

/** Params for a choice: the schema, and event time when a field is chosen (other params kept). */
export function withSchemaChoice(params: Record<string, unknown>, c: SchemaChoice): Record<string, unknown> {
  const { schema: _s, eventTime: prev, ...rest } = params;
  const { idleTimeoutMs: idle, expr, field } = (prev ?? {}) as { idleTimeoutMs?: number; expr?: string; field?: string };
  // A computed event time stays computed while its field keeps its name.
  const computed = expr !== undefined && field === c.timeField ? { expr } : {};
  return { ...rest, schema: c.schema, ...(c.timeField ? { eventTime: { field: c.timeField, ...computed, maxOutOfOrdernessMs: c.delayMs, ...(idle !== undefined ? { idleTimeoutMs: idle } : {}) } } : {}) };
}
