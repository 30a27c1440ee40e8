import type { NodeMetrics } from '../engine/nodeTask.ts';
import type { DeadLetter } from '../core/types.ts';
import type { LocalCluster } from '../runtime/localCluster.ts';
import type { NodeCounts } from './loadWindow.ts';

/**
 * Records a source subtask has read: with parallelism p, subtask i reads the positions ≡ i (mod p)
 * of the underlying source and its offset is the position there (see runtime/sourceSplit.ts).
 */
export function recordsBelow(offset: number, index: number, parallelism: number): number {
  return offset > index ? Math.floor((offset - index - 1) / parallelism) + 1 : 0;
}

/** Source records read by the whole job so far: right again after a restore, since offsets go back. */
export function recordsRead(cluster: LocalCluster): number {
  let n = 0;
  for (const r of cluster.subtasks()) if (r.source) n += recordsBelow(r.source.offset(), r.index, r.node.parallelism) + r.injectedRead();
  return n;
}

/** Records one source subtask sent: those below its offset, the injected ones included. */
const sourceSent = (r: ReturnType<LocalCluster['subtasks']>[number]): number => recordsBelow(r.source!.offset(), r.index, r.node.parallelism) + r.injectedRead();

/**
 * Per node, the subtasks' metrics merged: counts add up, the watermark is the slowest subtask's.
 * Counts are the whole run's as the restored state has them: after a restart or a restore they
 * are the counts at that checkpoint (the operators restore theirs, a source's offset goes back),
 * and go on from there, so they always agree with the state, the views and the records read.
 */
export function clusterMetrics(cluster: LocalCluster, dead: readonly DeadLetter[]): Record<string, NodeMetrics> {
  const deadByNode = new Map<string, number>();
  for (const d of dead) deadByNode.set(d.nodeId, (deadByNode.get(d.nodeId) ?? 0) + 1);
  const out: Record<string, NodeMetrics> = {};
  for (const r of cluster.subtasks()) {
    const id = r.node.id;
    const m = (out[id] ??= { recordsIn: 0, recordsOut: 0, watermark: Infinity, counters: {}, deadLetters: deadByNode.get(id) ?? 0, timers: 0 });
    if (r.source) {
      m.recordsOut += sourceSent(r);
      m.watermark = Math.min(m.watermark, r.source.watermark());
    } else if (r.task) {
      const t = r.task.metrics(0);
      m.recordsIn += t.recordsIn;
      m.recordsOut += t.recordsOut;
      m.timers += t.timers;
      m.watermark = Math.min(m.watermark, t.watermark);
      for (const [k, v] of Object.entries(t.counters)) m.counters[k] = (m.counters[k] ?? 0) + v;
    }
  }
  // Dead letters of a source are records it read but could not emit.
  for (const n of cluster.plan.nodes) if (n.isSource && out[n.id]) out[n.id].recordsOut = Math.max(0, out[n.id].recordsOut - out[n.id].deadLetters);
  return out;
}

/**
 * Per node, the cumulative counts its load figures are the rates of: the node's own in/out (the
 * numbers of `clusterMetrics`, so a rate and its count always agree) and, per subtask, busy and
 * backpressured ms with its own in/out. Null when the cluster measures no load.
 */
export function loadCounts(cluster: LocalCluster, metrics: Record<string, NodeMetrics>): Record<string, NodeCounts> | null {
  const times = cluster.loadTimes();
  if (!times) return null;
  const out: Record<string, NodeCounts> = {};
  for (const r of cluster.subtasks()) {
    const m = metrics[r.node.id];
    const n = (out[r.node.id] ??= { recordsIn: m?.recordsIn ?? 0, recordsOut: m?.recordsOut ?? 0, subtasks: [] });
    const t = times.get(r.id) ?? { busyMs: 0, backpressuredMs: 0 };
    const sent = r.source ? sourceSent(r) : (r.task?.recordsOut ?? 0);
    n.subtasks.push({ id: r.id, busyMs: t.busyMs, backpressuredMs: t.backpressuredMs, recordsIn: r.task?.recordsIn ?? 0, recordsOut: sent });
  }
  return out;
}
