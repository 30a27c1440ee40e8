/** The keyed count the threaded probes run: inline rows → GROUP BY count+sum at `parallelism` → view. */
export function threadedKeyedCountDoc(events: number, keys: number, parallelism: number): unknown {
  const rows = Array.from({ length: events }, (_, i) => ({ key: (i * 7919) % keys, amount: i % 100 }));
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'bench_threaded_keyed_count',
    settings: { stateBackend: 'memory', parallelism: 1, seed: 1 },
    nodes: [
      { id: 'events', kind: 'inlineSource', params: { rows, schema: { key: 'integer', amount: 'number' } } },
      { id: 'totals', kind: 'aggregate', parallelism, params: { groupBy: ['key'], aggregates: [{ fn: 'count', as: 'cnt' }, { fn: 'sum', field: 'amount', as: 'total' }] } },
      { id: 'view', kind: 'viewSink', parallelism, params: { primaryKey: ['key'] } },
    ],
    edges: [
      { id: 'e1', from: { node: 'events', port: 'out' }, to: { node: 'totals', port: 'in' } },
      { id: 'e2', from: { node: 'totals', port: 'out' }, to: { node: 'view', port: 'in' } },
    ],
  };
}
