import type { SinkOperator } from '../../engine/operators/sinks.ts';
import type { Row } from '../../core/types.ts';
import type { LocalCluster } from '../localCluster.ts';
import type { Recorder } from './recorder.ts';
import type { ObserveRequest, QueryObservation } from './types.ts';

/** A pull query never returns more rows than this (a key usually matches one). */
const PULL_LIMIT = 100;

/** Pull: the sink's current rows matching every field of `key`. Push: its changelog since subscribe. */
export function observeQuery(cluster: LocalCluster, rec: Recorder, q: NonNullable<ObserveRequest['query']>): QueryObservation {
  rec.subscribe(q.push ? q.sink : null);
  const node = cluster.plan.nodes.find((n) => n.id === q.sink);
  if (!node?.isSink) throw new Error(`query: "${q.sink}" is not a sink of the running job; pick a sink node`);
  const rows: Row[] = [];
  const key = q.key;
  for (const r of cluster.subtasksOf(q.sink)) {
    const sink = r.task?.operator as SinkOperator | undefined;
    if (!sink?.rows) continue;
    for (const row of sink.rows()) {
      if (rows.length >= PULL_LIMIT) break;
      if (!key || Object.entries(key).every(([f, v]) => row[f] === v)) rows.push(row);
    }
  }
  return { sink: q.sink, rows, changes: q.push ? rec.pushChanges.toArray() : [] };
}
