import { memo } from 'react';
import type { PaneObservation, WindowObservation } from '../../runtime/observe/types.ts';
import { useT } from '../i18n/i18n.ts';
import { fmtKey, fmtRow, fmtTime } from './format.ts';
import { layoutPanes } from './timelineScale.ts';

/** The pane's result without the window bounds and the key, which the axis and the row already show. */
const paneResult = (p: PaneObservation): Record<string, unknown> | null =>
  p.value ? Object.fromEntries(Object.entries(p.value).filter(([k, v]) => !k.startsWith('window_') && v !== p.key)) : null;

const W = 470;
const ROW = 22;
const LEFT = 70;

/** Window panes per key as bars on an event-time axis, coloured by status, with the watermark across. */
function PaneTimelineView({ win }: { win: WindowObservation }) {
  const t = useT();
  const l = layoutPanes(win.panes, win.watermark, W);
  const h = Math.max(1, l.keys.length) * ROW + 36;
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
          {l.watermarkX !== null && (
            <g className="obs-wm-line">
              <line x1={l.watermarkX} x2={l.watermarkX} y1={0} y2={h - 28} />
              <text x={l.watermarkX > W - 90 ? l.watermarkX - 4 : l.watermarkX + 4} y={h - 18} textAnchor={l.watermarkX > W - 90 ? 'end' : 'start'}>
                {t('observatory.windows.watermarkAt', { t: fmtTime(win.watermark) })}
              </text>
            </g>
          )}
          <text x={0} y={h - 6} className="obs-axis-label">
            {fmtTime(l.from)}
          </text>
          <text x={W} y={h - 6} textAnchor="end" className="obs-axis-label">
            {fmtTime(l.to)}
          </text>
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
