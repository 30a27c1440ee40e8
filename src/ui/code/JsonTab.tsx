import { useEffect, useRef, useState } from 'react';
import type { editor } from 'monaco-editor';
import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { uiStore } from '../store/uiStore.ts';
import { dispatch } from '../actions/registry.ts';
import { replaceDocument } from '../actions/docActions.ts';
import { readDocument } from '../projects/fileIO.ts';
import { loadMonaco } from './loadMonaco.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';
import { EditorLoading } from './EditorLoading.tsx';
import { useT } from '../i18n/i18n.ts';

const pretty = (d: PipelineDocument): string => `${JSON.stringify(d, null, 2)}\n`;

/**
 * The live document as JSON. Valid edits replace the document (one undo step per burst of
 * typing); text that is not JSON, or not a pipeline, is reported and leaves the canvas alone.
 */
export function JsonTab() {
  const host = useRef<HTMLDivElement>(null);
  const ed = useRef<editor.IStandaloneCodeEditor | null>(null);
  const applied = useRef<PipelineDocument | null>(null);
  const doc = useStore(editorStore, (s) => s.doc);
  const dark = useStore(uiStore, (s) => s.theme === 'dark');
  // The status keeps a message key, so a language switch re-renders it in the new language.
  const [status, setStatus] = useState<{ ok: boolean; key: string; message?: string }>({ ok: true, key: 'code.inSync' });
  const t = useT();
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let disposed = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const subs: { dispose(): void }[] = [];
    void loadMonaco().then(({ monaco, setMonacoTheme, CODE_VIEW_OPTIONS }) => {
      if (disposed || !host.current) return;
      setMonacoTheme(uiStore.get().theme === 'dark');
      const uri = monaco.Uri.parse('file:///pipeline.weir.json');
      const model = monaco.editor.getModel(uri) ?? monaco.editor.createModel(pretty(editorStore.get().doc), 'json', uri);
      model.setValue(pretty(editorStore.get().doc));
      const e = monaco.editor.create(host.current, { ...CODE_VIEW_OPTIONS, model, ariaLabel: t('code.jsonEditor') });
      ed.current = e;
      setReady(true);
      applied.current = editorStore.get().doc;
      subs.push(
        model.onDidChangeContent((ev) => {
          if (ev.isFlush) return;
          if (timer) clearTimeout(timer);
          timer = setTimeout(() => {
            const r = readDocument(model.getValue());
            if (!r.ok) return setStatus({ ok: false, key: 'code.notApplied', message: r.message });
            applied.current = r.doc;
            dispatch(replaceDocument, r.doc);
            setStatus({ ok: true, key: 'code.applied' });
          }, 300);
        }),
      );
    });
    return () => {
      disposed = true;
      if (timer) clearTimeout(timer);
      subs.forEach((s) => s.dispose());
      ed.current?.dispose();
      ed.current = null;
    };
  }, []);

  // Canvas edits, undo and redo flow into the text unless they are this tab's own edit.
  useEffect(() => {
    const e = ed.current;
    if (!e || doc === applied.current) return;
    applied.current = doc;
    const model = e.getModel();
    if (model && model.getValue() !== pretty(doc)) {
      const pos = e.getPosition();
      model.setValue(pretty(doc));
      if (pos) e.setPosition(pos);
      setStatus({ ok: true, key: 'code.inSync' });
    }
  }, [doc]);

  useEffect(() => void loadMonaco().then((m) => m.setMonacoTheme(dark)), [dark]);

  return (
    <div className="json-tab">
      <div ref={host} className="json-editor" />
      {!ready && <EditorLoading />}
      <div className={`json-status ${status.ok ? 'ok' : 'bad'}`} role="status" aria-label={t('code.jsonStatus')}>
        {status.ok ? '✓ ' : '✕ '}
        {t(status.key, { message: status.message ?? '' })}
      </div>
    </div>
  );
}
