import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk.bundled.js';
import type { PipelineDocument } from '../../pipeline/document.ts';
import { kindSpec } from '../../pipeline/kinds/index.ts';
import { handleId } from './connectionRules.ts';

const elk = new ELK();

type Size = { width: number; height: number };

/**
 * Layered left-to-right layout with ports pinned to their sides and kept in declared order,
 * so a join's `left` stays above its `right` and edges rarely cross.
 */
export async function autoLayout(doc: PipelineDocument, sizeOf: (id: string) => Size | undefined): Promise<Record<string, { x: number; y: number }>> {
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
      const size = sizeOf(n.id) ?? { width: 200, height: 90 };
      const ports = [
        ...(spec?.inputs ?? []).map((p, i) => ({ id: `${n.id}|${handleId('in', p.name)}`, layoutOptions: { 'elk.port.side': 'WEST', 'elk.port.index': String(i) } })),
        ...(spec?.outputs ?? []).map((p, i) => ({ id: `${n.id}|${handleId('out', p.name)}`, layoutOptions: { 'elk.port.side': 'EAST', 'elk.port.index': String(i) } })),
      ];
      return { id: n.id, width: size.width, height: size.height, ports, layoutOptions: { 'elk.portConstraints': 'FIXED_ORDER' } };
    }),
    edges: doc.edges
      .filter((e) => doc.nodes.some((n) => n.id === e.from.node) && doc.nodes.some((n) => n.id === e.to.node))
      .map((e, i) => ({ id: `e${i}`, sources: [`${e.from.node}|${handleId('out', e.from.port)}`], targets: [`${e.to.node}|${handleId('in', e.to.port)}`] })),
  };
  const out = await elk.layout(graph);
  const pos: Record<string, { x: number; y: number }> = {};
  for (const c of out.children ?? []) pos[c.id] = { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) };
  return pos;
}
