import { createStore } from './createStore.ts';

/**
 * The SQL tab's unapplied text. The applied script lives in the document (`origin.sql`, with each
 * node's span), so it survives a reload and goes with the document wherever it is saved.
 */
export interface SqlState {
  /** Text the person typed or pasted and has not applied; null while the tab shows the document's script. */
  draft: string | null;
}

export const sqlStore = createStore<SqlState>({ draft: null });

export const setSqlDraft = (draft: string | null): void => sqlStore.set((s) => ({ ...s, draft }));
