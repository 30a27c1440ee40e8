import { useEffect, useMemo, useRef, useState } from 'react';
import type { editor } from 'monaco-editor';
import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { uiStore } from '../store/uiStore.ts';
import { setSqlDraft, sqlStore } from '../store/sqlStore.ts';
import { originSpans } from '../../pipeline/origin.ts';
import { dispatch } from '../actions/registry.ts';
import { replaceDocument, setSelection } from '../actions/docActions.ts';
import { exportFlinkSql } from '../../export/flinkSql/index.ts';
import { importFlinkSqlLaidOut } from '../../import/flinkSql/index.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';
import { loadMonaco } from './loadMonaco.ts';
import { EditorLoading } from './EditorLoading.tsx';
import { checkSql } from './sqlCheck.ts';
import type { SqlAnalysis } from './sqlAnalysis.ts';
import { setSqlCatalog } from './sqlLanguage.ts';
import { problemText, spanAt, spanRange, toMarkers } from './sqlSpans.ts';
import { fitView } from '../canvas/canvasBridge.ts';
import { useT } from '../i18n/i18n.ts';
import { addLineageAction } from '../lineage/sqlLineageAction.ts';

const URI = 'file:///pipeline.sql';

/** The last check, so that coming back to the tab shows its result at once (the model keeps its markers). */
let lastCheck: { text: string; analysis: SqlAnalysis } | null = null;

/** The script the tab shows for a document: the one it was planned from while it still holds, else the exporter's. */
function scriptFor(doc: PipelineDocument): { text: string; error?: string } {
  if (doc.origin) return { text: doc.origin.sql };
  if (doc.nodes.length === 0) return { text: '' };
  try {
    return { text: exportFlinkSql(doc).sql };
  } catch (e) {
    return { text: '', error: (e as Error).message };
  }
}

/**
 * The pipeline as Flink SQL. Edits are checked as you type (problems underlined, in a worker);
 * Apply replaces the canvas in one undoable step. After Apply, nodes and statements select each other.
 */
