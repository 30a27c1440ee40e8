import { MiniMap, useStore as useFlowStore } from '@xyflow/react';
import type { ReactFlowState } from '@xyflow/react';
import { useStore } from '../store/createStore.ts';
import { layoutStore } from '../store/layoutStore.ts';
import { useT } from '../i18n/i18n.ts';

const W = 150;
const H = 96;
const MARGIN = 15;
type Spot = 'bottom-right' | 'top-right' | null;

/** Whether a node's box on screen overlaps the minimap's box in one corner of the pane. */
function covered(s: ReactFlowState, top: boolean): boolean {
  const [tx, ty, k] = s.transform;
  const x0 = s.width - MARGIN - W;
  const y0 = top ? MARGIN : s.height - MARGIN - H;
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

/** Bottom right when that corner is clear, else top right, else nowhere: the minimap never hides a node. */
const spot = (s: ReactFlowState): Spot => (!covered(s, false) ? 'bottom-right' : !covered(s, true) ? 'top-right' : null);

export function GuardedMiniMap({ nodeColor }: { nodeColor: (n: never) => string }) {
  const t = useT();
  const on = useStore(layoutStore, (l) => l.minimap);
  const where = useFlowStore(spot);
  if (!on || !where) return null;
  return <MiniMap position={where} pannable zoomable nodeColor={nodeColor} nodeStrokeWidth={0} ariaLabel={t('canvas.minimap')} style={{ width: W, height: H }} />;
}
