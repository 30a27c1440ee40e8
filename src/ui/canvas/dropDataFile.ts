import { kindSpec } from '../../pipeline/kinds/index.ts';
import { dispatch } from '../actions/registry.ts';
import { addNode } from '../actions/nodeActions.ts';
import { setSelection } from '../actions/docActions.ts';
import { editorStore } from '../store/editorStore.ts';
import { toast } from '../store/uiStore.ts';
import { becomeFileSource, giveSourceFile } from '../projects/giveSourceFile.ts';
import { t } from '../i18n/i18n.ts';
import { dropPosition } from './canvasBridge.ts';

/** The source node under a drop, if the file fell onto one. */
function sourceUnder(target: EventTarget | null): string | null {
  const id = (target as Element | null)?.closest?.('.react-flow__node')?.getAttribute('data-id');
  if (!id) return null;
  const node = editorStore.get().doc.nodes.find((n) => n.id === id);
  return node && kindSpec(node.kind)?.group === 'sources' ? id : null;
}

/**
 * A data file dropped on the canvas: onto a source, that source now reads the file; elsewhere a
 * new file source appears at the drop point. Either way it is selected, so its form shows the
 * inferred types for confirmation.
 */
export async function dropDataFile(file: File, clientX: number, clientY: number, target: EventTarget | null): Promise<void> {
  let id = sourceUnder(target);
  if (id) dispatch(becomeFileSource, { id });
  else {
    dispatch(addNode, { kind: 'fileSource', position: dropPosition(clientX, clientY) });
    id = editorStore.get().selection.nodes[0] ?? null;
  }
  if (!id) return;
  dispatch(setSelection, { nodes: [id], edges: [] });
  try {
    const sample = await giveSourceFile(id, file);
    toast(t('fileSource.dropped', { name: file.name, node: id, records: sample.records }));
  } catch (e) {
    toast(t('fileSource.unreadable', { name: file.name, message: (e as Error).message }));
  }
}
