import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import type { EditorState } from '../store/editorStore.ts';
import type { PipelineNode } from '../../pipeline/document.ts';
import { NodeInspector } from './NodeInspector.tsx';
import { PipelineInspector } from './PipelineInspector.tsx';

let lastNode: PipelineNode | undefined;

/** The one selected node; a new position alone keeps the old object, so dragging does not re-render the form. */
function selectedNodeIgnoringPosition(s: EditorState): PipelineNode | undefined {
  const n = s.selection.nodes.length === 1 ? s.doc.nodes.find((x) => x.id === s.selection.nodes[0]) : undefined;
  const l = lastNode;
  if (n && l && n.id === l.id && n.kind === l.kind && n.params === l.params && n.label === l.label && n.parallelism === l.parallelism) return l;
  lastNode = n;
  return n;
}

/** Right panel: the selected operator's form, the pipeline's settings, or a note about a multi-selection. */
export function Inspector() {
  const sel = useStore(editorStore, (s) => s.selection);
  const node = useStore(editorStore, selectedNodeIgnoringPosition);
  return (
    <aside className="inspector" aria-label="Inspector">
      {node ? (
        <NodeInspector key={node.id} node={node} />
      ) : sel.nodes.length > 1 || sel.edges.length > 0 ? (
        <div className="inspector-empty">
          <strong>
            {sel.nodes.length} operator{sel.nodes.length === 1 ? '' : 's'}, {sel.edges.length} connection{sel.edges.length === 1 ? '' : 's'} selected
          </strong>
          <p className="muted">Delete, copy (Ctrl+C) or duplicate (Ctrl+D) them together. Select one operator to edit it.</p>
        </div>
      ) : (
        <PipelineInspector />
      )}
    </aside>
  );
}
