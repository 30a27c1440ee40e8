import type { CheckpointRecord } from '../../checkpoint/types.ts';

export const durationOf = (c: CheckpointRecord): number | null => (c.completedAt === null ? null : c.completedAt - c.triggeredAt);

/** Widths (0..1) of each checkpoint's trigger→complete bar relative to the slowest one. */
export function durationBars(cps: CheckpointRecord[]): Map<number, number> {
  const max = Math.max(1, ...cps.map((c) => durationOf(c) ?? 0));
  return new Map(cps.map((c) => [c.checkpointId, Math.max(0.02, (durationOf(c) ?? 0) / max)]));
}

/** Sums a checkpoint's per-subtask timings per operator, for the expandable row. */
export function perOperator(c: CheckpointRecord): { node: string; subtasks: number; alignMs: number; syncMs: number; asyncMs: number; stateBytes: number; writtenBytes: number; buffered: number }[] {
  const by = new Map<string, ReturnType<typeof perOperator>[number]>();
  for (const s of c.stats) {
    const node = s.subtask.slice(0, s.subtask.lastIndexOf('#'));
    const o = by.get(node) ?? { node, subtasks: 0, alignMs: 0, syncMs: 0, asyncMs: 0, stateBytes: 0, writtenBytes: 0, buffered: 0 };
    o.subtasks++;
    // Subtasks run in parallel: the operator is as slow as its slowest subtask.
    o.alignMs = Math.max(o.alignMs, s.alignMs);
    o.syncMs = Math.max(o.syncMs, s.syncMs);
    o.asyncMs = Math.max(o.asyncMs, s.asyncMs);
    o.stateBytes += s.stateBytes;
    o.writtenBytes += s.writtenBytes;
    o.buffered += s.bufferedDuringAlignment;
    by.set(node, o);
  }
  return [...by.values()];
}

/** Two picked checkpoints in order (older first) for a diff, or null until two are picked. */
export function diffPair(picked: number[]): [number, number] | null {
  if (picked.length !== 2) return null;
  const [a, b] = [...picked].sort((x, y) => x - y);
  return [a, b];
}

/** Picking a third checkpoint drops the oldest pick, so the diff always compares the last two. */
export const togglePick = (picked: number[], id: number): number[] => (picked.includes(id) ? picked.filter((p) => p !== id) : [...picked, id].slice(-2));

/** The engine keeps this many completed checkpoints unless the pipeline says otherwise (clusterSession's default). */
export const DEFAULT_RETAIN = 5;

/** Ids of the checkpoints still retained: the newest `retain` completed ones; only these can be restored or diffed. */
export function retainedIds(cps: CheckpointRecord[], retain: number): Set<number> {
  return new Set(cps.filter((c) => c.status === 'completed').map((c) => c.checkpointId).sort((a, b) => a - b).slice(-Math.max(1, retain)));
}

/** A row's React key: after a restore the ids after the restored checkpoint are produced again, the trigger time tells them apart. */
export const checkpointKey = (c: CheckpointRecord): string => `${c.checkpointId}@${c.triggeredAt}`;
