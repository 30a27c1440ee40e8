import type { PipelineDocument } from '../../pipeline/document.ts';
import { kindSpec } from '../../pipeline/kinds/index.ts';

export interface Warning {
  target: string;
  code: 'dangling-output';
}

/**
 * What runs but is probably not meant: an operator whose every output goes nowhere (its records
 * are computed and dropped). A side output alone left open (late records) is normal, so only a
 * node with no connected output at all is flagged. Warnings never block a run.
 */
export function pipelineWarnings(doc: PipelineDocument): Warning[] {
  const feeding = new Set(doc.edges.map((e) => e.from.node));
  return doc.nodes.filter((n) => (kindSpec(n.kind)?.outputs.length ?? 0) > 0 && !feeding.has(n.id)).map((n) => ({ target: n.id, code: 'dangling-output' }));
}
