import type { PortRef } from '../../pipeline/document.ts';
import { register } from './registry.ts';

export const connect = register<{ from: PortRef; to: PortRef }>({
  name: 'connect',
  label: 'Connect ports',
  perform(state, { from, to }) {
    const edge = { from, to };
    const id = `${from.node}.${from.port}->${to.node}.${to.port}`;
    return { doc: { ...state.doc, edges: [...state.doc.edges, edge] }, selection: { nodes: [], edges: [id] }, commitToHistory: true };
  },
});

/**
 * Puts a node into an existing edge, as when an operator is dropped on a wire: a → b becomes
 * a → node → b, through the node's first input and first output. One undo step.
 */
export const insertOnEdge = register<{ edge: { from: PortRef; to: PortRef }; node: string; input: string; output: string }>({
  name: 'insertOnEdge',
  label: 'Insert into connection',
  perform(state, { edge, node, input, output }) {
    const same = (e: { from: PortRef; to: PortRef }) => e.from.node === edge.from.node && e.from.port === edge.from.port && e.to.node === edge.to.node && e.to.port === edge.to.port;
    if (!state.doc.edges.some(same)) return null;
    const edges = [...state.doc.edges.filter((e) => !same(e)), { from: edge.from, to: { node, port: input } }, { from: { node, port: output }, to: edge.to }];
    return { doc: { ...state.doc, edges }, selection: { nodes: [node], edges: [] }, commitToHistory: true };
  },
});
