import { createStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { validationStore } from '../validation/validationStore.ts';
import { kindSpec } from '../../pipeline/kinds/index.ts';
import { edgeId } from '../../pipeline/document.ts';
import type { PipelineEdge } from '../../pipeline/document.ts';
import { checkConnection, handleId } from './connectionRules.ts';

/** The edge a dragged node would be inserted into if dropped now (highlighted on the canvas). */
export const insertTarget = createStore<string | null>(null);

export interface Insertion {
  edge: PipelineEdge;
  node: string;
  input: string;
  output: string;
}

/**
 * Whether dropping `nodeId` at a screen point puts it into the edge under that point: the node
 * must be unconnected, have an input and an output, and both new connections must be allowed
 * (the same rules as drawing them by hand). Returns the insertion, or a reason it is refused.
 */
export function insertionAt(nodeId: string, clientX: number, clientY: number): { ok: Insertion } | { refused: string } | null {
  const under = document.elementsFromPoint(clientX, clientY).map((el) => el.closest('.react-flow__edge')).find(Boolean);
  const id = under?.getAttribute('data-id');
  if (!id) return null;
  const { doc } = editorStore.get();
  const edge = doc.edges.find((e) => edgeId(e) === id);
  const node = doc.nodes.find((n) => n.id === nodeId);
  const spec = node && kindSpec(node.kind);
  if (!edge || !node || !spec || !spec.inputs.length || !spec.outputs.length) return null;
  if (edge.from.node === nodeId || edge.to.node === nodeId || doc.edges.some((e) => e.from.node === nodeId || e.to.node === nodeId)) return null;
  const input = spec.inputs[0].name;
  const output = spec.outputs[0].name;
  const streams = validationStore.get().streams;
  const rest = { ...doc, edges: doc.edges.filter((e) => e !== edge) };
  const a = checkConnection(rest, streams, { source: edge.from.node, sourceHandle: handleId('out', edge.from.port), target: nodeId, targetHandle: handleId('in', input) });
  if (!a.ok) return { refused: a.reason };
  const b = checkConnection(rest, streams, { source: nodeId, sourceHandle: handleId('out', output), target: edge.to.node, targetHandle: handleId('in', edge.to.port) });
  if (!b.ok) return { refused: b.reason };
  return { ok: { edge, node: nodeId, input, output } };
}
