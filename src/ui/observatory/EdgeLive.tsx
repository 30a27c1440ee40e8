import { memo, useMemo } from 'react';
import { PlacedEdgeLabel } from '../canvas/PlacedEdgeLabel.tsx';
import { curveAnchors } from '../canvas/edgeLabels.ts';
import { useT } from '../i18n/i18n.ts';
import { changelogKinds, edgeSignature, pressureBand } from './edgeGeometry.ts';
import { fmtRate, fmtTime } from './format.ts';
import { edgeObservation, sameBy, useFrameSlice } from './frameSelectors.ts';
import { BarrierSweep } from './BarrierSweep.tsx';
import { BarrierMarks } from './BarrierMarks.tsx';

interface Props {
  id: string;
  path: string;
  from: [number, number];
  to: [number, number];
}

const same = sameBy(edgeSignature);

/**
 * What flows on one edge while a job runs: rate, queue fill coloured by backpressure, watermark,
 * changelog kinds, and checkpoint barriers travelling along the curve. It subscribes to its own
 * edge only, so one edge's change re-renders one edge.
 */
function EdgeLiveView({ id, path, from, to }: Props) {
  const t = useT();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the ends are in the path
  const anchors = useMemo(() => curveAnchors(path, from, to), [path]);
  const e = useFrameSlice((f) => edgeObservation(f, id), same);
  if (!e) return null;
  const kinds = changelogKinds(e.kinds);
  const fill = Math.round(e.fill * 100);
  const wm = fmtTime(e.watermark);
  return (
    <>
      <BarrierSweep path={path} />
      <BarrierMarks path={path} from={from} to={to} barriers={e.barriers} />
      <PlacedEdgeLabel labelId={id} anchors={anchors} className={`obs-edge-label band-${pressureBand(e.fill)}`} role="group" aria-label={t('observatory.edge.label', { edge: id, rate: fmtRate(e.rate), fill, wm })}>
          <span className="obs-edge-rate">{fmtRate(e.rate)}</span>
          <span className="obs-queue" title={t('observatory.edge.queue', { queued: e.queued, capacity: e.capacity, fill })}>
            <i style={{ width: `${Math.max(3, fill)}%` }} />
          </span>
          {e.watermark !== null && <span className="obs-edge-wm">{t('observatory.edge.watermarkShort', { wm })}</span>}
          {kinds.length > 0 && (
            <span className="obs-edge-kinds" title={t('observatory.edge.kinds', { kinds: kinds.join(' ') })}>
              {kinds.map((k) => (
                <b key={k} className={k === '+I' || k === '+U' ? 'add' : 'del'}>
                  {k.replace('-', '−')}
                </b>
              ))}
            </span>
          )}
      </PlacedEdgeLabel>
    </>
  );
}

export const EdgeLive = memo(EdgeLiveView);
