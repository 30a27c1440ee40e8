// The latency bench's job (paced source → keyed count with a schedule stamp → view), for
// fault-injection tests under CPU load. Every record makes exactly one +I or +U in the view.

export function latencyJobDoc(o: { records: number; ratePerSec: number; keys: number; parallelism: number; run: number }) {
  const rows = Array.from({ length: o.records }, (_, i) => ({ i, key: i % o.keys, amount: i % 100 }));
  const step = 1000 / o.ratePerSec;
  const pace = `(row) => {
    const g = globalThis, now = () => performance.timeOrigin + performance.now();
    if (g.__weirPace${o.run} === undefined) g.__weirPace${o.run} = now();
    const due = g.__weirPace${o.run} + row.i * ${step};
    while (now() < due);
    return { key: row.key, amount: row.amount, t0: due };
  }`;
  return {
    format: 'weir/pipeline',
    version: 1,
    name: `latency_${o.run}`,
    nodes: [
      { id: 'src', kind: 'inlineSource', params: { rows } },
      { id: 'pace', kind: 'map', params: { code: pace } },
      { id: 'agg', kind: 'aggregate', params: { groupBy: ['key'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'sum', field: 'amount', as: 'total' }, { fn: 'max', field: 't0', as: 't0' }] }, parallelism: o.parallelism },
      { id: 'view', kind: 'viewSink', params: {}, parallelism: o.parallelism },
    ],
    edges: [
      { from: { node: 'src', port: 'out' }, to: { node: 'pace', port: 'in' } },
      { from: { node: 'pace', port: 'out' }, to: { node: 'agg', port: 'in' } },
      { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
    ],
  };
}
