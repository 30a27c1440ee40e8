import { useEffect } from 'react';
import { dispatch } from '../actions/registry.ts';
import { deleteSelection } from '../actions/nodeActions.ts';
import { duplicateSelection, pasteFragment } from '../actions/clipboardActions.ts';
import { selectAll, setSelection } from '../actions/docActions.ts';
import { undo, redo } from '../store/history.ts';
import { uiStore, setUi } from '../store/uiStore.ts';
import { copySelection, readClipboard } from './clipboard.ts';
import { fitView, canvasBridge } from './canvasBridge.ts';
import { runAutoLayout } from './runAutoLayout.ts';
import { openQuickAdd } from './QuickAdd.tsx';
import { clearLineage, lineageActive } from '../lineage/lineageStore.ts';

export interface Shortcut {
  /** Key names, which read the same in every language (Ctrl+A). */
  keys?: string;
  /** A message key, for keys described in words. */
  keysKey?: string;
  /** Message key of what the keys do. */
  what: string;
}

/** The list the help overlay shows; the handler below is the single place that implements it. */
export const SHORTCUTS: Shortcut[] = [
  { keysKey: 'shell.key.paletteAdd', what: 'shell.do.add' },
  { keysKey: 'shell.key.typeToAdd', what: 'shell.do.typeToAdd' },
  { keysKey: 'shell.key.dropOnEdge', what: 'shell.do.dropOnEdge' },
  { keysKey: 'shell.key.portDrag', what: 'shell.do.connect' },
  { keysKey: 'shell.key.selectMouse', what: 'shell.do.select' },
  { keys: 'Ctrl+A', what: 'shell.do.selectAll' },
  { keys: 'Delete / Backspace', what: 'shell.do.delete' },
  { keys: 'Ctrl+C / Ctrl+V', what: 'shell.do.copyPaste' },
  { keys: 'Ctrl+D', what: 'shell.do.duplicate' },
  { keys: 'Ctrl+Z', what: 'shell.do.undo' },
  { keys: 'Ctrl+Shift+Z / Ctrl+Y', what: 'shell.do.redo' },
  { keys: 'Shift+L', what: 'shell.do.layout' },
  { keysKey: 'shell.key.fit', what: 'shell.do.fit' },
  { keysKey: 'shell.key.zoom', what: 'shell.do.zoom' },
  { keys: 'Escape', what: 'shell.do.escape' },
  { keys: '?', what: 'shell.do.help' },
];

/** Keys typed into a field or a code editor belong to that field. */
function typingTarget(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  if (!el || !el.closest) return false;
  return !!el.closest('input, textarea, select, [contenteditable="true"], .monaco-editor');
}

export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const ui = uiStore.get();
      if (e.key === 'Escape') {
        if (ui.dialog) setUi({ dialog: null });
        else if (lineageActive()) clearLineage();
        else if (!typingTarget(e.target)) dispatch(setSelection, { nodes: [], edges: [] });
        return;
      }
      if (typingTarget(e.target) || ui.dialog) return;
      const mod = e.ctrlKey || e.metaKey;
      const k = e.key.toLowerCase();
      const onCanvas = ui.centerTab === 'canvas';
      let handled = true;
      if (mod && k === 'z' && !e.shiftKey) undo();
      else if (mod && ((k === 'z' && e.shiftKey) || k === 'y')) redo();
      else if (!onCanvas) handled = false;
      else if (mod && k === 'a') dispatch(selectAll, undefined);
      else if (mod && k === 'c') copySelection();
      else if (mod && k === 'v') {
        const frag = readClipboard();
        if (frag) dispatch(pasteFragment, { fragment: frag.fragment, offset: { x: 40 * frag.times, y: 40 * frag.times } });
      } else if (mod && k === 'd') dispatch(duplicateSelection, undefined);
      else if (!mod && (e.key === 'Delete' || e.key === 'Backspace')) dispatch(deleteSelection, undefined);
      else if (!mod && e.key === '?') setUi({ dialog: 'help' });
      else if (!mod && e.shiftKey && k === 'l') void runAutoLayout();
      else if (!mod && e.shiftKey && e.code === 'Digit1') fitView();
      else if (!mod && (e.key === '+' || e.key === '=')) void canvasBridge.flow?.zoomIn();
      else if (!mod && (e.key === '-' || e.key === '_')) void canvasBridge.flow?.zoomOut();
      // Type to add: a letter (F included: "filter" starts with it; fit is Shift+1) opens the finder with it.
      else if (!mod && !e.altKey && /^[a-z]$/i.test(e.key) && !(e.shiftKey && k === 'l')) openQuickAdd(e.key);
      else handled = false;
      if (handled) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
