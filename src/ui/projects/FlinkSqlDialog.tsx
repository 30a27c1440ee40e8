import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { toast, uiStore } from '../store/uiStore.ts';
import { Dialog } from '../shell/Dialog.tsx';
import { loadMonaco } from '../code/loadMonaco.ts';
import { exportFlinkSql } from '../../export/flinkSql/index.ts';
import { importFlinkSql } from '../../import/flinkSql/index.ts';
import { openAsNewProject } from './openDocument.ts';

type Exported = { ok: true; sql: string; warnings: { nodeId: string | null; message: string }[] } | { ok: false; message: string };

function useExport(): Exported {
  const doc = useStore(editorStore, (s) => s.doc);
  return useMemo(() => {
    try {
      const r = exportFlinkSql(doc);
      return { ok: true, sql: r.sql, warnings: r.warnings };
    } catch (e) {
      return { ok: false, message: (e as Error).message };
    }
  }, [doc]);
}

/** The exported script in a read-only Monaco editor; the same script `weir export --to flink-sql` writes. */
function SqlView({ sql }: { sql: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let disposed = false;
    let dispose = () => {};
    void loadMonaco().then(({ monaco, setMonacoTheme }) => {
      if (disposed || !host.current) return;
      setMonacoTheme(uiStore.get().theme === 'dark');
      const e = monaco.editor.create(host.current, { value: sql, language: 'sql', readOnly: true, ariaLabel: 'Flink SQL script', minimap: { enabled: false }, automaticLayout: true, fontSize: 12.5, scrollBeyondLastLine: false });
      dispose = () => e.dispose();
    });
    return () => {
      disposed = true;
      dispose();
    };
  }, [sql]);
  return <div ref={host} className="sql-view" style={{ height: 360, border: '1px solid var(--border)', borderRadius: 6 }} />;
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
  const run = async () => {
    const r = importFlinkSql(text);
    if (!r.ok) return setErrors(r.errors.map((e) => `line ${e.line}, column ${e.column} (${e.construct}): ${e.message}`));
    setErrors([]);
    await openAsNewProject(r.doc, 'import');
    toast(`Imported “${r.doc.name}”${r.warnings.length ? ` with ${r.warnings.length} warning(s)` : ''}`);
  };
  return (
    <div>
      <label className="field-label" htmlFor="flink-sql-import">
        Flink SQL script to import
      </label>
      <textarea id="flink-sql-import" className="input mono" rows={10} value={text} onChange={(e) => setText(e.target.value)} placeholder="Paste a script written by Export → Flink SQL" />
      {errors.length > 0 && (
        <ul className="problems-list" role="alert">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn btn-primary" disabled={!text.trim()} onClick={() => void run()}>
          Import as a new project
        </button>
      </div>
    </div>
  );
}

/** Export → Flink SQL (view, copy, download) and Import → Flink SQL, for moving to a real cluster and back. */
export function FlinkSqlDialog() {
  const exported = useExport();
  const name = useStore(editorStore, (s) => s.doc.name);
  const [tab, setTab] = useState<'export' | 'import'>('export');
  return (
    <Dialog title="Flink SQL" wide>
      <div className="seg" role="tablist" aria-label="Flink SQL">
        <button type="button" role="tab" aria-selected={tab === 'export'} className={tab === 'export' ? 'on' : ''} onClick={() => setTab('export')}>
          Export
        </button>
        <button type="button" role="tab" aria-selected={tab === 'import'} className={tab === 'import' ? 'on' : ''} onClick={() => setTab('import')}>
          Import
        </button>
      </div>
      {tab === 'import' ? (
        <ImportPane />
      ) : !exported.ok ? (
        <p role="alert">Fix the pipeline's problems first: {exported.message}</p>
      ) : (
        <>
          <p className="muted">A complete script for Flink 1.19 or later: tables with watermarks, settings and one statement set. Fill in the connector placeholders before you submit it.</p>
          <SqlView sql={exported.sql} />
          {exported.warnings.length > 0 && (
            <ul className="problems-list" aria-label="Export warnings">
              {exported.warnings.map((w, i) => (
                <li key={i}>
                  <strong>{w.nodeId ?? 'pipeline'}</strong>: {w.message}
                </li>
              ))}
            </ul>
          )}
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={() => void navigator.clipboard?.writeText(exported.sql).then(() => toast('SQL copied'), () => toast('Copy failed'))}>
              Copy SQL
            </button>
            <button type="button" className="btn btn-primary" onClick={() => download(`${name.replace(/[^A-Za-z0-9_-]+/g, '_') || 'pipeline'}.sql`, exported.sql)}>
              Download .sql
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
