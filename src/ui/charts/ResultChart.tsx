import { useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import type { SinkSample } from '../../worker/protocol.ts';
import { liveEngine } from '../run/engineClient.ts';
import { useStore } from '../store/createStore.ts';
import { uiStore } from '../store/uiStore.ts';
import { useT } from '../i18n/i18n.ts';
import { buildChart, columnTypes, defaultSpec, validSpec, TOP_KEYS } from './seriesModel.ts';
import type { ChartData, ChartSpec } from './seriesModel.ts';
import { chartPrefs, setSinkView } from './chartPrefs.ts';
import { SERIES_COLOURS, UplotChart, themeColour } from './UplotChart.tsx';
import { ChartDataTable } from './ChartDataTable.tsx';

/** The last rows of the table a chart draws; the worker sends at most 2,000 per window. */
const CHART_ROWS = 1750;
/** The window moves in steps, so a growing table does not ask the worker again every frame. */
const WINDOW_STEP = 250;

const utc = (ms: number) => uPlot.tzDate(new Date(ms), 'Etc/UTC');

/** `current` holds the newest data: bar labels are read from it, so new data never rebuilds the chart. */
function chartOptions(current: { readonly data: ChartData }, spec: ChartSpec, timeX: boolean, width: number, height: number): uPlot.Options {
  const d = current.data;
  const axis = themeColour('--text-2', '#4a5568');
  const grid = themeColour('--border', '#e1e5eb');
  const axes: uPlot.Axis[] = [
    { stroke: axis, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } },
    { stroke: axis, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, size: 60 },
  ];
  if (spec.type === 'bar') {
    axes[0] = { ...axes[0], splits: () => current.data.xs, values: (_u, splits) => splits.map((i) => current.data.categories[i] ?? ''), grid: { show: false } };
    return {
      width,
      height,
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false, range: () => [-0.5, Math.max(0.5, current.data.xs.length - 0.5)] }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.08 : 1] } },
      axes,
      series: [{}, { label: d.series[0]?.name ?? '', stroke: SERIES_COLOURS[0], fill: `${SERIES_COLOURS[0]}cc`, paths: uPlot.paths.bars!({ size: [0.6, 64] }), points: { show: false } }],
    };
  }
  return {
    width,
    height,
    ms: 1,
    tzDate: utc,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: timeX } },
    axes,
    series: [{}, ...d.series.map((s, i) => ({ label: s.name, stroke: SERIES_COLOURS[s.folded ? 10 : i % 10], width: 1.5, dash: s.folded ? [4, 3] : undefined, spanGaps: false, points: { size: 4 } }))],
  };
}

