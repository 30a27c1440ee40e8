/**
 * Canvas positions for planned nodes. `depthLayout` is synchronous (columns by depth, rows in
 * plan order); `layoutDocument` runs the designer's elkjs auto-layout, which is asynchronous.
 */
import type { PipelineDocument, PipelineEdge } from '../../../pipeline/document.ts';

export function depthLayout(nodes: { id: string }[], edges: PipelineEdge[]): Map<string, { x: number; y: number }> {
  const depth = new Map<string, number>();
  for (const n of nodes) depth.set(n.id, Math.max(0, ...edges.filter((e) => e.to.node === n.id).map((e) => (depth.get(e.from.node) ?? 0) + 1)));
  const rows = new Map<number, number>();
  const out = new Map<string, { x: number; y: number }>();
  for (const n of nodes) {
    const d = depth.get(n.id)!;
    const r = rows.get(d) ?? 0;
    rows.set(d, r + 1);
    out.set(n.id, { x: d * 280, y: r * 150 });
  }
  return out;
}

/** Positions every node without an annotated one with the injected layout (the designer's elkjs one). */
export async function layoutDocument(
  doc: PipelineDocument,
  keep: ReadonlySet<string>,
  layout: (doc: PipelineDocument) => Promise<Record<string, { x: number; y: number }>>,
): Promise<PipelineDocument> {
  const pos = await layout(doc);
  return { ...doc, nodes: doc.nodes.map((n) => (keep.has(n.id) || !pos[n.id] ? n : { ...n, position: pos[n.id] })) };
}
