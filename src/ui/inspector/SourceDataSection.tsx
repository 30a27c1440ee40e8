import { useState } from 'react';
import type { PipelineNode } from '../../pipeline/document.ts';
import type { FieldType } from '../../core/streamInfo.ts';
import { parsePastedRows } from '../../engine/formats/pastedRows.ts';
import type { PastedRows } from '../../engine/formats/pastedRows.ts';
import { dispatch } from '../actions/registry.ts';
import { setNodeParams } from '../actions/nodeActions.ts';
import { useT } from '../i18n/i18n.ts';
import { Section } from './Section.tsx';
import { SchemaConfirm, withSchemaChoice } from './SchemaConfirm.tsx';
import { FilePickButton } from './FilePickButton.tsx';
import { guessTimeField } from '../../engine/formats/inferTypes.ts';
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
    setTimeField(guessTimeField(p.schema));
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
    const { rows: _r, ...rest } = node.params;
    const params = { ...withSchemaChoice(rest, { schema, timeField, delayMs: delay }), rows: parsed.rows };
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
          <FilePickButton accept=".csv,.tsv,.json,.jsonl,.ndjson,.txt" onFile={(f) => void readFile(f)} />
        </div>
      </div>
      {note && <p className="field-error">{note}</p>}
      {parsed && (
        <div className="source-preview">
          <p className="muted small">{t('sourceData.found', { rows: parsed.rows.length, format: parsed.format.toUpperCase(), bad: parsed.errors.length })}</p>
          {parsed.errors.slice(0, 5).map((e) => (
            <div key={e.line} className="field-error">{t('sourceData.badLine', { line: e.line, reason: e.reason })}</div>
          ))}
          <SchemaConfirm value={{ schema, timeField, delayMs: delay }} onChange={(c) => { setSchema(c.schema); setTimeField(c.timeField); setDelay(c.delayMs); }} />
          <button type="button" className="btn" onClick={apply} disabled={!parsed.rows.length}>{t('sourceData.apply', { rows: parsed.rows.length })}</button>
        </div>
      )}
    </Section>
  );
}
