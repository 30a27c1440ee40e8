import { memo } from 'react';
import type { PaneObservation, WindowObservation } from '../../runtime/observe/types.ts';
import { useT } from '../i18n/i18n.ts';
import { fmtKey, fmtRow, fmtTime, watermarkText } from './format.ts';
import { layoutPanes, timeTicks } from './timelineScale.ts';

/** The pane's result without the window bounds and the key, which the axis and the row already show. */
const paneResult = (p: PaneObservation): Record<string, unknown> | null =>
  p.value ? Object.fromEntries(Object.entries(p.value).filter(([k, v]) => !k.startsWith('window_') && v !== p.key)) : null;

const W = 470;
const ROW = 22;
const LEFT = 70;

/** Window panes per key as bars on an event-time axis, coloured by status, with the watermark across. */
function PaneTimelineView({ win }: { win: WindowObservation }) {
  const t = useT();
  const l = layoutPanes(win.panes, win.watermarkEnded ? Infinity : win.watermark, W);
  const axisY = Math.max(1, l.keys.length) * ROW + 2;
  const h = axisY + 44;
  const ticks = timeTicks(l.from, l.to, W);
  const wmRight = l.watermarkX !== null && l.watermarkX > W - 110;
  return (
    <figure className="obs-figure">
      <svg className="obs-timeline" viewBox={`0 0 ${W + LEFT + 10} ${h}`} role="img" aria-label={t('observatory.windows.timelineLabel', { n: win.panes.length })}>
        {l.keys.map((k, i) => (
          <text key={String(k)} x={LEFT - 8} y={i * ROW + 15} textAnchor="end" className="obs-axis-label">
            {fmtKey(k)}
          </text>
        ))}
        <g transform={`translate(${LEFT},0)`}>
          {l.bars.map(({ pane, row, x, width }) => (
            <g key={`${row}-${pane.start}-${pane.end}`} className={`obs-pane obs-pane-${pane.status}`} data-status={pane.status}>
              <rect x={x} y={row * ROW + 3} width={width} height={ROW - 6} rx={3} />
              {width > 40 && (
                <text x={x + 4} y={row * ROW + 15} className="obs-pane-text">
                  {paneResult(pane) ? fmtRow(paneResult(pane), Math.floor(width / 6)) : t('observatory.windows.rows', { n: pane.rows })}
                </text>
              )}
              <title>{`${fmtKey(pane.key)} [${fmtTime(pane.start)}, ${fmtTime(pane.end)}) · ${t(`observatory.windows.status.${pane.status}`)} · ${t('observatory.windows.rows', { n: pane.rows })}${pane.value ? ` · ${fmtRow(pane.value)}` : ''}`}</title>
            </g>
          ))}
          <g className="obs-axis" aria-label={t('observatory.windows.axis')}>
            {ticks.map((k) => (
              <g key={k.t} className="obs-tick" transform={`translate(${k.x},0)`}>
                <line className="obs-grid" y1={0} y2={axisY} />
                <line y1={axisY} y2={axisY + 4} />
                <text y={axisY + 15} textAnchor={k.x < 20 ? 'start' : k.x > W - 20 ? 'end' : 'middle'} className="obs-axis-label">
                  {k.label}
                </text>
              </g>
            ))}
            <line className="obs-axis-line" x1={0} x2={W} y1={axisY} y2={axisY} />
            <text x={W} y={h - 2} textAnchor="end" className="obs-axis-label obs-axis-title">
              {t('observatory.windows.eventTime')}
            </text>
          </g>
          {l.watermarkX !== null && (
            <g className={`obs-wm-line${l.watermarkOff ? ' obs-wm-off' : ''}`} data-watermark={win.watermarkEnded ? 'end' : (win.watermark ?? undefined)}>
              <line x1={l.watermarkX} x2={l.watermarkX} y1={0} y2={axisY} />
              <path className="obs-wm-marker" d={`M${l.watermarkX},${axisY} l-5,9 h10 z`} />
              <text x={wmRight ? l.watermarkX - 7 : l.watermarkX + 7} y={axisY + 28} textAnchor={wmRight ? 'end' : 'start'}>
                {l.watermarkOff === 'before' ? '← ' : ''}
                {watermarkText(t, win)}
                {l.watermarkOff === 'after' ? ' →' : ''}
              </text>
            </g>
          )}
        </g>
      </svg>
      <figcaption className="obs-legend">
        {(['pending', 'fired', 'purged'] as const).map((s) => (
          <span key={s} className={`obs-legend-item obs-pane-${s}`}>
            <i /> {t(`observatory.windows.status.${s}`)}
          </span>
        ))}
        {l.hiddenKeys > 0 && <span className="muted">{t('observatory.windows.moreKeys', { n: l.hiddenKeys })}</span>}
      </figcaption>
    </figure>
  );
}

/** Memoised: while a run is held (heldWhileRunning.ts) the same observation comes back, and nothing redraws. */
export const PaneTimeline = memo(PaneTimelineView);
