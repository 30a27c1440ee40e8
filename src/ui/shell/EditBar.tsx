import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { setUi, uiStore } from '../store/uiStore.ts';
import { canRedo, canUndo, redo, undo } from '../store/history.ts';
import { runAutoLayout } from '../canvas/runAutoLayout.ts';
import { fitView } from '../canvas/canvasBridge.ts';
import { RunControls } from '../run/RunControls.tsx';
import { FitIcon, LayoutIcon, RedoIcon, UndoIcon } from './icons.tsx';

/** Above the canvas: which view, edit commands, and the run controls. */
export function EditBar() {
  const tab = useStore(uiStore, (s) => s.centerTab);
  const undoable = useStore(editorStore, canUndo);
  const redoable = useStore(editorStore, canRedo);
  return (
    <div className="editbar">
      <div className="seg" role="tablist" aria-label="View">
        <button type="button" role="tab" aria-selected={tab === 'canvas'} className={tab === 'canvas' ? 'on' : ''} onClick={() => setUi({ centerTab: 'canvas' })}>
          Canvas
        </button>
        <button type="button" role="tab" aria-selected={tab === 'json'} className={tab === 'json' ? 'on' : ''} onClick={() => setUi({ centerTab: 'json' })}>
          Pipeline JSON
        </button>
      </div>
      <div className="edit-tools" role="toolbar" aria-label="Edit">
        <button type="button" className="btn-icon" onClick={undo} disabled={!undoable} aria-label="Undo" title="Undo (Ctrl+Z)">
          <UndoIcon />
        </button>
        <button type="button" className="btn-icon" onClick={redo} disabled={!redoable} aria-label="Redo" title="Redo (Ctrl+Shift+Z)">
          <RedoIcon />
        </button>
        <button type="button" className="btn-icon" onClick={() => void runAutoLayout()} disabled={tab !== 'canvas'} aria-label="Auto-layout" title="Auto-layout (Shift+L)">
          <LayoutIcon />
        </button>
        <button type="button" className="btn-icon" onClick={fitView} disabled={tab !== 'canvas'} aria-label="Fit view" title="Fit view (F)">
          <FitIcon />
        </button>
      </div>
      <span className="spacer" />
      <RunControls />
    </div>
  );
}
