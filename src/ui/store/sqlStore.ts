import type { PipelineDocument } from '../../pipeline/document.ts';
import type { SqlSpan } from '../../import/flinkSql/index.ts';
import { createStore } from './createStore.ts';
import { editorStore } from './editorStore.ts';

/**
 * The SQL tab's text and the spans of its last Apply. Spans are not in the document: they belong
 * to one script, and stay valid while the canvas holds the document that script planned.
 */
export interface SqlState {
  /** Text the person typed or pasted and has not applied; null while the tab shows the exporter's script. */
  draft: string | null;
  /** The last applied script, the document it became, and where each node came from in it. */
  applied: { text: string; doc: PipelineDocument; spans: Record<string, SqlSpan> } | null;
}

export const sqlStore = createStore<SqlState>({ draft: null, applied: null });

export const setSqlDraft = (draft: string | null): void => sqlStore.set((s) => ({ ...s, draft }));

const withoutPositions = (d: PipelineDocument): string => JSON.stringify({ ...d, nodes: d.nodes.map(({ position: _p, ...n }) => n) });

// Moving nodes keeps the applied script and its spans; any other canvas edit makes the exporter's
// script the text again (unless the person's own unapplied edits are in the tab).
editorStore.subscribe(() => {
  const { applied } = sqlStore.get();
  const doc = editorStore.get().doc;
  if (!applied || applied.doc === doc) return;
  if (withoutPositions(applied.doc) === withoutPositions(doc)) sqlStore.set((s) => ({ ...s, applied: { ...applied, doc } }));
  else sqlStore.set((s) => ({ ...s, applied: null }));
});
