import type { PipelineDocument } from '../../pipeline/document.ts';
import type { ObservationFrame } from '../../runtime/observe/types.ts';

/**
 * Subtasks a kill can target, `node#i`: the observatory's live ones when it has a frame,
 * otherwise every subtask the document's parallelism implies (sources included: they fail too).
 */
export function liveSubtasks(frame: ObservationFrame | null, doc: PipelineDocument): string[] {
  if (frame?.nodes.length) return frame.nodes.flatMap((n) => n.subtasks.filter((s) => s.alive).map((s) => s.id));
  const fallback = doc.settings?.parallelism ?? 1;
  return doc.nodes.flatMap((n) => Array.from({ length: n.parallelism ?? fallback }, (_, i) => `${n.id}#${i}`));
}
