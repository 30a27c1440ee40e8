import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';

/** The canvas node the node-specific panels follow: the first selected one. */
export const useSelectedNode = (): string | null => useStore(editorStore, (s) => s.selection.nodes[0] ?? null);

/** Label of a node for headings, falling back to its id. */
export const useNodeLabel = (id: string | null): string | null =>
  useStore(editorStore, (s) => {
    if (!id) return null;
    const n = s.doc.nodes.find((x) => x.id === id);
    return n?.label ?? id;
  });
