import { useEffect, useRef, useState } from 'react';
import type { editor } from 'monaco-editor';
import { useStore } from '../store/createStore.ts';
import { uiStore } from '../store/uiStore.ts';
import { setSiteTypeProblems, validationStore } from '../validation/validationStore.ts';
import { loadMonaco } from './loadMonaco.ts';
import { udfModel } from './udfModels.ts';
import type { UdfModel } from './udfModels.ts';
import { userCode } from './udfWrappers.ts';
import { diagnose, typeProblem } from './udfCheck.ts';
import type { UdfDiag } from './udfCheck.ts';
import { t as translate, useT } from '../i18n/i18n.ts';

interface Props {
  nodeId: string;
  kind: string;
  param: string;
  label: string;
  value: string;
  onChange(code: string): void;
}

const MIN_H = 96;
const MAX_H = 360;

/** Monaco on a UDF model whose hidden first and last lines carry the types (see udfModels). */
export function UdfEditor({ nodeId, kind, param, label, value, onChange }: Props) {
  const t = useT();
  const host = useRef<HTMLDivElement>(null);
  const ed = useRef<editor.IStandaloneCodeEditor | null>(null);
  const current = useRef<UdfModel | null>(null);
  const change = useRef(onChange);
  change.current = onChange;
  const latest = useRef(value);
  latest.current = value;
  const streams = useStore(validationStore, (v) => v.streams[nodeId]);
  const dark = useStore(uiStore, (s) => s.theme === 'dark');
  const [diags, setDiags] = useState<UdfDiag[] | null>(null);
  const [ready, setReady] = useState(false);
  const checkTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const recheck = () => {
    if (checkTimer.current) clearTimeout(checkTimer.current);
    checkTimer.current = setTimeout(() => {
      const u = current.current;
      if (!u) return;
      // Empty code is not used (the runtime and udfSites skip it), so it has nothing to report.
      if (!(latest.current ?? '').trim()) {
        setDiags([]);
        setSiteTypeProblems(nodeId, `params.${param}`, []);
        return;
      }
      void diagnose(u).then((d) => {
        setDiags(d);
        setSiteTypeProblems(nodeId, `params.${param}`, d.filter((x) => x.severity === 'error').map((x) => typeProblem(nodeId, param, x)));
      }).catch(() => undefined); // the editor closed mid-check, or the checker is restarting: the next edit checks again
    }, 350);
  };

  // Create the editor once per node/param.
  useEffect(() => {
    let disposed = false;
    const subs: { dispose(): void }[] = [];
    void loadMonaco().then(({ monaco, setMonacoTheme }) => {
      if (disposed || !host.current) return;
      setMonacoTheme(uiStore.get().theme === 'dark');
      const u = udfModel(monaco, { nodeId, kind, param, code: value }, validationStore.get().streams[nodeId]);
      current.current = u;
      const e = monaco.editor.create(host.current, {
        model: u.model,
        ariaLabel: label,
        minimap: { enabled: false },
        lineNumbers: (n) => String(n - (current.current?.layout.headLines ?? 0)),
        scrollBeyondLastLine: false,
        fontSize: 12.5,
        tabSize: 2,
        automaticLayout: true,
        wordWrap: 'on',
        fixedOverflowWidgets: true,
        renderLineHighlight: 'none',
        scrollbar: { alwaysConsumeMouseWheel: false },
        overviewRulerLanes: 0,
      });
      ed.current = e;
      const hide = () => {
        const c = current.current;
        if (!c) return;
        const n = c.model.getLineCount();
        (e as unknown as { setHiddenAreas(r: unknown[]): void }).setHiddenAreas([new monaco.Range(1, 1, c.layout.headLines, 1), new monaco.Range(n - c.layout.tailLines + 1, 1, n, 1)]);
      };
      const fit = () => {
        if (host.current) host.current.style.height = `${Math.min(MAX_H, Math.max(MIN_H, e.getContentHeight()))}px`;
      };
      hide();
      fit();
      subs.push(
        e.onDidContentSizeChange(fit),
        u.model.onDidChangeContent(() => {
          const c = current.current!;
          const code = userCode(c.model.getValue(), c.layout);
          if (code === null) {
            // An edit reached into the hidden lines: put them back around the last good code.
            c.model.undo();
            return;
          }
          hide();
          if (code !== latest.current) change.current(code);
          recheck();
        }),
      );
      // Select all means the user's code, never the hidden lines around it.
      subs.push(
        e.addAction({
          id: 'weir.selectUserCode',
          label: translate('code.selectAll'),
          keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyA],
          run: () => {
            const c = current.current!;
            const last = c.model.getLineCount() - c.layout.tailLines;
            e.setSelection(new monaco.Range(c.layout.headLines + 1, 1, last, c.model.getLineMaxColumn(last)));
          },
        }),
      );
      e.setPosition({ lineNumber: u.layout.headLines + 1, column: 1 });
      setReady(true);
      recheck();
    });
    return () => {
      disposed = true;
      subs.forEach((s) => s.dispose());
      ed.current?.dispose();
      ed.current = null;
      if (checkTimer.current) clearTimeout(checkTimer.current);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nodeId, kind, param]);

  // Outside edits (undo, JSON tab) and a changed input type rebuild the model text.
  useEffect(() => {
    if (!current.current || !ready) return;
    void loadMonaco().then(({ monaco }) => {
      const before = current.current?.model.getValue();
      const pos = ed.current?.getPosition();
      current.current = udfModel(monaco, { nodeId, kind, param, code: value }, streams);
      if (current.current.model.getValue() === before) return;
      if (pos) ed.current?.setPosition(pos);
      recheck();
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value, streams, ready]);

  useEffect(() => {
    if (ready) void loadMonaco().then((m) => m.setMonacoTheme(dark));
  }, [dark, ready]);

  const errors = diags?.filter((d) => d.severity === 'error') ?? [];
  return (
    <div className="udf">
      <div ref={host} className="udf-editor" style={{ height: MIN_H }} data-testid={`udf-${nodeId}-${param}`}>
        {!ready && <pre className="udf-fallback">{value}</pre>}
      </div>
      <div className={`udf-diags${errors.length ? ' has-errors' : ''}`} role="status" aria-label={t('code.diagnostics', { label })}>
        {diags === null ? t('code.checking') : errors.length === 0 ? t('code.noErrors') : null}
        {errors.map((d, i) => (
          <div key={i} className="udf-diag">
            <span className="udf-diag-pos">
              {d.line}:{d.column}
            </span>{' '}
            {d.message}
          </div>
        ))}
      </div>
    </div>
  );
}
