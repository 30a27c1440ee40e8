import { memo, useMemo } from 'react';
import { BaseEdge, getBezierPath } from '@xyflow/react';
import { PlacedEdgeLabel } from './PlacedEdgeLabel.tsx';
import { curveAnchors } from './edgeLabels.ts';
import type { EdgeProps } from '@xyflow/react';
import { useStore } from '../store/createStore.ts';
import { problemsFor, validationStore } from '../validation/validationStore.ts';
import { runStore } from '../run/runStore.ts';
import { insertTarget } from './dropOnEdge.ts';
import type { OpFlowEdge } from './flowTypes.ts';
import { EdgeLive } from '../observatory/EdgeLive.tsx';
import { useEdgeLineageClass } from '../lineage/LineageBadges.tsx';

function OpEdgeView({ id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, selected, markerEnd }: EdgeProps<OpFlowEdge>) {
  const problems = useStore(validationStore, (v) => problemsFor(v, id));
  const running = useStore(runStore, (s) => s.snapshot?.status === 'running');
  const atMax = useStore(runStore, (s) => s.speed === null);
  const inserting = useStore(insertTarget, (x) => x === id);
  const lineage = useEdgeLineageClass(id);
  const [path] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the ends are in the path
  const anchors = useMemo(() => curveAnchors(path, [sourceX, sourceY], [targetX, targetY]), [path]);
  const cls = `op-edge${problems.length ? ' op-edge-bad' : ''}${running ? ` op-edge-running${atMax ? ' op-edge-max' : ''}` : ''}${selected ? ' op-edge-selected' : ''}${inserting ? ' op-edge-insert' : ''}${lineage}`;
  return (
    <>
      <BaseEdge id={id} path={path} className={cls} markerEnd={markerEnd} interactionWidth={16} />
      <EdgeLive id={id} path={path} from={[sourceX, sourceY]} to={[targetX, targetY]} />
      {problems.length > 0 && (
        <PlacedEdgeLabel labelId={`${id}!problem`} anchors={anchors} className="op-edge-badge" title={problems.map((p) => p.message).join('\n')}>
          ! {problems[0].message}
        </PlacedEdgeLabel>
      )}
    </>
  );
}

export const OpEdge = memo(OpEdgeView);
