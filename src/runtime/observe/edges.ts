import type { LocalCluster } from '../localCluster.ts';
import type { Recorder } from './recorder.ts';
import { finiteOrNull } from './ring.ts';
import type { EdgeObservation } from './types.ts';

/** Per edge: rate, worst channel fill, watermark, barriers in flight, kinds and a sample. */
export function observeEdges(cluster: LocalCluster, rec: Recorder): EdgeObservation[] {
  const now = rec.rateNow();
  const capacity = cluster.channelCapacity();
  const edges = cluster.plan.edges.map((e, i): EdgeObservation => {
    const r = rec.edges[i];
    return { edge: e.id, rate: r.rate(now), fill: 0, queued: 0, capacity, watermark: null, barriers: [], kinds: { ...r.kinds }, sample: r.sample.toArray() };
  });
  const minWm = new Array<number>(edges.length).fill(Infinity);
  for (const runner of cluster.subtasks()) {
    for (const ch of runner.inputChannels()) {
      const o = edges[ch.edge];
      o.queued += ch.queued;
      o.fill = Math.max(o.fill, Math.min(1, ch.queued / capacity));
      minWm[ch.edge] = Math.min(minWm[ch.edge], ch.watermark);
      // A barrier at the head of the queue has nearly arrived; one behind a full queue has just left.
      for (const b of ch.barriers) o.barriers.push({ checkpointId: b.checkpointId, progress: 1 - b.position / Math.max(capacity, ch.queued) });
    }
  }
  edges.forEach((o, i) => (o.watermark = finiteOrNull(minWm[i])));
  return edges;
}
