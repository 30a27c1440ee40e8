import type { PipelineDocument } from '../../pipeline/document.ts';

/** A readable id such as `filter_2` that the document does not use yet. */
export function freshNodeId(doc: PipelineDocument, kind: string, taken: Set<string> = new Set()): string {
  const used = new Set([...doc.nodes.map((n) => n.id), ...taken]);
  const base = kind.replace(/[^A-Za-z0-9_]/g, '_').replace(/^[^A-Za-z_]/, '_');
  for (let i = 1; ; i++) {
    const id = `${base}_${i}`;
    if (!used.has(id)) return id;
  }
}
