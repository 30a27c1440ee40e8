import type { JoinBufferRow } from '../../runtime/observe/types.ts';
import { useT } from '../i18n/i18n.ts';
import { fmtKey, fmtRow, fmtTime } from './format.ts';
import type { Row } from '../../core/types.ts';

/** The row without what its own columns already show (key and event time), so the rest fits. */
const restOf = (r: JoinBufferRow): Row => Object.fromEntries(Object.entries(r.row).filter(([, v]) => v !== r.key && v !== r.ts));

/** One side of a join's buffer: what waits there for a partner, and until when (interval joins). */
export function JoinBufferTable({ side, rows, interval }: { side: 'left' | 'right'; rows: JoinBufferRow[]; interval: boolean }) {
  const t = useT();
  const title = t(side === 'left' ? 'observatory.join.left' : 'observatory.join.right');
  return (
    <section className={`obs-buffer obs-buffer-${side}`} aria-label={title}>
      <h4 className="obs-h">
        {title} <span className="chip chip-small">{rows.length}</span>
      </h4>
      {rows.length === 0 ? (
        <div className="muted small obs-pad">{t('observatory.join.empty')}</div>
      ) : (
        <table className="obs-grid">
          <thead>
            <tr>
              <th>{t('observatory.state.key')}</th>
              <th>{t('observatory.join.eventTime')}</th>
              <th>{t('observatory.join.matches')}</th>
              {interval && <th>{t('observatory.join.canMatch')}</th>}
              {interval && <th>{t('observatory.join.evictAfter')}</th>}
              <th>{t('observatory.join.row')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={`${r.key}-${r.ts}-${i}`} className={r.matches === 0 ? 'obs-waiting' : ''}>
                <td className="mono obs-key">{fmtKey(r.key)}</td>
                <td className="mono">{fmtTime(r.ts)}</td>
                <td className="num">{r.matches}</td>
                {interval && <td className="mono">{r.range ? `${fmtTime(r.range[0])} … ${fmtTime(r.range[1])}` : '—'}</td>}
                {interval && <td className="mono">{fmtTime(r.evictAfter)}</td>}
                <td className="mono obs-row-text" title={JSON.stringify(r.row)}>
                  {fmtRow(restOf(r), 80)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