function Picker({ label, value, options, onChange, none }: { label: string; value: string | null; options: string[]; onChange: (v: string | null) => void; none?: string }) {
  return (
    <label className="chart-pick">
      <span>{label}</span>
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value || null)}>
        {none !== undefined && <option value="">{none}</option>}
        {options.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A sink's table as a live line or bar chart; the columns to plot are the user's to choose. */
export function ResultChart({ sinkId, sample }: { sinkId: string; sample: SinkSample }) {
  const t = useT();
  const theme = useStore(uiStore, (s) => s.theme);
  const kept = useStore(chartPrefs, (p) => p[sinkId]?.spec);
  const { columns } = sample;
  // Guessed types need rows, but only the first ones: re-guess when rows first arrive, not every frame.
  const hasRows = sample.rows.length > 0;
  const firstRows = hasRows ? sample.rows : [];
  const types = useMemo(() => columnTypes(columns, sample.types, firstRows), [columns, sample.types, hasRows]); // eslint-disable-line react-hooks/exhaustive-deps
  const fallback = useMemo(() => defaultSpec(columns, types, sample.key ?? null), [columns, types, sample.key]);
  const spec = validSpec(kept, columns, fallback);
  const offset = Math.ceil(Math.max(0, sample.total - CHART_ROWS) / WINDOW_STEP) * WINDOW_STEP;

  useEffect(() => {
    const id = requestAnimationFrame(() => void liveEngine()?.setSinkWindow(sinkId, offset, CHART_ROWS + WINDOW_STEP));
    return () => cancelAnimationFrame(id);
  }, [sinkId, offset]);

  // Snapshots come 20 times a second, the table's rows at most 4: rebuild only for new rows.
  const rowsKey = sample.version ?? sample.rows;
  const data = useMemo(() => buildChart(sample.rows, spec), [rowsKey, spec]); // eslint-disable-line react-hooks/exhaustive-deps
  const current = useRef({ data });
  current.current.data = data;
  const set = (patch: Partial<ChartSpec>) => setSinkView(sinkId, { spec: { ...spec, ...patch } });
  const numeric = columns.filter((c) => types[c] === 'number' || types[c] === 'integer');
  const xCols = columns.filter((c) => types[c] === 'timestamp' || types[c] === 'number' || types[c] === 'integer');
  const timeX = spec.x !== null && types[spec.x] === 'timestamp';
  const plotted: uPlot.AlignedData = useMemo(() => [data.xs, ...data.series.map((s) => s.values)], [data]);
  // A new uPlot only when what it draws changes shape; names and bar labels are not part of it.
  const shape = [spec.type, spec.x, spec.y, timeX, theme, data.series.length, data.series.some((s) => s.folded)].join('\u0000');
  const empty = data.xs.length === 0;
  const [asTable, setAsTable] = useState(false);
  const label = t('charts.label', { sink: sinkId, y: spec.y ?? '—', type: t(spec.type === 'line' ? 'charts.line' : 'charts.bars') });

  return (
    <div className="result-chart">
      <div className="chart-controls" role="group" aria-label={t('charts.controls')}>
        <div className="seg" role="group" aria-label={t('charts.type')}>
          {(['line', 'bar'] as const).map((type) => (
            <button key={type} type="button" className={spec.type === type ? 'on' : ''} aria-pressed={spec.type === type} onClick={() => set({ type })}>
              {t(type === 'line' ? 'charts.line' : 'charts.bars')}
            </button>
          ))}
        </div>
        <Picker label={t('charts.x')} value={spec.x} options={xCols} none={t('charts.none')} onChange={(x) => set({ x })} />
        <Picker label={t('charts.y')} value={spec.y} options={numeric} onChange={(y) => set({ y })} />
        <Picker label={t(spec.type === 'line' ? 'charts.series' : 'charts.barsBy')} value={spec.series} options={columns.filter((c) => c !== spec.x && c !== spec.y)} none={t('charts.none')} onChange={(series) => set({ series })} />
        <label className="chart-pick">
          <input type="checkbox" checked={spec.foldRest} onChange={(e) => set({ foldRest: e.target.checked })} />
          <span>{t('charts.foldRest')}</span>
        </label>
        <button type="button" className={`btn btn-small${asTable ? ' on' : ''}`} aria-pressed={asTable} onClick={() => setAsTable(!asTable)}>
          {t('charts.asTable')}
        </button>
        <span className="chart-note muted small" aria-live="polite">
          {data.restKeys > 0 && (spec.foldRest ? t('charts.folded', { n: data.restKeys, top: TOP_KEYS }) : t('charts.hidden', { n: data.restKeys, top: TOP_KEYS }))}
          {offset > 0 && ` ${t('charts.lastRows', { n: sample.rows.length.toLocaleString(), total: sample.total.toLocaleString() })}`}
          {spec.type === 'bar' && spec.x && ` ${t('charts.barsLatest', { x: spec.x })}`}
        </span>
      </div>
      {asTable ? (
        <ChartDataTable data={data} spec={spec} timeX={timeX} label={t('charts.tableLabel', { sink: sinkId })} />
      ) : empty ? (
        <div className="panel-empty">{spec.type === 'line' && !spec.x ? t('charts.needX') : !spec.y ? t('charts.needY') : t('charts.noPoints')}</div>
      ) : (
        <div className="chart-body">
          <UplotChart shape={shape} opts={(w, h) => chartOptions(current.current, spec, timeX, w, h)} data={plotted} label={label} className="chart-main" />
          <ul className="chart-legend" aria-label={t('charts.legend')}>
            {(spec.type === 'line' ? data.series : []).map((s, i) => (
              <li key={s.name}>
                <span className="swatch" style={{ background: SERIES_COLOURS[s.folded ? 10 : i % 10] }} />
                {s.folded ? t('charts.other', { n: data.restKeys }) : s.name}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
