import type { PipelineDocument } from '../../pipeline/document.ts';
import { kindSpec } from '../../pipeline/kinds/index.ts';
import type { StreamInfo } from '../../pipeline/streamInfo.ts';
import { unknownStream } from '../../pipeline/streamInfo.ts';

export interface NodeStreams {
  inputs: Record<string, StreamInfo>;
  outputs: Record<string, StreamInfo>;
}

/**
 * Stream inference for the editor, which needs it even while the document has problems
 * (compile only returns a plan for a clean document): edges to unknown ports and cycles are skipped.
 */
export function inferStreams(doc: PipelineDocument): Record<string, NodeStreams> {
  const byId = new Map(doc.nodes.map((n) => [n.id, n]));
  const incoming = new Map<string, { port: string; from: string; fromPort: string }[]>();
  const indeg = new Map(doc.nodes.map((n) => [n.id, 0]));
  const next = new Map<string, string[]>();
  for (const e of doc.edges) {
    if (!byId.has(e.from.node) || !byId.has(e.to.node)) continue;
    incoming.set(e.to.node, [...(incoming.get(e.to.node) ?? []), { port: e.to.port, from: e.from.node, fromPort: e.from.port }]);
    indeg.set(e.to.node, (indeg.get(e.to.node) ?? 0) + 1);
    next.set(e.from.node, [...(next.get(e.from.node) ?? []), e.to.node]);
  }
  const ready = doc.nodes.filter((n) => indeg.get(n.id) === 0).map((n) => n.id);
  const out: Record<string, NodeStreams> = {};
  while (ready.length) {
    const id = ready.shift()!;
    const node = byId.get(id)!;
    const spec = kindSpec(node.kind);
    const inputLists: Record<string, StreamInfo[]> = {};
    for (const i of incoming.get(id) ?? []) (inputLists[i.port] ??= []).push(out[i.from]?.outputs[i.fromPort] ?? unknownStream());
    const inputs = Object.fromEntries(Object.entries(inputLists).map(([k, v]) => [k, v[0]]));
    let outputs: Record<string, StreamInfo> = {};
    if (spec) {
      try {
        outputs = spec.infer({ nodeId: id, params: node.params, inputs, inputLists }).outputs;
      } catch {
        outputs = Object.fromEntries(spec.outputs.map((p) => [p.name, unknownStream()]));
      }
    }
    out[id] = { inputs, outputs };
    for (const m of next.get(id) ?? []) {
      indeg.set(m, indeg.get(m)! - 1);
      if (indeg.get(m) === 0) ready.push(m);
    }
  }
  return out;
}
