import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { runStore } from '../run/runStore.ts';
import { setUi, uiStore } from '../store/uiStore.ts';
import { kindSpec } from '../../pipeline/kinds/index.ts';
import { VirtualTable } from './VirtualTable.tsx';
import type { SinkSample } from '../../worker/protocol.ts';
import { useT } from '../i18n/i18n.ts';
import { ResultChart } from '../charts/ResultChart.tsx';
import { chartPrefs, setSinkView } from '../charts/chartPrefs.ts';
import type { ResultMode } from '../charts/chartPrefs.ts';

function Changelog({ sample }: { sample: SinkSample }) {
  const t = useT();
  return (
    <div className="changelog" role="log" aria-label={t('panels.changelog')}>
      {sample.recent.length === 0 && <div className="muted pad">{t('panels.noChanges')}</div>}
      {sample.recent.map((c, i) => (
        <div key={i} className={`cl-row cl-${c.kind === '+I' || c.kind === '+U' ? 'add' : 'del'}`}>
          <span className="cl-kind mono">{c.kind}</span>
          <span className="mono">{JSON.stringify(c.row)}</span>
        </div>
      ))}
    </div>
  );
}

/**
 * What the table is as of: a sink shows only what completed checkpoints committed, while its node
 * counts everything it took in, so a paused job can show 7 rows next to a node that says "in 9".
 */
function CommitNote({ sample }: { sample: SinkSample }) {
  const t = useT();
  const c = sample.committed;
  if (!c || c.final || (c.checkpoint === null && c.pending === 0)) return null;
  const count = c.pending.toLocaleString();
  return (
    <span className="results-commit" title={t('panels.committedTitle')}>
      {' · '}
      {c.checkpoint === null ? (
        <span className="results-pending">{t('panels.nothingCommitted', { count })}</span>
      ) : (
        <>
          {t('panels.committedAt', { id: c.checkpoint })}
          {c.pending > 0 && (
            <>
              {' · '}
              <span className="results-pending">{t('panels.pending', { count })}</span>
            </>
          )}
        </>
      )}
    </span>
  );
}

/** The materialized table of each sink, live while the job runs. */
export function ResultsPanel() {
  const sinks = useStore(editorStore, (s) => s.doc.nodes.filter((n) => kindSpec(n.kind)?.group === 'sinks').map((n) => n.id).join('\n'));
  const ids = sinks ? sinks.split('\n') : [];
  const chosen = useStore(uiStore, (s) => s.resultSink);
  // By default the first materialized view: a log sink's table is rarely the answer people look for.
  const firstView = useStore(editorStore, (s) => s.doc.nodes.find((n) => n.kind === 'viewSink')?.id);
  const current = chosen && ids.includes(chosen) ? chosen : (firstView ?? ids[0]);
  const sample = useStore(runStore, (s) => (current ? s.snapshot?.sinks[current] : undefined));
  // Table, chart or changelog, remembered per sink.
  const mode = useStore(chartPrefs, (p) => (current ? p[current]?.mode : undefined) ?? 'table');
  const setMode = (m: ResultMode) => current && setSinkView(current, { mode: m });
  const t = useT();
  if (!ids.length) return <div className="panel-empty">{t('panels.noSinks')}</div>;
  return (
    <div className="results">
      <div className="results-bar">
        <div className="seg" role="tablist" aria-label={t('panels.sinks')}>
          {ids.map((id) => (
            <button key={id} type="button" role="tab" aria-selected={id === current} className={id === current ? 'on' : ''} onClick={() => setUi({ resultSink: id })}>
              {id}
            </button>
          ))}
        </div>
        <div className="seg" role="group" aria-label={t('panels.resultView')}>
          {(['table', 'chart', 'changelog'] as const).map((m) => (
            <button key={m} type="button" className={mode === m ? 'on' : ''} aria-pressed={mode === m} onClick={() => setMode(m)}>
              {t(`panels.${m}`)}
            </button>
          ))}
        </div>
        {sample && (
          <span className="muted small" aria-live="polite">
            <span>{t('panels.rowsChanges', { rows: sample.total.toLocaleString(), changes: sample.changes.toLocaleString() })}</span>
            <CommitNote sample={sample} />
          </span>
        )}
      </div>
      {!sample ? (
        <div className="panel-empty">{t('panels.runToFill')}</div>
      ) : mode === 'table' ? (
        <VirtualTable sinkId={current!} sample={sample} />
      ) : mode === 'chart' ? (
        <ResultChart sinkId={current!} sample={sample} />
      ) : (
        <Changelog sample={sample} />
      )}
    </div>
  );
}
