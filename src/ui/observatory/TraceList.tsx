import { memo } from 'react';
import type { TraceEntry } from '../../runtime/observe/types.ts';
import { useT } from '../i18n/i18n.ts';
import { fmtRow } from './format.ts';

const tone = (kind: string) => (kind === '+I' || kind === '+U' ? 'add' : 'del');

/**
 * An entry gains hops while its record travels downstream, and every frame brings fresh objects
 * (structured clones): same seq and the same hops and outputs count means nothing to redraw.
 */
export const sameTraceEntry = (a: { e: TraceEntry }, b: { e: TraceEntry }): boolean =>
  a.e === b.e ||
  (a.e.seq === b.e.seq &&
    a.e.hops.length === b.e.hops.length &&
    a.e.hops.every((h, i) => h.emitted.length === b.e.hops[i].emitted.length && h.stateChanged === b.e.hops[i].stateChanged));

const TraceEntryView = memo(function TraceEntryView({ e }: { e: TraceEntry }) {
  const t = useT();
  return (
    <li className="obs-trace-entry">
      <div className="obs-trace-src">
        <span className="muted mono">#{e.seq}</span> <strong>{e.source}</strong> <span className="mono">{fmtRow(e.row, 90)}</span>
      </div>
      <ol className="obs-hops">
        {e.hops.map((h, i) => (
          <li key={i} className="obs-hop">
            <span className="obs-hop-node mono">
              → {h.node}#{h.subtask}
            </span>
            {h.stateChanged && <span className="chip chip-small obs-state-chip">{t('observatory.trace.stateChanged')}</span>}
            {h.emitted.length === 0 && <span className="muted small">{t('observatory.trace.nothingEmitted')}</span>}
            {h.emitted.map((o, j) => (
              <span key={j} className={`obs-emit kind-${tone(o.kind)} mono`} title={o.port}>
                <b>{o.kind}</b> {fmtRow(o.row, 60)}
              </span>
            ))}
          </li>
        ))}
      </ol>
    </li>
  );
}, sameTraceEntry);

/** The last records through the graph, newest first, one memoised entry per traced record. */
export const TraceList = memo(function TraceList({ trace }: { trace: TraceEntry[] }) {
  const t = useT();
  return (
    <ol className="obs-trace" aria-label={t('observatory.trace.title')}>
      {[...trace].reverse().map((e) => (
        <TraceEntryView key={e.seq} e={e} />
      ))}
    </ol>
  );
});
