import type { ChartData, ChartSpec } from './seriesModel.ts';
import { useT } from '../i18n/i18n.ts';

/** Rows of the table: the newest x values (the newest bars' keys), since those change while the job runs. */
const MAX_ROWS = 50;

const xText = (x: number, timeX: boolean) => (timeX ? new Date(x).toISOString().replace('T', ' ').replace('.000Z', '').replace('Z', '') : String(x));
const valueText = (v: number | null) => (v === null ? '—' : String(Number(v.toPrecision(12))));

/** What the chart draws, as a table: for screen readers and for reading exact values. */
export function ChartDataTable({ data, spec, timeX, label }: { data: ChartData; spec: ChartSpec; timeX: boolean; label: string }) {
  const t = useT();
  if (data.xs.length === 0) return <div className="panel-empty">{t('charts.noPoints')}</div>;
  const bars = spec.type === 'bar';
  const first = Math.max(0, data.xs.length - MAX_ROWS);
  return (
    <div className="chart-table">
      <table aria-label={label}>
        <thead>
          <tr>
            <th scope="col">{bars ? (spec.series ?? spec.y) : spec.x}</th>
            {data.series.map((s) => (
              <th key={s.name} scope="col">
                {s.folded ? t('charts.other', { n: data.restKeys }) : s.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.xs.slice(first).map((x, i) => (
            <tr key={x}>
              <th scope="row">{bars ? data.categories[first + i] : xText(x, timeX)}</th>
              {data.series.map((s) => (
                <td key={s.name} className="num">
                  {valueText(s.values[first + i])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
