import type { PipelineDocument, TextSpan } from './document.ts';

/**
 * A document planned from Flink SQL keeps the script (`origin.sql`) and each node's span in it.
 * They describe the pipeline only while it is still the one the script plans: moving nodes or
 * renaming their labels keeps them, any other edit drops them, so that no node points at a clause
 * it no longer matches. Undo brings them back with the document that had them.
 */
export function originAfterEdit(before: PipelineDocument, after: PipelineDocument): PipelineDocument {
  if (!after.origin || after === before) return after;
  // A new script (an Apply, a pasted document) comes with its own spans.
  if (before.origin?.sql !== after.origin.sql) return after;
  if (pipelineText(before) === pipelineText(after)) return after;
  return withoutOrigin(after);
}

/** The document with no script and no node spans. */
export function withoutOrigin(doc: PipelineDocument): PipelineDocument {
  const { origin: _o, ...rest } = doc;
  return { ...rest, nodes: doc.nodes.map(({ origin: _n, ...n }) => n) };
}

/** Each node's span in the document's script, by node id; empty when the document has no script. */
export function originSpans(doc: PipelineDocument): Record<string, TextSpan> {
  if (!doc.origin) return {};
  return Object.fromEntries(doc.nodes.flatMap((n) => (n.origin ? [[n.id, n.origin.sql]] : [])));
}

/** What a script says about a document: everything but where nodes sit and what they are called. */
const pipelineText = (d: PipelineDocument): string => JSON.stringify({ ...d, origin: undefined, nodes: d.nodes.map(({ position: _p, label: _l, origin: _o, ...n }) => n) });
