import type { PipelineDocument } from '../../pipeline/document.ts';
import type { RunSnapshot } from '../../worker/protocol.ts';
import type { LessonEvents } from './types.ts';

const ttlTag = (doc: PipelineDocument, node: string): string => {
  const ttl = doc.nodes.find((n) => n.id === node)?.params.ttlMs;
  return typeof ttl === 'number' && ttl > 0 ? String(ttl) : 'none';
};

/**
 * Folds one new run snapshot into what the lesson has seen so far. Pure: the previous snapshot
 * tells a new run (status back to running) from a rewind (records going backwards in one run).
 */
export function noteSnapshot(ev: LessonEvents, prev: RunSnapshot | null, next: RunSnapshot | null, doc: PipelineDocument, frame = next?.frame ?? null): LessonEvents {
  if (!next || next === prev) return ev;
  const out: LessonEvents = { ...ev };
  const wasRunning = prev?.status === 'running';
  const sameRun = !!prev && prev.status !== 'idle' && prev.status !== 'finished' && prev.status !== 'failed';
  if (next.status === 'running' && !wasRunning && !(prev?.status === 'paused')) out.runs = ev.runs + 1;
  if (next.status === 'finished' && prev?.status !== 'finished') out.finished = [...ev.finished, { backend: doc.settings?.stateBackend ?? 'memory', records: next.records }];
  const restartsBefore = sameRun ? (prev?.restarts ?? 0) : 0;
  if ((next.restarts ?? 0) > restartsBefore) out.restarts = ev.restarts + (next.restarts - restartsBefore);
  if (sameRun && prev && next.records < prev.records) out.rewinds = ev.rewinds + 1;
  out.checkpoints = Math.max(ev.checkpoints, next.checkpoints);
  const f = frame;
  if (f) {
    if (!ev.barrierSeen && (f.edges.some((e) => e.barriers.length > 0) || f.inFlightCheckpoint !== null)) out.barrierSeen = true;
    if (!ev.alignmentSeen && f.nodes.some((n) => n.subtasks.some((s) => s.aligning !== null))) out.alignmentSeen = true;
    let peaks = ev.peakKeys;
    let spread = ev.spread;
    for (const n of f.nodes) {
      const tag = `${n.node}|${ttlTag(doc, n.node)}`;
      if (n.keys > (peaks[tag] ?? -1)) peaks = { ...peaks, [tag]: n.keys };
      if (n.subtasks.length > 0 && n.keys > 0) spread = { ...spread, [n.node]: { ...spread[n.node], [n.subtasks.length]: n.subtasks.map((s) => s.keys) } };
    }
    out.peakKeys = peaks;
    out.spread = spread;
  }
  return out;
}

/** The learner opened a dialog (the Flink SQL export, say). */
export function noteDialog(ev: LessonEvents, dialog: string | null): LessonEvents {
  return dialog && !ev.dialogs.includes(dialog) ? { ...ev, dialogs: [...ev.dialogs, dialog] } : ev;
}
