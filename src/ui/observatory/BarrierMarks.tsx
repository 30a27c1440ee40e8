import { useT } from '../i18n/i18n.ts';
import { pointOnEdge } from './edgeGeometry.ts';

interface Props {
  path: string;
  from: [number, number];
  to: [number, number];
  barriers: { checkpointId: number; progress: number }[];
}

/**
 * The barriers queued on one edge where they are. With parallelism an edge has a channel per pair
 * of subtasks, so one checkpoint's barrier can sit on several channels at once: a mark per channel,
 * keyed by its place in the list, not by the checkpoint.
 */
export function BarrierMarks({ path, from, to, barriers }: Props) {
  const t = useT();
  return (
    <>
      {barriers.map((b, i) => {
        const [x, y] = pointOnEdge(path, b.progress, from, to);
        return (
          <g key={i} className="obs-barrier" style={{ transform: `translate(${x}px, ${y}px)` }} data-checkpoint={b.checkpointId}>
            <rect x={-3} y={-9} width={6} height={18} rx={2} />
            <title>{t('observatory.edge.barrier', { id: b.checkpointId })}</title>
          </g>
        );
      })}
    </>
  );
}
