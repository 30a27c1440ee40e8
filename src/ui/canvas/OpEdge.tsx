import { memo } from 'react';
import { BaseEdge, EdgeLabelRenderer, getBezierPath } from '@xyflow/react';
import type { EdgeProps } from '@xyflow/react';
import { useStore } from '../store/createStore.ts';
import { problemsFor, validationStore } from '../validation/validationStore.ts';
import { runStore } from '../run/runStore.ts';
import type { OpFlowEdge } from './flowTypes.ts';
import { EdgeLive } from '../observatory/EdgeLive.tsx';

function OpEdgeView({ id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, selected, markerEnd }: EdgeProps<OpFlowEdge>) {
  const problems = useStore(validationStore, (v) => problemsFor(v, id));
  const running = useStore(runStore, (s) => s.snapshot?.status === 'running');
  const atMax = useStore(runStore, (s) => s.speed === null);
  const [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  const cls = `op-edge${problems.length ? ' op-edge-bad' : ''}${running ? ` op-edge-running${atMax ? ' op-edge-max' : ''}` : ''}${selected ? ' op-edge-selected' : ''}`;
  return (
    <>
      <BaseEdge id={id} path={path} className={cls} markerEnd={markerEnd} interactionWidth={16} />
      <EdgeLive id={id} path={path} from={[sourceX, sourceY]} to={[targetX, targetY]} labelX={labelX} labelY={labelY} />
      {problems.length > 0 && (
        <EdgeLabelRenderer>
          <div className="op-edge-badge nodrag nopan" style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }} title={problems.map((p) => p.message).join('\n')}>
            ! {problems[0].message}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
}

export const OpEdge = memo(OpEdgeView);
