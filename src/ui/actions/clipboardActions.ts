import type { PipelineDocument, PipelineEdge, PipelineNode } from '../../pipeline/document.ts';
import { freshNodeId } from '../store/ids.ts';
import { register } from './registry.ts';
import type { EditorState } from '../store/editorStore.ts';

/** What Ctrl+C keeps: the selected nodes and the edges among them. */
export interface Fragment {
  weirFragment: 1;
  nodes: PipelineNode[];
  edges: PipelineEdge[];
}

export function copyFragment(state: EditorState): Fragment | null {
  const ids = new Set(state.selection.nodes);
  if (!ids.size) return null;
  return {
    weirFragment: 1,
    nodes: state.doc.nodes.filter((n) => ids.has(n.id)),
    edges: state.doc.edges.filter((e) => ids.has(e.from.node) && ids.has(e.to.node)).map(({ from, to }) => ({ from, to })),
  };
}

/** Gives pasted nodes fresh ids and an offset, rewiring the edges among them. */
export function placeFragment(doc: PipelineDocument, frag: Fragment, offset: { x: number; y: number }): { nodes: PipelineNode[]; edges: PipelineEdge[] } {
  const rename = new Map<string, string>();
  const taken = new Set<string>();
  const nodes = frag.nodes.map((n) => {
    const id = freshNodeId(doc, n.kind, taken);
    taken.add(id);
    rename.set(n.id, id);
    const p = n.position ?? { x: 0, y: 0 };
    return { ...structuredClone(n), id, position: { x: p.x + offset.x, y: p.y + offset.y } };
  });
  const edges = frag.edges.map((e) => ({ from: { node: rename.get(e.from.node)!, port: e.from.port }, to: { node: rename.get(e.to.node)!, port: e.to.port } }));
  return { nodes, edges };
}

export const pasteFragment = register<{ fragment: Fragment; offset: { x: number; y: number } }>({
  name: 'paste',
  label: 'Paste',
  perform(state, { fragment, offset }) {
    if (!fragment.nodes.length) return null;
    const { nodes, edges } = placeFragment(state.doc, fragment, offset);
    return {
      doc: { ...state.doc, nodes: [...state.doc.nodes, ...nodes], edges: [...state.doc.edges, ...edges] },
      selection: { nodes: nodes.map((n) => n.id), edges: [] },
      commitToHistory: true,
    };
  },
});

export const duplicateSelection = register<void>({
  name: 'duplicate',
  label: 'Duplicate',
  perform(state) {
    const frag = copyFragment(state);
    return frag ? pasteFragment.perform(state, { fragment: frag, offset: { x: 40, y: 40 } }) : null;
  },
});

export function isFragment(v: unknown): v is Fragment {
  return !!v && typeof v === 'object' && (v as Fragment).weirFragment === 1 && Array.isArray((v as Fragment).nodes) && Array.isArray((v as Fragment).edges);
}
