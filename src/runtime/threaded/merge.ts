import type { EdgeFill, WorkerStats } from './protocol.ts';
import type { JobStats } from './jobOptions.ts';

/** Sums per-worker stats into per-node metrics and per-edge queue fill. */
export function mergeStats(workers: readonly WorkerStats[]): Pick<JobStats, 'nodes' | 'edges'> {
  const nodes: JobStats['nodes'] = {};
  const edges = new Map<string, EdgeFill>();
  for (const w of workers) {
    for (const [id, m] of Object.entries(w.nodes)) {
      const prev = nodes[id];
      if (!prev) {
        nodes[id] = { ...m, counters: { ...m.counters } };
        continue;
      }
      prev.recordsIn += m.recordsIn;
      prev.recordsOut += m.recordsOut;
      prev.deadLetters += m.deadLetters;
      prev.timers += m.timers;
      prev.subtasks += m.subtasks;
      prev.watermark = Math.min(prev.watermark, m.watermark);
      for (const [k, v] of Object.entries(m.counters)) prev.counters[k] = (prev.counters[k] ?? 0) + v;
    }
    for (const e of w.edges) {
      const prev = edges.get(e.edge);
      if (!prev) edges.set(e.edge, { ...e });
      else {
        prev.queued += e.queued;
        prev.capacity += e.capacity;
        prev.inFlight += e.inFlight;
        prev.maxQueued = Math.max(prev.maxQueued, e.maxQueued);
        prev.maxInFlight = Math.max(prev.maxInFlight, e.maxInFlight);
      }
    }
  }
  return { nodes, edges: [...edges.values()] };
}

/** Source progress: per source node the slowest subtask's offset, summed over sources. */
export function sourceProgress(offsets: Iterable<Record<string, number>>): number {
  const byNode = new Map<string, number>();
  for (const o of offsets) {
    for (const [subtask, offset] of Object.entries(o)) {
      const node = subtask.slice(0, subtask.lastIndexOf('#'));
      byNode.set(node, Math.min(byNode.get(node) ?? Infinity, offset));
    }
  }
  let sum = 0;
  for (const v of byNode.values()) sum += v;
  return sum;
}
