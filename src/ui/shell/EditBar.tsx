import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { setUi, uiStore } from '../store/uiStore.ts';
import { canRedo, canUndo, redo, undo } from '../store/history.ts';
import { runAutoLayout } from '../canvas/runAutoLayout.ts';
import { fitView } from '../canvas/canvasBridge.ts';
import { RunControls } from '../run/RunControls.tsx';
import { FitIcon, LayoutIcon, RedoIcon, UndoIcon } from './icons.tsx';
import { useT } from '../i18n/i18n.ts';

/** Above the canvas: which view, edit commands, and the run controls. */
export function EditBar() {
  const tab = useStore(uiStore, (s) => s.centerTab);
  const undoable = useStore(editorStore, canUndo);
  const redoable = useStore(editorStore, canRedo);
  const t = useT();
  return (
    <div className="editbar">
      <div className="seg" role="tablist" aria-label={t('shell.view')}>
        <button type="button" role="tab" aria-selected={tab === 'canvas'} className={tab === 'canvas' ? 'on' : ''} onClick={() => setUi({ centerTab: 'canvas' })}>
          {t('shell.canvas')}
        </button>
        <button type="button" role="tab" aria-selected={tab === 'json'} className={tab === 'json' ? 'on' : ''} onClick={() => setUi({ centerTab: 'json' })}>
          {t('shell.pipelineJson')}
        </button>
        <button type="button" role="tab" aria-selected={tab === 'sql'} className={tab === 'sql' ? 'on' : ''} onClick={() => setUi({ centerTab: 'sql' })}>
          {t('shell.sql')}
        </button>
      </div>
      <div className="edit-tools" role="toolbar" aria-label={t('shell.edit')}>
        <button type="button" className="btn-icon" onClick={undo} disabled={!undoable} aria-label={t('shell.undo')} title={t('shell.undoTitle')}>
          <UndoIcon />
        </button>
        <button type="button" className="btn-icon" onClick={redo} disabled={!redoable} aria-label={t('shell.redo')} title={t('shell.redoTitle')}>
          <RedoIcon />
        </button>
        <button type="button" className="btn-icon" onClick={() => void runAutoLayout()} disabled={tab !== 'canvas'} aria-label={t('shell.autoLayout')} title={t('shell.autoLayoutTitle')}>
          <LayoutIcon />
        </button>
        <button type="button" className="btn-icon" onClick={fitView} disabled={tab !== 'canvas'} aria-label={t('shell.fitView')} title={t('shell.fitViewTitle')}>
          <FitIcon />
        </button>
      </div>
      <span className="spacer" />
      <RunControls />
    </div>
  );
}