export function SqlTab() {
  const host = useRef<HTMLDivElement>(null);
  const ed = useRef<editor.IStandaloneCodeEditor | null>(null);
  const check = useRef<(text: string) => void>(() => {});
  /** The text the last check asked for: an edit is checked once, by the edit's handler, not again by the render it causes. */
  const asked = useRef<string | null>(null);
  const doc = useStore(editorStore, (s) => s.doc);
  const selected = useStore(editorStore, (s) => s.selection.nodes);
  const draft = useStore(sqlStore, (s) => s.draft);
  const dark = useStore(uiStore, (s) => s.theme === 'dark');
  const [ready, setReady] = useState(false);
  const [analysis, setAnalysis] = useState<SqlAnalysis | null>(null);
  const [outcome, setOutcome] = useState<{ key: string; message?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const t = useT();
  const fromCanvas = useMemo(() => (draft === null ? scriptFor(doc) : null), [doc, draft]);
  const text = draft ?? fromCanvas?.text ?? '';
  // Spans link nodes and clauses only while the text on screen is the document's, unedited: the
  // document's own spans for the script it came from, else the spans of the exported script's check.
  const linked = useMemo(() => {
    if (draft !== null) return null;
    if (doc.origin) return originSpans(doc);
    if (!analysis || analysis.text !== text) return null;
    const ids = new Set(doc.nodes.map((n) => n.id));
    return Object.fromEntries(Object.entries(analysis.spans).filter(([id]) => ids.has(id)));
  }, [doc, draft, analysis, text]);
  const linkedRef = useRef(linked);
  linkedRef.current = linked;

  useEffect(() => {
    let disposed = false;
    const subs: { dispose(): void }[] = [];
    void loadMonaco().then(({ monaco, setMonacoTheme, CODE_VIEW_OPTIONS }) => {
      if (disposed || !host.current) return;
      setMonacoTheme(uiStore.get().theme === 'dark');
      const uri = monaco.Uri.parse(URI);
      const model = monaco.editor.getModel(uri) ?? monaco.editor.createModel('', 'sql', uri);
      const e = monaco.editor.create(host.current, { ...CODE_VIEW_OPTIONS, model, ariaLabel: t('code.sqlEditor'), wordWrap: 'on' });
      ed.current = e;
      // No debounce: each edit goes to the planner at once. While it plans, only the newest text
      // waits (checkSql), so a burst of keys (a paste, an IME, fast typing) is planned as one text.
      check.current = (sql: string) => {
        setAnalysis(null);
        asked.current = sql;
        const version = model.getVersionId();
        void checkSql(sql).then((a) => {
          if (!a || disposed || model.getVersionId() !== version) return;
          monaco.editor.setModelMarkers(model, 'flink-sql', toMarkers(model, a.problems, monaco.MarkerSeverity));
          setSqlCatalog(uri.toString(), a.catalog);
          lastCheck = { text: sql, analysis: a };
          setAnalysis(a);
        });
      };
      subs.push(
        model.onDidChangeContent((ev) => {
          if (ev.isFlush) return;
          setSqlDraft(model.getValue());
          setOutcome(null);
          check.current(model.getValue());
        }),
        e.onDidChangeCursorPosition((ev) => {
          if (ev.source !== 'mouse' && ev.source !== 'keyboard') return;
          const id = linkedRef.current && spanAt(linkedRef.current, ev.position.lineNumber, ev.position.column);
          const sel = editorStore.get().selection;
          if (id && !(sel.nodes.length === 1 && sel.nodes[0] === id)) dispatch(setSelection, { nodes: [id], edges: [] });
        }),
      );
      subs.push(addLineageAction(monaco, e, () => linkedRef.current));
      setReady(true);
    });
    return () => {
      disposed = true;
      subs.forEach((s) => s.dispose());
      ed.current?.dispose();
      ed.current = null;
    };
  }, []);

  // The canvas, an Apply, an undo or a paste changed what the tab should show.
  useEffect(() => {
    const model = ed.current?.getModel();
    if (!ready || !model) return;
    if (model.getValue() !== text) {
      model.setValue(text);
      check.current(text);
    } else if (!analysis) {
      if (lastCheck?.text === text) setAnalysis(lastCheck.analysis);
      else if (asked.current !== text) check.current(text);
    }
  }, [ready, text]);

  // The selected nodes' statements, highlighted and scrolled into view.
  useEffect(() => {
    const e = ed.current;
    if (!ready || !e) return;
    const ranges = linked ? selected.flatMap((id) => (linked[id] ? [spanRange(linked[id])] : [])) : [];
    const decorations = e.createDecorationsCollection(ranges.map((range) => ({ range, options: { className: 'sql-span-hl', overviewRuler: { color: '#3b82f680', position: 4 } } })));
    if (ranges[0]) e.revealRangeInCenterIfOutsideViewport(ranges[0]);
    return () => decorations.clear();
  }, [ready, selected, linked]);

  useEffect(() => void loadMonaco().then((m) => m.setMonacoTheme(dark)), [dark]);

  const errors = analysis?.problems.filter((p) => p.severity === 'error') ?? [];
  const warnings = (analysis?.problems.length ?? 0) - errors.length;
  const blocked = !text.trim() ? t('code.sqlEmpty') : !analysis ? t('code.sqlChecking') : errors.length ? t('code.sqlHasErrors', { n: errors.length, line: errors[0].line, message: problemText(errors[0]) }) : null;
  const apply = async () => {
    setBusy(true);
    try {
      const r = await importFlinkSqlLaidOut(text);
      if (!r.ok) return setOutcome({ key: 'code.sqlNotApplied', message: `${r.errors[0].line}:${r.errors[0].column} ${r.errors[0].message}` });
      // The document keeps the script and each node's span in it (`origin`).
      dispatch(replaceDocument, r.doc);
      setSqlDraft(null);
      setOutcome({ key: 'code.sqlApplied' });
      // A new pipeline: show all of it, as opening a document does.
      setTimeout(fitView, 60);
    } finally {
      setBusy(false);
    }
  };
  const status = outcome ?? (fromCanvas?.error ? { key: 'code.sqlExportFailed', message: fromCanvas.error } : blocked ? null : { key: warnings ? 'code.sqlReadyWarnings' : draft === null ? 'code.sqlFromCanvas' : 'code.sqlReady' });
  const bad = outcome?.key === 'code.sqlNotApplied' || !!fromCanvas?.error || errors.length > 0;

  return (
    <div className="json-tab sql-tab">
      <div className="sql-bar">
        <button type="button" className="btn btn-primary" disabled={!!blocked || busy} title={blocked ?? t('code.sqlApplyTitle')} onClick={() => void apply()}>
          {t('code.sqlApply')}
        </button>
        {blocked && <span className="sql-bar-reason">{blocked}</span>}
      </div>
      <div ref={host} className="json-editor" />
      {!ready && <EditorLoading />}
      <div className={`json-status ${bad ? 'bad' : 'ok'}`} role="status" aria-label={t('code.sqlStatus')}>
        {status ? `${bad ? '✕' : '✓'} ${t(status.key, { message: status.message ?? '', n: warnings })}` : blocked}
      </div>
    </div>
  );
}
