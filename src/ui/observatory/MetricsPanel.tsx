import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { loadHistory, latest } from '../run/loadHistory.ts';
import { useT } from '../i18n/i18n.ts';
import { LOAD_FIGURES, LoadSparks } from './LoadCharts.tsx';

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
            {LOAD_FIGURES.map((x) => (
              <th key={x.field} scope="col" title={t(x.title)}>
                <i className="dot" style={{ background: x.colour }} /> {t(x.name)}
              </th>
            ))}
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
                {LOAD_FIGURES.map((x) => (
                  <td key={x.field} className={`num${x.field === 'backpressured' && f.backpressured >= 0.5 ? ' hot' : ''}`}>
                    {x.format(f[x.field])}
                  </td>
                ))}
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
