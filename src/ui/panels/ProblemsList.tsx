import { useMemo } from 'react';
import { useStore } from '../store/createStore.ts';
import { pipelineWarnings } from '../validation/warnings.ts';
import { validationStore } from '../validation/validationStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { dispatch } from '../actions/registry.ts';
import { setSelection } from '../actions/docActions.ts';
import { setUi } from '../store/uiStore.ts';
import { canvasBridge } from '../canvas/canvasBridge.ts';
import type { Problem } from '../../pipeline/kindSpec.ts';
import { useT } from '../i18n/i18n.ts';

function reveal(p: Problem): void {
  if (!p.target) return;
  setUi({ centerTab: 'canvas' });
  if (p.targetType === 'edge') {
    dispatch(setSelection, { nodes: [], edges: [p.target] });
    return;
  }
  dispatch(setSelection, { nodes: [p.target], edges: [] });
  const n = canvasBridge.flow?.getNode(p.target);
  if (n) void canvasBridge.flow?.setCenter(n.position.x + (n.measured?.width ?? 200) / 2, n.position.y + (n.measured?.height ?? 80) / 2, { zoom: Math.max(canvasBridge.flow.getZoom(), 0.9), duration: 250 });
}

/** Every problem of the document; a click selects the operator or connection at fault. */
export function ProblemsList() {
  const problems = useStore(validationStore, (v) => v.problems);
  const typeProblems = useStore(validationStore, (v) => v.typeProblems);
  const empty = useStore(editorStore, (s) => s.doc.nodes.length === 0);
  const doc = useStore(editorStore, (s) => s.doc);
  const warnings = useMemo(() => pipelineWarnings(doc), [doc]);
  const all = [...problems, ...typeProblems];
  const t = useT();
  if (!all.length && empty) return <div className="panel-empty">{t('validation.emptyPipeline')}</div>;
  const warningList = warnings.length > 0 && (
    <ul className="problems" aria-label={t('validation.warnings')}>
      {warnings.map((w) => (
        <li key={w.target}>
          <button type="button" className="problem warning" onClick={() => reveal({ target: w.target, targetType: 'node', field: 'outputs', message: '', code: w.code })}>
            <span className="problem-icon" aria-hidden>
              ⓘ
            </span>
            <span className="problem-target mono">{w.target}</span>
            <span className="problem-msg">{t('validation.warn.danglingOutput', { node: w.target })}</span>
          </button>
        </li>
      ))}
    </ul>
  );
  if (!all.length)
    return (
      <>
        <div className="panel-empty ok">{t(warnings.length ? 'validation.noProblemsWarnings' : 'validation.noProblems', { n: warnings.length })}</div>
        {warningList}
      </>
    );
  return (
    <>
    <ul className="problems" aria-label={t('validation.problems')}>
      {all.map((p, i) => (
        <li key={i}>
          <button type="button" className="problem" onClick={() => reveal(p)} disabled={!p.target}>
            <span className="problem-icon" aria-hidden>
              ⚠
            </span>
            <span className="problem-target mono">{p.target ?? t('validation.pipeline')}</span>
            <span className="problem-field mono">{p.field}</span>
            <span className="problem-msg">{p.message}</span>
          </button>
        </li>
      ))}
    </ul>
    {warningList}
    </>
  );
}
