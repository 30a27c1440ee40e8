import { useEffect, useState } from 'react';
import type { PipelineNode } from '../../pipeline/document.ts';
import type { FieldType } from '../../core/streamInfo.ts';
import { dispatch } from '../actions/registry.ts';
import { setNodeParams } from '../actions/nodeActions.ts';
import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { sourceFileStore, syncSourceFiles } from '../projects/sourceFiles.ts';
import { giveSourceFile, pendingSamples } from '../projects/giveSourceFile.ts';
import { useT } from '../i18n/i18n.ts';
import { Section } from './Section.tsx';
import { SchemaConfirm, withSchemaChoice } from './SchemaConfirm.tsx';
import { FilePickButton } from './FilePickButton.tsx';
import './sourceData.css';

/** A size as people read it: KB below a megabyte, MB above. */
const size = (bytes: number): string => (bytes < 1e6 ? `${Math.max(1, Math.round(bytes / 1e3))} KB` : `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`);

/**
 * The file a file source reads in this browser: pick or drop one (kept in IndexedDB, read in
 * blocks when the job runs), then confirm the inferred types, event-time field and delay.
 */
export function FileSourceSection({ node }: { node: PipelineNode }) {
  const t = useT();
  const projectId = useStore(editorStore, (s) => s.projectId);
  const file = useStore(sourceFileStore, (m) => m[node.id]);
  const pending = useStore(pendingSamples, (m) => m[node.id]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => void syncSourceFiles(projectId), [projectId]);
  if (node.kind !== 'fileSource') return null;

  const give = (f: File) => {
    setError(null);
    giveSourceFile(node.id, f).catch((e: Error) => setError(t('fileSource.unreadable', { name: f.name, message: e.message })));
  };
  const params = node.params as { schema?: Record<string, FieldType>; eventTime?: { field: string; maxOutOfOrdernessMs?: number } };
  const choice = { schema: params.schema ?? {}, timeField: params.eventTime?.field ?? '', delayMs: params.eventTime?.maxOutOfOrdernessMs ?? 0 };
  const confirm = () => pendingSamples.set(({ [node.id]: _done, ...rest }) => rest);
  return (
    <Section title={t('fileSource.title')}>
      <div
        className="source-drop file-drop"
        onDragOver={(e) => {
          if (e.dataTransfer.types.includes('Files')) e.preventDefault();
        }}
        onDrop={(e) => {
          const f = e.dataTransfer.files[0];
          if (!f) return;
          e.preventDefault();
          e.stopPropagation();
          give(f);
        }}
      >
        <p className="small" data-testid="file-source-status">
          {file ? t('fileSource.kept', { name: file.name, size: size(file.size) }) : t('fileSource.none')}
        </p>
        <div className="row-gap">
          <FilePickButton accept=".csv,.tsv,.json,.jsonl,.ndjson,.txt" onFile={give} label={file ? t('fileSource.replace') : t('sourceData.pick')} />
        </div>
      </div>
      {error && <p className="field-error">{error}</p>}
      {pending && (
        <div className="source-preview" role="group" aria-label={t('fileSource.confirmLabel')}>
          <p className="muted small">{t('fileSource.inferred', { records: pending.records, name: pending.name, format: pending.format.toUpperCase(), bad: pending.bad.length })}</p>
          {pending.bad.slice(0, 5).map((b) => (
            <div key={b.line} className="field-error">{t('sourceData.badLine', { line: b.line, reason: b.reason })}</div>
          ))}
          <SchemaConfirm value={choice} onChange={(c) => dispatch(setNodeParams, { id: node.id, params: withSchemaChoice(node.params, c), field: 'schemaConfirm' })} />
          <button type="button" className="btn" onClick={confirm}>{t('fileSource.confirm')}</button>
        </div>
      )}
    </Section>
  );
}
