import type { Rng } from '../core/rng.ts';

// Pipelines whose upsert views run chained behind their GROUP BY (runtime/chaining.ts), with
// random input that stresses the columns: shared by the in-process and the threaded tests.

type Doc = Record<string, unknown>;
const edge = (from: string, to: string) => ({ from: { node: from, port: 'out' }, to: { node: to, port: 'in' } });

/** Amounts with the values that break naive sums: NULL, NaN, ±Infinity, -0, text (a dead letter in SUM). */
function amount(rng: Rng): unknown {
  const r = rng.int(40);
  if (r === 0) return null;
  if (r === 1) return Number.NaN;
  if (r === 2) return rng.int(2) ? Infinity : -Infinity;
  if (r === 3) return -0;
  if (r === 4) return 'oops';
  return (rng.int(2000) - 1000) / 8;
}

export function chainingRows(rng: Rng, n: number, keys: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({ k: rng.int(12) === 0 ? null : `k${rng.int(keys)}`, g: rng.int(3), amount: amount(rng), ts: i * 10 }));
}

/**
 * Two chainable branches off one source: a GROUP BY over the raw stream, and a GROUP BY over a
 * GROUP BY's changelog (its input retracts: every count change moves a key from one group to
 * another), each into an upsert view keyed by its GROUP BY.
 */
export function chainingDoc(rows: Record<string, unknown>[], parallelism: number): Doc {
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'chaining',
    settings: { parallelism: 1 },
    nodes: [
      { id: 'src', kind: 'inlineSource', params: { rows, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } },
      { id: 'by_k', kind: 'keyBy', params: { key: ['k'] }, parallelism },
      { id: 'totals', kind: 'aggregate', params: { groupBy: ['k'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'avg', field: 'amount', as: 'mean' }] }, parallelism },
      { id: 'view', kind: 'viewSink', params: {}, parallelism },
      { id: 'per_key', kind: 'aggregate', params: { groupBy: ['k', 'g'], aggregates: [{ fn: 'count', as: 'c' }] }, parallelism },
      { id: 'by_count', kind: 'aggregate', params: { groupBy: ['c'], aggregates: [{ fn: 'count', as: 'keys' }, { fn: 'sum', field: 'g', as: 'gs' }] }, parallelism },
      { id: 'histogram', kind: 'viewSink', params: { primaryKey: ['c'] }, parallelism },
    ],
    edges: [edge('src', 'by_k'), edge('by_k', 'totals'), edge('totals', 'view'), edge('src', 'per_key'), edge('per_key', 'by_count'), edge('by_count', 'histogram')],
  };
}

