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
