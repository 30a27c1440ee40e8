import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import type { EditorState } from '../store/editorStore.ts';
import type { PipelineNode } from '../../pipeline/document.ts';
import { NodeInspector } from './NodeInspector.tsx';
import { PipelineInspector } from './PipelineInspector.tsx';
import { useT } from '../i18n/i18n.ts';
import { plural } from '../i18n/plural.ts';

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
  const t = useT();
  return (
    <aside className="inspector" aria-label={t('inspector.title')}>
      {node ? (
        <NodeInspector key={node.id} node={node} />
      ) : sel.nodes.length > 1 || sel.edges.length > 0 ? (
        <div className="inspector-empty">
          <strong>
            {t('inspector.selected', { operators: plural(t, 'inspector.operators', sel.nodes.length), connections: plural(t, 'inspector.connections', sel.edges.length) })}
          </strong>
          <p className="muted">{t('inspector.multiHint')}</p>
        </div>
      ) : (
        <PipelineInspector />
      )}
    </aside>
  );
}
