import type { PipelineDocument } from '../../pipeline/document.ts';
import { originAfterEdit } from '../../pipeline/origin.ts';
import { editorStore, HISTORY_LIMIT } from '../store/editorStore.ts';
import type { EditorState, Selection } from '../store/editorStore.ts';

export interface ActionResult {
  doc?: PipelineDocument;
  selection?: Selection;
  /** True: the edit becomes one undo step. False: it rides along until the next commit (a drag in progress). */
  commitToHistory: boolean;
  /** Consecutive commits with the same key within a second fold into one undo step (typing in a field). */
  coalesceKey?: string;
}

/** An edit as a registered object, excalidraw style: it reads the state and says what changes. */
export interface Action<A = void> {
  name: string;
  /** What a person calls it: menus, tooltips, the help overlay. */
  label: string;
  perform(state: EditorState, arg: A): ActionResult | null;
}

let lastCommit = { key: '', at: 0 };
const COALESCE_MS = 1000;

const registry = new Map<string, Action<never>>();

export function register<A>(action: Action<A>): Action<A> {
  registry.set(action.name, action as unknown as Action<never>);
  return action;
}

export const registeredActions = (): Action<never>[] => [...registry.values()];

/** Runs an action against the store; a null result means "nothing to do". */
export function dispatch<A>(action: Action<A>, arg: A): void {
  editorStore.set((s) => {
    const r = action.perform(s, arg);
    if (!r) return s;
    const doc = r.doc ? originAfterEdit(s.doc, r.doc) : s.doc;
    const next: EditorState = { ...s, doc, selection: r.selection ?? s.selection };
    if (r.commitToHistory && doc !== s.committed) {
      const now = performance.now();
      const fold = r.coalesceKey !== undefined && r.coalesceKey === lastCommit.key && now - lastCommit.at < COALESCE_MS && s.past.length > 0;
      lastCommit = { key: r.coalesceKey ?? '', at: now };
      if (!fold) next.past = [...s.past, s.committed].slice(-HISTORY_LIMIT);
      next.committed = doc;
      next.future = [];
    }
    return next;
  });
}
