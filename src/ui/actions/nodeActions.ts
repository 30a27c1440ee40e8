import type { PipelineDocument, PipelineNode } from '../../pipeline/document.ts';
import { edgeId } from '../../pipeline/document.ts';
import { kindSpec } from '../../pipeline/kinds/index.ts';
import { freshNodeId } from '../store/ids.ts';
import { register } from './registry.ts';

type XY = { x: number; y: number };

const clone = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

const mapNodes = (doc: PipelineDocument, id: string, f: (n: PipelineNode) => PipelineNode): PipelineDocument => ({
  ...doc,
  nodes: doc.nodes.map((n) => (n.id === id ? f(n) : n)),
});

export const addNode = register<{ kind: string; position: XY }>({
  name: 'addNode',
  label: 'Add operator',
  perform(state, { kind, position }) {
    const spec = kindSpec(kind);
    if (!spec) return null;
    const id = freshNodeId(state.doc, kind);
    const node: PipelineNode = { id, kind, params: clone(spec.defaults), position: { x: Math.round(position.x), y: Math.round(position.y) } };
    return { doc: { ...state.doc, nodes: [...state.doc.nodes, node] }, selection: { nodes: [id], edges: [] }, commitToHistory: true };
  },
});

/** Live positions during a drag ride along uncommitted; the drop commits them as one undo step. */
export const moveNodes = register<{ positions: Record<string, XY>; done: boolean }>({
  name: 'moveNodes',
  label: 'Move',
  perform(state, { positions, done }) {
    const doc = { ...state.doc, nodes: state.doc.nodes.map((n) => (positions[n.id] ? { ...n, position: { x: Math.round(positions[n.id].x), y: Math.round(positions[n.id].y) } } : n)) };
    return { doc, commitToHistory: done };
  },
});

export const deleteSelection = register<void>({
  name: 'deleteSelection',
  label: 'Delete',
  perform(state) {
    const nodes = new Set(state.selection.nodes);
    const edges = new Set(state.selection.edges);
    if (!nodes.size && !edges.size) return null;
    const doc = {
      ...state.doc,
      nodes: state.doc.nodes.filter((n) => !nodes.has(n.id)),
      edges: state.doc.edges.filter((e) => !edges.has(edgeId(e)) && !nodes.has(e.from.node) && !nodes.has(e.to.node)),
    };
    return { doc, selection: { nodes: [], edges: [] }, commitToHistory: true };
  },
});

export const setNodeParams = register<{ id: string; params: Record<string, unknown>; field?: string }>({
  name: 'setNodeParams',
  label: 'Edit parameters',
  perform(state, { id, params, field }) {
    return { doc: mapNodes(state.doc, id, (n) => ({ ...n, params })), commitToHistory: true, coalesceKey: `params:${id}:${field ?? ''}` };
  },
});

export const setNodeLabel = register<{ id: string; label: string }>({
  name: 'setNodeLabel',
  label: 'Rename operator',
  perform(state, { id, label }) {
    return {
      doc: mapNodes(state.doc, id, (n) => {
        const { label: _old, ...rest } = n;
        return label.trim() ? { ...rest, label } : rest;
      }),
      commitToHistory: true,
      coalesceKey: `label:${id}`,
    };
  },
});

export const setNodeParallelism = register<{ id: string; parallelism: number | undefined }>({
  name: 'setNodeParallelism',
  label: 'Set parallelism',
  perform(state, { id, parallelism }) {
    return {
      doc: mapNodes(state.doc, id, (n) => {
        const { parallelism: _old, ...rest } = n;
        return parallelism === undefined ? rest : { ...rest, parallelism };
      }),
      commitToHistory: true,
      coalesceKey: `par:${id}`,
    };
  },
});
