import { keyedCountDoc } from '../lib/keyedCountDoc.ts';

type Doc = { nodes: { id: string; kind: string; params: Record<string, unknown>; parallelism?: number }[] };

/**
 * The reference keyed count (source → keyBy → GROUP BY count+sum → view) for worker threads: the
 * source holds its rows inline (readers cannot cross to a worker), the aggregate and the view run
 * at `parallelism`.
 */
export function threadedKeyedCountDoc(events: number, keys: number, parallelism: number): unknown {
  const doc = keyedCountDoc() as Doc;
  const rows = Array.from({ length: events }, (_, i) => ({ key: (i * 7919) % keys, amount: i % 100 }));
  for (const n of doc.nodes) {
    if (n.id === 'events') Object.assign(n, { kind: 'inlineSource', params: { ...n.params, rows } });
    if (n.id === 'totals' || n.id === 'view') n.parallelism = parallelism;
  }
  return doc;
}
