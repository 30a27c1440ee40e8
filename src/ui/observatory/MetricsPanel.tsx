import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { loadHistory, latest } from '../run/loadHistory.ts';
import { useT } from '../i18n/i18n.ts';
import { LOAD_COLOURS, LoadSparks, percent, perSec } from './LoadCharts.tsx';

/**
 * Every operator's load over the last two minutes, as the Flink web UI shows it: busy and
 * backpressured share of time, records in and out per second. The numbers are the charts'
 * newest points; the table reads the same to a screen reader.
 */
export function MetricsPanel() {
  const t = useT();
  const nodes = useStore(editorStore, (s) => s.doc.nodes.map((n) => `${n.id}\u0000${n.label ?? n.id}\u0000${n.parallelism ?? s.doc.settings?.parallelism ?? 1}`).join('\n'));
  const series = useStore(loadHistory, (h) => h.series);
  const rows = nodes
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\u0000'))
    .flatMap(([id, label, p]) => [{ id, label, sub: false }, ...(Number(p) > 1 ? Array.from({ length: Number(p) }, (_, i) => ({ id: `${id}#${i}`, label: `#${i}`, sub: true })) : [])])
    .filter((r) => series[r.id]);
  if (rows.length === 0) return <div className="panel-empty">{t('metrics.runToSee')}</div>;
  return (
    <div className="metrics-panel">
      <table className="metrics-table" aria-label={t('metrics.tableLabel')}>
        <thead>
          <tr>
            <th scope="col">{t('metrics.operator')}</th>
            <th scope="col" title={t('metrics.busyTitle')}>
              <i className="dot" style={{ background: LOAD_COLOURS.busy }} /> {t('metrics.busy')}
            </th>
            <th scope="col" title={t('metrics.backpressuredTitle')}>
              <i className="dot" style={{ background: LOAD_COLOURS.backpressured }} /> {t('metrics.backpressured')}
            </th>
            <th scope="col" title={t('metrics.inTitle')}>
              <i className="dot" style={{ background: LOAD_COLOURS.in }} /> {t('metrics.in')}
            </th>
            <th scope="col" title={t('metrics.outTitle')}>
              <i className="dot" style={{ background: LOAD_COLOURS.out }} /> {t('metrics.out')}
            </th>
            <th scope="col">{t('metrics.overTime')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const f = latest(series[r.id])!;
            return (
              <tr key={r.id} className={r.sub ? 'sub' : ''}>
                <th scope="row" title={r.id}>
                  {r.label}
                </th>
                <td className="num">{percent(f.busy)}</td>
                <td className={`num${f.backpressured >= 0.5 ? ' hot' : ''}`}>{percent(f.backpressured)}</td>
                <td className="num">{perSec(f.inPerSec)}</td>
                <td className="num">{perSec(f.outPerSec)}</td>
                <td className="sparks-cell">
                  <LoadSparks series={series[r.id]} name={r.id} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="muted small pad">{t('metrics.meaning')}</p>
    </div>
  );
}
