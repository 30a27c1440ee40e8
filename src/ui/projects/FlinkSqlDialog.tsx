import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { toast, uiStore } from '../store/uiStore.ts';
import { Dialog } from '../shell/Dialog.tsx';
import { loadMonaco } from '../code/loadMonaco.ts';
import { EditorLoading } from '../code/EditorLoading.tsx';
import { exportFlinkSql } from '../../export/flinkSql/index.ts';
import { importFlinkSqlLaidOut } from '../../import/flinkSql/index.ts';
import { openAsNewProject } from './openDocument.ts';
import { ConnectorChoices } from './ConnectorChoices.tsx';
import type { ConnectorChoice } from './ConnectorChoices.tsx';
import { t, useT } from '../i18n/i18n.ts';

type Exported = { ok: true; sql: string; warnings: { nodeId: string | null; message: string }[] } | { ok: false; message: string };

function useExport(connectors: ConnectorChoice): Exported {
  const doc = useStore(editorStore, (s) => s.doc);
  return useMemo(() => {
    try {
      const r = exportFlinkSql(doc, { connectors });
      return { ok: true, sql: r.sql, warnings: r.warnings };
    } catch (e) {
      return { ok: false, message: (e as Error).message };
    }
  }, [doc, connectors]);
}

/** The exported script in a read-only Monaco editor; the same script `weir export --to flink-sql` writes. */
function SqlView({ sql }: { sql: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let disposed = false;
    let dispose = () => {};
    void loadMonaco().then(({ monaco, setMonacoTheme }) => {
      if (disposed || !host.current) return;
      setMonacoTheme(uiStore.get().theme === 'dark');
      const e = monaco.editor.create(host.current, { value: sql, language: 'sql', readOnly: true, ariaLabel: t('projects.sql.script'), minimap: { enabled: false }, automaticLayout: true, fontSize: 12.5, scrollBeyondLastLine: false });
      setReady(true);
      dispose = () => e.dispose();
    });
    return () => {
      disposed = true;
      dispose();
    };
  }, [sql]);
  return (
    <div className="editor-host" style={{ height: 360 }}>
      <div ref={host} className="sql-view" style={{ height: 360, border: '1px solid var(--border)', borderRadius: 6 }} />
      {!ready && <EditorLoading />}
    </div>
  );
}

function download(name: string, text: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function ImportPane() {
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const tr = useT();
  const run = async () => {
    const r = await importFlinkSqlLaidOut(text);
    if (!r.ok) return setErrors(r.errors.map((e) => t('projects.sql.importError', { line: e.line, column: e.column, construct: e.construct, message: e.message })));
    setErrors([]);
    await openAsNewProject(r.doc, 'import');
    toast(r.warnings.length ? t('projects.sql.importedWarnings', { name: r.doc.name, n: r.warnings.length }) : t('projects.sql.imported', { name: r.doc.name }));
  };
  return (
    <div>
      <label className="field-label" htmlFor="flink-sql-import">
        {tr('projects.sql.importLabel')}
      </label>
      <textarea id="flink-sql-import" className="input mono" rows={10} value={text} onChange={(e) => setText(e.target.value)} placeholder={tr('projects.sql.importPlaceholder')} />
      {errors.length > 0 && (
        <ul className="problems-list" role="alert">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn btn-primary" disabled={!text.trim()} onClick={() => void run()}>
          {tr('projects.sql.importButton')}
        </button>
      </div>
    </div>
  );
}

/** Export → Flink SQL (view, copy, download) and Import → Flink SQL, for moving to a real cluster and back. */
export function FlinkSqlDialog() {
  const [connectors, setConnectors] = useState<ConnectorChoice>({});
  const exported = useExport(connectors);
  const doc = useStore(editorStore, (s) => s.doc);
  const name = useStore(editorStore, (s) => s.doc.name);
  const [tab, setTab] = useState<'export' | 'import'>('export');
  const tr = useT();
  return (
    <Dialog title={tr('projects.sql.title')} wide>
      <div className="seg" role="tablist" aria-label={tr('projects.sql.title')}>
        <button type="button" role="tab" aria-selected={tab === 'export'} className={tab === 'export' ? 'on' : ''} onClick={() => setTab('export')}>
          {tr('projects.sql.export')}
        </button>
        <button type="button" role="tab" aria-selected={tab === 'import'} className={tab === 'import' ? 'on' : ''} onClick={() => setTab('import')}>
          {tr('projects.sql.import')}
        </button>
      </div>
      {tab === 'import' ? (
        <ImportPane />
      ) : !exported.ok ? (
        <p role="alert">{tr('projects.sql.fixFirst', { message: exported.message })}</p>
      ) : (
        <>
          <p className="muted">{tr('projects.sql.about')}</p>
          <ConnectorChoices doc={doc} value={connectors} onChange={setConnectors} />
          <SqlView sql={exported.sql} />
          {exported.warnings.length > 0 && (
            <ul className="problems-list" aria-label={tr('projects.sql.warnings')}>
              {exported.warnings.map((w, i) => (
                <li key={i}>
                  <strong>{w.nodeId ?? tr('projects.sql.pipeline')}</strong>: {w.message}
                </li>
              ))}
            </ul>
          )}
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={() => void navigator.clipboard?.writeText(exported.sql).then(() => toast(t('projects.sql.copied')), () => toast(t('projects.sql.copyFailed')))}>
              {tr('projects.sql.copy')}
            </button>
            <button type="button" className="btn btn-primary" onClick={() => download(`${name.replace(/[^A-Za-z0-9_-]+/g, '_') || 'pipeline'}.sql`, exported.sql)}>
              {tr('projects.sql.download')}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
