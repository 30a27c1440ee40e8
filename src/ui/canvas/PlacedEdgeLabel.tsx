import { useEffect, useRef } from 'react';
import type { HTMLAttributes, ReactNode } from 'react';
import { EdgeLabelRenderer, useStoreApi } from '@xyflow/react';
import { labelSize, scheduleLabelLayout, setNodeBoxes, usePlacedLabel } from './edgeLabels.ts';
import { nearestOnRect } from './edgeLabelLayout.ts';

interface Props extends HTMLAttributes<HTMLDivElement> {
  labelId: string;
  anchors: [number, number][];
  children: ReactNode;
}

/**
 * An edge label placed by the canvas-wide label layout, with a leader line back to its curve when
 * it had to move off it. Rendered inside the edge's SVG group (the line) and the label layer (the box).
 */
export function PlacedEdgeLabel({ labelId, anchors, children, className, style, ...rest }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const p = usePlacedLabel(labelId, anchors, ref);
  const [x, y] = p ? [p.x, p.y] : anchors[0];
  const { w, h } = labelSize(labelId);
  const end = p?.displaced ? nearestOnRect({ x: x - w / 2, y: y - h / 2, w, h }, p.anchor) : null;
  return (
    <>
      {p && end && <path className="edge-leader" d={`M${p.anchor[0]},${p.anchor[1]} L${end[0]},${end[1]}`} />}
      <EdgeLabelRenderer>
        <div ref={ref} className={`${className ?? ''} nodrag nopan`} data-placement={p ? (p.free ? 'free' : 'crowded') : 'pending'} data-displaced={end ? '' : undefined} style={{ ...style, transform: `translate(-50%, -50%) translate(${x}px, ${y}px)` }} {...rest}>
          {children}
        </div>
      </EdgeLabelRenderer>
    </>
  );
}

/** Feeds the label layout with the node boxes; lives inside <ReactFlow>. */
export function EdgeLabelPlanner() {
  const api = useStoreApi();
  useEffect(() => {
    setNodeBoxes(() =>
      [...api.getState().nodeLookup.values()].map((n) => ({
        x: n.internals.positionAbsolute.x,
        y: n.internals.positionAbsolute.y,
        w: n.measured?.width ?? n.width ?? 0,
        h: n.measured?.height ?? n.height ?? 0,
      })),
    );
    let last = api.getState().nodes;
    return api.subscribe((s) => {
      if (s.nodes === last) return;
      last = s.nodes;
      scheduleLabelLayout();
    });
  }, [api]);
  return null;
}
