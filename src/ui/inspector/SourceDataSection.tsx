import { useState } from 'react';
import type { PipelineNode } from '../../pipeline/document.ts';
import type { FieldType } from '../../core/streamInfo.ts';
import { FIELD_TYPES } from '../../core/streamInfo.ts';
import { parsePastedRows } from '../../engine/formats/pastedRows.ts';
import type { PastedRows } from '../../engine/formats/pastedRows.ts';
import { dispatch } from '../actions/registry.ts';
import { setNodeParams } from '../actions/nodeActions.ts';
import { useT } from '../i18n/i18n.ts';
import { Section } from './Section.tsx';
import './sourceData.css';

/** Files larger than this are not copied into the document as inline rows. */
export const INLINE_FILE_LIMIT = 5 * 1024 * 1024;

/**
 * Your own rows for an inline source: paste CSV, TSV or JSON, or pick or drop a file; confirm the
 * inferred types, choose the event-time field and watermark delay, then apply them to the node.
 */
export function SourceDataSection({ node }: { node: PipelineNode }) {
  const t = useT();
  const [text, setText] = useState('');
  const [parsed, setParsed] = useState<PastedRows | null>(null);
  const [schema, setSchema] = useState<Record<string, FieldType>>({});
  const [timeField, setTimeField] = useState('');
  const [delay, setDelay] = useState(0);
  const [note, setNote] = useState<string | null>(null);
  if (node.kind !== 'inlineSource') return null;

  const read = (value: string) => {
    const p = parsePastedRows(value);
    setParsed(p);
    setSchema(p.schema);
    const guess = Object.entries(p.schema).find(([, ty]) => ty === 'timestamp')?.[0] ?? Object.keys(p.schema).find((k) => /^(ts|time|timestamp|event_time)$/i.test(k)) ?? '';
    setTimeField(guess);
  };
  const readFile = async (file: File) => {
    if (file.size > INLINE_FILE_LIMIT) {
      setNote(t('sourceData.tooLarge', { name: file.name, mb: Math.round(file.size / 1e6) }));
      return;
    }
    setNote(null);
    const content = await file.text();
    setText(content);
    read(content);
  };
  const apply = () => {
    if (!parsed) return;
    const { rows: _r, schema: _s, eventTime: _e, ...rest } = node.params;
    const params = { ...rest, rows: parsed.rows, schema, ...(timeField ? { eventTime: { field: timeField, maxOutOfOrdernessMs: delay } } : {}) };
    dispatch(setNodeParams, { id: node.id, params });
    setParsed(null);
    setText('');
  };
  return (
    <Section title={t('sourceData.title')}>
      <div
        className="source-drop"
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          const f = e.dataTransfer.files[0];
          if (f) void readFile(f);
        }}
      >
        <textarea
          className="mono"
          rows={5}
          aria-label={t('sourceData.pasteLabel')}
          placeholder={t('sourceData.placeholder')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onPaste={(e) => {
            const v = e.clipboardData.getData('text');
            if (v) setTimeout(() => read(v), 0);
          }}
        />
        <div className="row-gap">
          <button type="button" className="btn-small" onClick={() => read(text)} disabled={!text.trim()}>{t('sourceData.read')}</button>
          <label className="btn-small">
            {t('sourceData.pick')}
            <input type="file" accept=".csv,.tsv,.json,.jsonl,.txt" hidden onChange={(e) => e.target.files?.[0] && void readFile(e.target.files[0])} />
          </label>
        </div>
      </div>
      {note && <p className="field-error">{note}</p>}
      {parsed && (
        <div className="source-preview">
          <p className="muted small">{t('sourceData.found', { rows: parsed.rows.length, format: parsed.format.toUpperCase(), bad: parsed.errors.length })}</p>
          {parsed.errors.slice(0, 5).map((e) => (
            <div key={e.line} className="field-error">{t('sourceData.badLine', { line: e.line, reason: e.reason })}</div>
          ))}
          <table className="schema-confirm">
            <tbody>
              {Object.entries(schema).map(([f, ty]) => (
                <tr key={f}>
                  <td className="mono">{f}</td>
                  <td>
                    <select aria-label={t('sourceData.typeOf', { field: f })} value={ty} onChange={(e) => setSchema({ ...schema, [f]: e.target.value as FieldType })}>
                      {FIELD_TYPES.map((x) => <option key={x} value={x}>{x}</option>)}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <label className="field-label">
            {t('sourceData.eventTime')}
            <select value={timeField} onChange={(e) => setTimeField(e.target.value)}>
              <option value="">{t('sourceData.noEventTime')}</option>
              {Object.keys(schema).map((f) => <option key={f} value={f}>{f}</option>)}
            </select>
          </label>
          {timeField && (
            <label className="field-label">
              {t('sourceData.delay')}
              <input type="number" min={0} value={delay} onChange={(e) => setDelay(Math.max(0, Number(e.target.value) || 0))} />
            </label>
          )}
          <button type="button" className="btn" onClick={apply} disabled={!parsed.rows.length}>{t('sourceData.apply', { rows: parsed.rows.length })}</button>
        </div>
      )}
    </Section>
  );
}
