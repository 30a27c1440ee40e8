import { useEffect, useRef } from 'react';
import { useStore } from '../store/createStore.ts';
import { runStore } from '../run/runStore.ts';
import { dispatch } from '../actions/registry.ts';
import { setSelection } from '../actions/docActions.ts';
import { useT } from '../i18n/i18n.ts';

const SHOWN = 400;

/** Runtime messages: starts, checkpoints, restarts, errors and dead letters with their record. */
export function LogPanel() {
  const log = useStore(runStore, (s) => s.log);
  const end = useRef<HTMLDivElement>(null);
  const t = useT();
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'nearest' });
  }, [log]);
  if (!log.length) return <div className="panel-empty">{t('panels.logEmpty')}</div>;
  return (
    <div className="log" role="log" aria-label={t('panels.log')}>
      {log.slice(-SHOWN).map((l) => (
        <div key={l.seq} className={`log-line log-${l.level}`}>
          <span className="log-level">{t(`panels.level.${l.level}`)}</span>
          {l.node ? (
            <button type="button" className="log-node mono" onClick={() => dispatch(setSelection, { nodes: [l.node!], edges: [] })}>
              {l.node}
            </button>
          ) : (
            <span className="log-node" />
          )}
          <span className="log-msg">{l.message}</span>
          {l.record && <code className="log-record">{l.record}</code>}
        </div>
      ))}
      <div ref={end} />
    </div>
  );
}
