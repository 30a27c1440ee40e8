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


/** Integer-like keys that a key index must tell apart or treat alike: 0 and -0, beyond int32, fractions, NaN, NULL. */
const NUMERIC_KEYS: unknown[] = [0, -0, 1, -1, 7, 2 ** 31, -(2 ** 31), 1.5, Number.NaN, null];

/** Rows keyed by numbers, several per key and with -0 in the second GROUP BY field, so group-by values change under a kept key. */
export function numericKeyRows(rng: Rng, n: number, keys: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({
    k: rng.int(5) === 0 ? rng.pick(NUMERIC_KEYS) : rng.int(keys) - (keys >> 2),
    g: rng.int(4) === 0 ? -0 : rng.int(2),
    amount: amount(rng),
    ts: i * 10,
  }));
}

/**
 * Numeric GROUP BY keys into upsert views: one field (k), two fields (k, g), and a GROUP BY over
 * the first one's changelog (an updating input: each count change retracts a row of the old count).
 */
export function numericKeyDoc(rows: Record<string, unknown>[], parallelism: number): Doc {
  const agg = (id: string, groupBy: string[], aggregates: unknown[]) => ({ id, kind: 'aggregate', params: { groupBy, aggregates }, parallelism });
  const view = (id: string, primaryKey: string[]) => ({ id, kind: 'viewSink', params: { primaryKey }, parallelism });
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'numeric_keys',
    settings: { parallelism: 1 },
    nodes: [
      { id: 'src', kind: 'inlineSource', params: { rows, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } },
      { id: 'by_k', kind: 'keyBy', params: { key: ['k'] }, parallelism },
      agg('totals', ['k'], [{ fn: 'count', as: 'n' }, { fn: 'avg', field: 'amount', as: 'mean' }]),
      view('view', ['k']),
      agg('pairs', ['k', 'g'], [{ fn: 'count', field: 'amount', as: 'c' }, { fn: 'sum', field: 'amount', as: 's' }]),
      view('pair_view', ['k', 'g']),
      // Integers only past the first GROUP BY: at p > 1 its changes arrive in the schedule's order, and float sums depend on it.
      agg('counts', ['k'], [{ fn: 'count', as: 'n' }, { fn: 'count', field: 'amount', as: 'c' }]),
      agg('by_n', ['n'], [{ fn: 'count', as: 'keys' }, { fn: 'sum', field: 'c', as: 'sum_c' }]),
      view('n_view', ['n']),
    ],
    edges: [edge('src', 'by_k'), edge('by_k', 'totals'), edge('totals', 'view'), edge('src', 'pairs'), edge('pairs', 'pair_view'), edge('src', 'counts'), edge('counts', 'by_n'), edge('by_n', 'n_view')],
  };
}
