import type { ReactFlowInstance } from '@xyflow/react';
import type { OpFlowEdge, OpFlowNode } from './flowTypes.ts';
import type { FlowNodeCache } from './toFlow.ts';

type Instance = ReactFlowInstance<OpFlowNode, OpFlowEdge>;

/** What the rest of the shell may ask of the canvas (palette keyboard add, toolbar, shortcuts). */
export const canvasBridge: { flow: Instance | null; pane: HTMLElement | null; cache: FlowNodeCache | null; pointer: { x: number; y: number } | null } = { flow: null, pane: null, cache: null, pointer: null };

/** The drag-and-drop type that carries an operator kind from the palette to the canvas. */
export const KIND_MIME = 'application/x-weir-kind';

const NODE_HALF = { x: 100, y: 40 };

/** The flow position at the centre of the visible canvas, nudged so repeated adds do not stack exactly. */
export function viewportCenter(nudge = 0): { x: number; y: number } {
  const { flow, pane } = canvasBridge;
  if (!flow || !pane) return { x: 0, y: 0 };
  const r = pane.getBoundingClientRect();
  const p = flow.screenToFlowPosition({ x: r.left + r.width / 2, y: r.top + r.height / 2 });
  return { x: p.x - NODE_HALF.x + nudge * 24, y: p.y - NODE_HALF.y + nudge * 24 };
}

export function dropPosition(clientX: number, clientY: number): { x: number; y: number } {
  const p = canvasBridge.flow?.screenToFlowPosition({ x: clientX, y: clientY }) ?? { x: clientX, y: clientY };
  return { x: p.x - NODE_HALF.x, y: p.y - 20 };
}

/** Fits the graph, never zooming in past 110%; an empty canvas goes back to 100%. */
export function fitView(): void {
  const flow = canvasBridge.flow;
  if (!flow) return;
  if (flow.getNodes().length === 0) void flow.setViewport({ x: 40, y: 40, zoom: 1 });
  else void flow.fitView({ padding: 0.2, maxZoom: 1.1, duration: 200 });
}

/** Brings these nodes into view, no closer than the whole-canvas fit would. */
export function fitNodes(ids: string[]): void {
  const flow = canvasBridge.flow;
  if (!flow || !ids.length) return;
  void flow.fitView({ padding: 0.15, maxZoom: 1.1, duration: 200, nodes: ids.map((id) => ({ id })) });
}
