import { useState } from 'react';
import { kindSpec } from '../../pipeline/kinds/index.ts';
import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { validationStore } from '../validation/validationStore.ts';
import { useT } from '../i18n/i18n.ts';
import { runStore } from '../run/runStore.ts';
import { currentFrame } from './frameSelectors.ts';
import { fmtRow, fmtTime } from './format.ts';
import { observeStore, setObserve } from './observeStore.ts';
import { matchesKey, parseKeyInput, queryKeyFields } from './queryLogic.ts';
import { PanelHint } from './PanelHint.tsx';

const tone = (kind: string) => (kind === '+I' || kind === '+U' ? 'add' : 'del');

/** ksqlDB-style queries on a sink view: pull the current row for a key, or subscribe to its changelog. */
export function QueryPanel() {
  const t = useT();
  // Select the stable nodes array and filter outside: a fresh array from the selector loops useSyncExternalStore.
  const nodes = useStore(editorStore, (s) => s.doc.nodes);
  // Only a materialized view answers queries by key; a log sink only keeps lines.
  const sinks = nodes.filter((n) => n.kind === 'viewSink');
  const req = useStore(observeStore, (r) => r.query);
  const result = useStore(runStore, (s) => currentFrame(s)?.query ?? null);
  const [chosen, setChosen] = useState<string | null>(null);
  // Reopening the tab shows the key of the running query again.
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(Object.entries(observeStore.get().query?.key ?? {}).map(([k, v]) => [k, String(v)])));
  const [problems, setProblems] = useState<{ field: string; message: string }[]>([]);
  const sink = sinks.find((n) => n.id === (chosen ?? req?.sink)) ?? sinks[0];
  const input = useStore(validationStore, (v) => (sink ? Object.values(v.streams[sink.id]?.inputs ?? {})[0] : undefined));
  if (!sink) return <PanelHint text={t('observatory.hint.noSink')} />;
  const fields = queryKeyFields(sink.params as Record<string, unknown>, input);

  const run = (push: boolean, wholeView: boolean) => {
    if (wholeView) return (setProblems([]), setObserve({ query: { sink: sink.id, key: null, push } }));
    const parsed = parseKeyInput(values, fields, input?.fields ?? null);
    setProblems(parsed.problems);
    if (parsed.key) setObserve({ query: { sink: sink.id, key: parsed.key, push } });
  };
  const active = req && req.sink === sink.id && result && result.sink === sink.id ? result : null;
  // The engine streams the whole view's changelog; a key subscription shows that key's rows.
  const changes = active && req ? active.changes.filter((c) => matchesKey(c.row, req.key)) : [];
  return (
    <div className="obs-panel obs-query">
      <div className="obs-bar">
        <label className="obs-inline-field">
          {t('observatory.query.sink')}
          <select className="input input-small" value={sink.id} onChange={(e) => (setChosen(e.target.value), setObserve({ query: null }))}>
            {sinks.map((n) => (
              <option key={n.id} value={n.id}>
                {n.label ?? n.id}
              </option>
            ))}
          </select>
        </label>
        {fields.map((f) => (
          <label key={f} className="obs-inline-field mono">
            {f}
            <input className="input input-small" aria-label={t('observatory.query.keyField', { field: f })} aria-invalid={problems.some((p) => p.field === f) || undefined} value={values[f] ?? ''} onChange={(e) => setValues({ ...values, [f]: e.target.value })} onKeyDown={(e) => e.key === 'Enter' && run(false, false)} />
          </label>
        ))}
        <button type="button" className="btn btn-small btn-primary" disabled={!fields.length} onClick={() => run(false, false)}>
          {t('observatory.query.pull')}
        </button>
        <button type="button" className="btn btn-small" disabled={!fields.length} onClick={() => run(true, false)}>
          {t('observatory.query.subscribeKey')}
        </button>
        <button type="button" className="btn btn-small" onClick={() => run(true, true)}>
          {t('observatory.query.subscribeAll')}
        </button>
        {req && (
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setObserve({ query: null })}>
            {t('observatory.query.stop')}
          </button>
        )}
      </div>
      {!fields.length && <div className="muted small obs-pad">{t('observatory.query.noKey')}</div>}
      {problems.map((p) => (
        <div key={p.field} className="field-error obs-pad" role="alert">
          {t(`observatory.query.bad.${p.message}`, { field: p.field })}
        </div>
      ))}
      {!req ? (
        <PanelHint text={t('observatory.hint.query')} />
      ) : !active ? (
        <PanelHint text={t('observatory.hint.runQuery')} />
      ) : req.push ? (
        <ol className="obs-changes" role="log" aria-label={t('observatory.query.changelog')}>
          {changes.length === 0 && <li className="muted">{t('observatory.query.waiting')}</li>}
          {changes.map((c, i) => (
            <li key={i} className={`obs-change kind-${tone(c.kind)}`}>
              <b className="mono">{c.kind}</b> <span className="mono">{fmtRow(c.row)}</span> <span className="muted small" title={t('observatory.query.at')}>{fmtTime(c.at)}</span>
            </li>
          ))}
        </ol>
      ) : (
        <div className="obs-pull" aria-label={t('observatory.query.result')} role="region">
          {active.rows.length === 0 ? <div className="muted">{t('observatory.query.noRow')}</div> : active.rows.map((r, i) => <div key={i} className="mono obs-pull-row">{fmtRow(r, 400)}</div>)}
        </div>
      )}
    </div>
  );
}
