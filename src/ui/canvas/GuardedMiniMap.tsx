import { useCallback, useEffect, useState } from 'react';
import { MiniMap, useStore as useFlowStore } from '@xyflow/react';
import type { ReactFlowState } from '@xyflow/react';
import { useStore } from '../store/createStore.ts';
import { layoutStore } from '../store/layoutStore.ts';
import { useT } from '../i18n/i18n.ts';

const W = 150;
const H = 96;
const MARGIN = 15;
const GAP = 8;
type Spot = { corner: 'bottom-right' | 'top-right'; top: number } | null;
/** The run status row's right and bottom edges in the pane (it sits top left and grows to the right). */
type Box = { right: number; bottom: number };

/** Whether a node's box on screen overlaps the minimap's box at (x0, y0). */
function covered(s: ReactFlowState, y0: number): boolean {
  const [tx, ty, k] = s.transform;
  const x0 = s.width - MARGIN - W;
  for (const n of s.nodeLookup.values()) {
    const p = n.internals.positionAbsolute;
    const nx = p.x * k + tx;
    const ny = p.y * k + ty;
    const nw = (n.measured?.width ?? 0) * k;
    const nh = (n.measured?.height ?? 0) * k;
    if (nx < x0 + W && nx + nw > x0 && ny < y0 + H && ny + nh > y0) return true;
  }
  return false;
}

/**
 * Bottom right when that corner is clear, else top right (below the run status row when the row
 * reaches that far), else nowhere: the minimap never hides a node, the status or the history scrubber.
 */
function spot(s: ReactFlowState, status: Box): Spot {
  if (!covered(s, s.height - MARGIN - H)) return { corner: 'bottom-right', top: MARGIN };
  const top = status.right > s.width - MARGIN - W ? status.bottom + GAP : MARGIN;
  if (top + H > s.height - MARGIN) return null;
  return covered(s, top) ? null : { corner: 'top-right', top };
}

/** Follows the run status row's size (it grows when a run starts and the scrubber appears). */
function useStatusBox(): Box {
  const [box, setBox] = useState<Box>({ right: 0, bottom: 0 });
  useEffect(() => {
    const row = document.querySelector<HTMLElement>('.canvas .run-status-row');
    const pane = row?.closest<HTMLElement>('.react-flow');
    if (!row || !pane) return;
    const measure = () => {
      const r = row.getBoundingClientRect();
      const p = pane.getBoundingClientRect();
      setBox((b) => (b.right === r.right - p.left && b.bottom === r.bottom - p.top ? b : { right: r.right - p.left, bottom: r.bottom - p.top }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(row);
    observer.observe(pane);
    return () => observer.disconnect();
  }, []);
  return box;
}

export function GuardedMiniMap({ nodeColor }: { nodeColor: (n: never) => string }) {
  const t = useT();
  const on = useStore(layoutStore, (l) => l.minimap);
  const status = useStatusBox();
  const where = useFlowStore(useCallback((s: ReactFlowState) => spot(s, status), [status]), (a, b) => a?.corner === b?.corner && a?.top === b?.top);
  if (!on || !where) return null;
  return <MiniMap position={where.corner} pannable zoomable nodeColor={nodeColor} nodeStrokeWidth={0} ariaLabel={t('canvas.minimap')} style={{ width: W, height: H, marginTop: where.corner === 'top-right' ? where.top : undefined }} />;
}
