import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk.bundled.js';
import type { PipelineDocument } from './document.ts';
import { kindSpec } from './kinds/index.ts';

let elk: InstanceType<typeof ELK> | null = null;

type Size = { width: number; height: number };

/**
 * Layered left-to-right layout with ports pinned to their sides and kept in declared order,
 * so a join's `left` stays above its `right` and edges rarely cross. The canvas's auto-layout
 * and the SQL import both place nodes with it; node sizes are the caller's (the canvas measures them).
 */
export async function autoLayout(doc: PipelineDocument, sizeOf: (id: string) => Size | undefined = () => undefined): Promise<Record<string, { x: number; y: number }>> {
  elk ??= new ELK();
  const port = (node: string, dir: 'in' | 'out', name: string) => `${node}|${dir}:${name}`;
  const graph: ElkNode = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.layered.spacing.nodeNodeBetweenLayers': '80',
      'elk.spacing.nodeNode': '36',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      'elk.layered.crossingMinimization.semiInteractive': 'true',
    },
    children: doc.nodes.map((n) => {
      const spec = kindSpec(n.kind);
      // Unmeasured (an import): a node from SQL also shows its span tag, and every node gains a
      // metrics line once it runs, so leave room for both rather than let them overlap.
      const size = sizeOf(n.id) ?? { width: 200, height: n.origin ? 130 : 90 };
      const ports = [
        ...(spec?.inputs ?? []).map((p, i) => ({ id: port(n.id, 'in', p.name), layoutOptions: { 'elk.port.side': 'WEST', 'elk.port.index': String(i) } })),
        ...(spec?.outputs ?? []).map((p, i) => ({ id: port(n.id, 'out', p.name), layoutOptions: { 'elk.port.side': 'EAST', 'elk.port.index': String(i) } })),
      ];
      return { id: n.id, width: size.width, height: size.height, ports, layoutOptions: { 'elk.portConstraints': 'FIXED_ORDER' } };
    }),
    edges: doc.edges
      .filter((e) => doc.nodes.some((n) => n.id === e.from.node) && doc.nodes.some((n) => n.id === e.to.node))
      .map((e, i) => ({ id: `e${i}`, sources: [port(e.from.node, 'out', e.from.port)], targets: [port(e.to.node, 'in', e.to.port)] })),
  };
  const out = await elk.layout(graph);
  const pos: Record<string, { x: number; y: number }> = {};
  for (const c of out.children ?? []) pos[c.id] = { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) };
  return pos;
}
