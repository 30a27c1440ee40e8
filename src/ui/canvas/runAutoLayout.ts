import { editorStore } from '../store/editorStore.ts';
import { dispatch } from '../actions/registry.ts';
import { applyPositions } from '../actions/docActions.ts';
import { canvasBridge, fitView } from './canvasBridge.ts';

export async function runAutoLayout(): Promise<void> {
  const doc = editorStore.get().doc;
  if (!doc.nodes.length) return;
  // elkjs is large; it loads the first time someone asks for a layout.
  const { autoLayout } = await import('./layout.ts');
  const positions = await autoLayout(doc, (id) => canvasBridge.cache?.size(id));
  dispatch(applyPositions, positions);
  requestAnimationFrame(() => fitView());
}
