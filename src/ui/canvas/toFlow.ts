import type { PipelineDocument, PipelineEdge, PipelineNode } from '../../pipeline/document.ts';
import { edgeId } from '../../pipeline/document.ts';
import type { Selection } from '../store/editorStore.ts';
import { handleId } from './connectionRules.ts';
import type { OpFlowEdge, OpFlowNode } from './flowTypes.ts';

type Size = { width: number; height: number };

/**
 * Turns the document into React Flow nodes, reusing the previous object whenever the document
 * node and its selection are unchanged, so memoised node components skip re-rendering.
 */
export class FlowNodeCache {
  private byNode = new WeakMap<PipelineNode, OpFlowNode>();
  private sizes = new Map<string, Size>();
  private list: OpFlowNode[] = [];

  nodes(doc: PipelineDocument, sel: Selection): OpFlowNode[] {
    const selected = new Set(sel.nodes);
    let changed = doc.nodes.length !== this.list.length;
    const next = doc.nodes.map((n, i) => {
      const isSel = selected.has(n.id);
      const prev = this.byNode.get(n);
      const size = this.sizes.get(n.id);
      let f: OpFlowNode;
      if (prev && prev.selected === isSel && prev.measured === size) f = prev;
      else {
        f = { id: n.id, type: 'op', position: n.position ?? { x: 0, y: 0 }, data: { node: n }, selected: isSel, measured: size };
        this.byNode.set(n, f);
      }
      if (f !== this.list[i]) changed = true;
      return f;
    });
    if (changed) this.list = next;
    return this.list;
  }

  /** React Flow measures nodes in the DOM; the sizes must come back with the next node objects. */
  setSize(id: string, size: Size): boolean {
    const prev = this.sizes.get(id);
    if (prev && prev.width === size.width && prev.height === size.height) return false;
    this.sizes.set(id, size);
    return true;
  }

  size(id: string): Size | undefined {
    return this.sizes.get(id);
  }
}

export class FlowEdgeCache {
  private byEdge = new WeakMap<PipelineEdge, OpFlowEdge>();
  private last: { edges: PipelineDocument['edges']; sel: string[]; out: OpFlowEdge[] } | null = null;

  /** The same array while the edges and their selection are unchanged (a node drag changes neither). */
  edges(doc: PipelineDocument, sel: Selection): OpFlowEdge[] {
    if (this.last && this.last.edges === doc.edges && this.last.sel === sel.edges) return this.last.out;
    const selected = new Set(sel.edges);
    const out = doc.edges.map((e) => {
      const id = edgeId(e);
      const prev = this.byEdge.get(e);
      if (prev && prev.selected === selected.has(id)) return prev;
      const f: OpFlowEdge = {
        id,
        type: 'op',
        source: e.from.node,
        sourceHandle: handleId('out', e.from.port),
        target: e.to.node,
        targetHandle: handleId('in', e.to.port),
        selected: selected.has(id),
        data: { edge: e },
      };
      this.byEdge.set(e, f);
      return f;
    });
    this.last = { edges: doc.edges, sel: sel.edges, out };
    return out;
  }
}
