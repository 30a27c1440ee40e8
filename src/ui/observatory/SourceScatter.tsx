import { memo } from 'react';
import type { SourceTimeSeries } from '../../runtime/observe/types.ts';
import { useT } from '../i18n/i18n.ts';
import { scatterPoints } from './timelineScale.ts';

const W = 220;
const H = 110;

/**
 * Event time (up) against processing time (right) for one source: a perfectly ordered stream is a
 * rising line; points below it arrived out of order, red ones arrived after the watermark (late).
 */
function SourceScatterView({ series }: { series: SourceTimeSeries }) {
  const t = useT();
  const pts = scatterPoints(series.points, W, H);
  const late = series.points.filter((p) => p.late).length;
  return (
    <figure className="obs-figure obs-scatter">
      <svg viewBox={`-6 -6 ${W + 12} ${H + 12}`} role="img" aria-label={t('observatory.windows.scatterLabel', { source: series.node, n: series.points.length, late })}>
        <rect x={0} y={0} width={W} height={H} className="obs-plot-bg" />
        {pts.map(({ p, x, y }, i) => (
          <circle key={i} cx={x} cy={y} r={p.late ? 3.5 : 2.5} className={p.late ? 'obs-dot-late' : 'obs-dot'} />
        ))}
      </svg>
      <figcaption className="small">
        <strong>{series.node}</strong> · {t('observatory.windows.scatterAxes')}
        {late > 0 && <span className="obs-late-note"> · {t('observatory.windows.latePoints', { n: late })}</span>}
      </figcaption>
    </figure>
  );
}

/** Memoised: while a run is held (heldWhileRunning.ts) the same observation comes back, and nothing redraws. */
export const SourceScatter = memo(SourceScatterView);
