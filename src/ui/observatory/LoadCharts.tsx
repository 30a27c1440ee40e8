import { useMemo } from 'react';
import type uPlot from 'uplot';
import type { LoadFigures } from '../../worker/protocol.ts';
import { useStore } from '../store/createStore.ts';
import { uiStore } from '../store/uiStore.ts';
import { loadHistory, latest } from '../run/loadHistory.ts';
import type { LoadSeries } from '../run/loadHistory.ts';
import { useT } from '../i18n/i18n.ts';
import { UplotChart, themeColour } from '../charts/UplotChart.tsx';

export const LOAD_COLOURS = { busy: '#3b6cf6', backpressured: '#d93b3b', in: '#1f8a4c', out: '#b76e00' };

export const percent = (x: number): string => `${Math.round(x * 100)} %`;
export const perSec = (x: number): string => (x >= 1e6 ? `${(x / 1e6).toFixed(1)}M` : x >= 1e4 ? `${(x / 1e3).toFixed(1)}k` : String(Math.round(x)));

/** A chart with no axes: the numbers beside it carry the values; the shape shows the trend. */
function sparkOptions(lines: { stroke: string; fill?: string; label: string }[], range: 'share' | 'rate', width: number, height: number): uPlot.Options {
  return {
    width,
    height,
    ms: 1,
    legend: { show: false },
    cursor: { show: false },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    padding: [2, 1, 2, 1],
    scales: { x: { time: false }, y: range === 'share' ? { range: [0, 1] } : { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
    axes: [{ show: false }, { show: false, grid: { show: true, stroke: themeColour('--border', '#e1e5eb') } }],
    series: [{}, ...lines.map((l) => ({ label: l.label, stroke: l.stroke, fill: l.fill, width: 1.25, points: { show: false } }))],
  };
}

/** Two sparklines for one node or subtask: busy and backpressured share of time, records in and out per second. */
export function LoadSparks({ series, name }: { series: LoadSeries; name: string }) {
  const t = useT();
  const theme = useStore(uiStore, (s) => s.theme);
  const now = latest(series)!;
  // A new array on every render would redraw both charts whenever the inspector renders; the
  // series themselves change at most every quarter second.
  const shareData = useMemo<uPlot.AlignedData>(() => [series.at, series.busy, series.backpressured], [series]);
  const rateData = useMemo<uPlot.AlignedData>(() => [series.at, series.inPerSec, series.outPerSec], [series]);
  const shares = [
    { stroke: LOAD_COLOURS.busy, fill: `${LOAD_COLOURS.busy}22`, label: t('metrics.busy') },
    { stroke: LOAD_COLOURS.backpressured, fill: `${LOAD_COLOURS.backpressured}22`, label: t('metrics.backpressured') },
  ];
  const rates = [
    { stroke: LOAD_COLOURS.in, label: t('metrics.in') },
    { stroke: LOAD_COLOURS.out, label: t('metrics.out') },
  ];
  return (
    <div className="load-sparks">
      <UplotChart
        shape={`share${theme}`}
        className="spark"
        opts={(w, h) => sparkOptions(shares, 'share', w, h)}
        data={shareData}
        label={t('metrics.shareChart', { name, busy: percent(now.busy), bp: percent(now.backpressured) })}
      />
      <UplotChart
        shape={`rate${theme}`}
        className="spark"
        opts={(w, h) => sparkOptions(rates, 'rate', w, h)}
        data={rateData}
        label={t('metrics.rateChart', { name, in: perSec(now.inPerSec), out: perSec(now.outPerSec) })}
      />
    </div>
  );
}

/** The four figures, in one order with one wording and colour wherever they appear. */
export const LOAD_FIGURES = [
  { field: 'busy', colour: LOAD_COLOURS.busy, name: 'metrics.busy', title: 'metrics.busyTitle', line: 'metrics.busyN', format: percent },
  { field: 'backpressured', colour: LOAD_COLOURS.backpressured, name: 'metrics.backpressured', title: 'metrics.backpressuredTitle', line: 'metrics.backpressuredN', format: percent },
  { field: 'inPerSec', colour: LOAD_COLOURS.in, name: 'metrics.in', title: 'metrics.inTitle', line: 'metrics.inN', format: perSec },
  { field: 'outPerSec', colour: LOAD_COLOURS.out, name: 'metrics.out', title: 'metrics.outTitle', line: 'metrics.outN', format: perSec },
] as const;

/** The current figures; they are the charts' newest points. */
export function LoadNumbers({ f }: { f: LoadFigures }) {
  const t = useT();
  return (
    <span className="load-numbers">
      {LOAD_FIGURES.map((x) => (
        <span key={x.field} title={t(x.title)}>
          <i className="dot" style={{ background: x.colour }} /> {t(x.line, { n: x.format(f[x.field]) })}
        </span>
      ))}
    </span>
  );
}

/** The inspector's view of one node's load over time, per subtask when it has several. */
export function NodeLoadCharts({ id }: { id: string }) {
  const t = useT();
  const series = useStore(loadHistory, (h) => h.series[id]);
  const subs = useStore(loadHistory, (h) => h.series);
  if (!series) return <p className="muted small">{t('metrics.runToSee')}</p>;
  return (
    <div className="node-load">
      <LoadNumbers f={latest(series)!} />
      <LoadSparks series={series} name={id} />
      {Object.keys(subs)
        .filter((sid) => sid.startsWith(`${id}#`))
        .sort((a, b) => Number(a.slice(id.length + 1)) - Number(b.slice(id.length + 1)))
        .map((sid) => (
          <div key={sid} className="node-load-sub">
            <span className="mono small">{sid}</span>
            <LoadNumbers f={latest(subs[sid])!} />
            <LoadSparks series={subs[sid]} name={sid} />
          </div>
        ))}
      <p className="muted small">{t('metrics.meaning')}</p>
    </div>
  );
}
