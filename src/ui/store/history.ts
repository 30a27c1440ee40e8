import { editorStore, noSelection } from './editorStore.ts';
import type { EditorState } from './editorStore.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';

/** Drops selected ids that no longer exist, so undo never leaves a ghost selection. */
function keepExisting(state: EditorState, doc: PipelineDocument): EditorState['selection'] {
  const nodes = new Set(doc.nodes.map((n) => n.id));
  const sel = state.selection;
  return { nodes: sel.nodes.filter((id) => nodes.has(id)), edges: sel.edges };
}

export function undo(): void {
  editorStore.set((s) => {
    // A drag in progress is folded in first: undo returns to the last committed document.
    const current = s.doc;
    const prev = s.doc !== s.committed ? s.committed : s.past[s.past.length - 1];
    if (!prev) return s;
    const past = s.doc !== s.committed ? s.past : s.past.slice(0, -1);
    return { ...s, doc: prev, committed: prev, past, future: [...s.future, current], selection: keepExisting(s, prev) };
  });
}

export function redo(): void {
  editorStore.set((s) => {
    const next = s.future[s.future.length - 1];
    if (!next) return s;
    return { ...s, doc: next, committed: next, past: [...s.past, s.committed], future: s.future.slice(0, -1), selection: keepExisting(s, next) };
  });
}

export const canUndo = (s: EditorState): boolean => s.past.length > 0 || s.doc !== s.committed;
export const canRedo = (s: EditorState): boolean => s.future.length > 0;

/** Replaces the whole document with no history, as when opening a project. */
export function resetDocument(doc: PipelineDocument, extra: Partial<EditorState> = {}): void {
  editorStore.set((s) => ({ ...s, doc, committed: doc, past: [], future: [], selection: noSelection, ...extra }));
}
