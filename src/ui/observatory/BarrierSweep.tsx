import { memo, useEffect, useRef } from 'react';
import { useT } from '../i18n/i18n.ts';
import { sameBy, useFrameSlice } from './frameSelectors.ts';

/** The newest checkpoint the job has started (in flight or finished), or null before the first. */
const newestCheckpoint = (f: { checkpoints: { checkpointId: number }[]; inFlightCheckpoint: number | null } | null): number | null => {
  if (!f) return null;
  const last = f.checkpoints.length ? f.checkpoints[f.checkpoints.length - 1].checkpointId : null;
  return f.inFlightCheckpoint ?? last;
};

/**
 * A barrier crossing the whole edge once for each new checkpoint. In a fast job a barrier spends
 * well under a frame on an edge, so sampled positions alone would almost never show one; this
 * sweep shows that every checkpoint's barrier passed, while sampled positions (when caught) show
 * where it actually is.
 */
function BarrierSweepView({ path }: { path: string }) {
  const t = useT();
  const id = useFrameSlice(newestCheckpoint, sameBy((x) => String(x)));
  const motion = useRef<SVGAnimateMotionElement>(null);
  const fade = useRef<SVGAnimateElement>(null);
  useEffect(() => {
    // SMIL times count from page load: start explicitly, or a late-mounted animation counts as over.
    motion.current?.beginElement();
    fade.current?.beginElement();
  }, [id]);
  if (id === null) return null;
  return (
    <g key={id} className="obs-barrier obs-barrier-sweep" data-checkpoint={id} opacity={0}>
      <rect x={-3} y={-9} width={6} height={18} rx={2} />
      <animateMotion ref={motion} dur="0.9s" begin="indefinite" fill="freeze" path={path} rotate="auto" />
      <animate ref={fade} attributeName="opacity" values="1;1;0" keyTimes="0;0.85;1" dur="0.9s" begin="indefinite" fill="freeze" />
      <title>{t('observatory.edge.barrier', { id })}</title>
    </g>
  );
}

export const BarrierSweep = memo(BarrierSweepView);
