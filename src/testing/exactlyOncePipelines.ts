// Pipelines shared by the runtime's unit, CLI and e2e tests: a per-key sequence check (Flink's SemanticsCheckMapper).

/** As `weir run --parallelism p`: every operator without its own gets p; sources keep one reader. */
export function withParallelism(doc: Record<string, unknown>, p: number): Record<string, unknown> {
  const nodes = doc.nodes as { kind: string; parallelism?: number }[];
  return { ...doc, nodes: nodes.map((n) => (n.kind.endsWith('Source') || n.parallelism !== undefined ? n : { ...n, parallelism: p })) };
}

/** Rows whose per-key sequence numbers let a view prove exactly-once (Flink's SemanticsCheckMapper). */
export function sequenceRows(n: number, keys: number) {
  const seq = new Map<string, number>();
  return Array.from({ length: n }, (_, i) => {
    const key = `k${(i * 7) % keys}`;
    const s = (seq.get(key) ?? 0) + 1;
    seq.set(key, s);
    return { key, seq: s, amount: (i * 13) % 100, ts: i * 10 };
  });
}

/** A map UDF that busy-waits `micros` per record: slow by the clock, so as slow on a fast machine. */
export const slowMapCode = (micros: number) => `(row) => { const end = performance.now() + ${micros / 1000}; while (performance.now() < end); return { ...row }; }`;

/**
 * inline source → map (optionally slow: `spinUs` microseconds per record) → keyed aggregate →
 * view. The aggregate's columns prove each key saw 1..n exactly once.
 */
export function exactlyOnceDoc(p: number, opts: { n?: number; keys?: number; spinUs?: number } = {}) {
  const code = opts.spinUs ? slowMapCode(opts.spinUs) : '(row) => ({ ...row })';
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'exactly-once',
    nodes: [
      { id: 'src', kind: 'inlineSource', params: { rows: sequenceRows(opts.n ?? 3000, opts.keys ?? 37), eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } },
      { id: 'work', kind: 'map', params: { code }, parallelism: p },
      { id: 'agg', kind: 'aggregate', params: { groupBy: ['key'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'max', field: 'seq', as: 'maxSeq' }, { fn: 'countDistinct', field: 'seq', as: 'distinctSeq' }, { fn: 'sum', field: 'amount', as: 'total' }] }, parallelism: p },
      { id: 'view', kind: 'viewSink', params: {}, parallelism: p },
    ],
    edges: [
      { from: { node: 'src', port: 'out' }, to: { node: 'work', port: 'in' } },
      { from: { node: 'work', port: 'out' }, to: { node: 'agg', port: 'in' } },
      { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
    ],
  };
}

/** Every key's counter advanced by exactly 1 per record: no gap, no duplicate. */
export function sequenceViolations(rows: Record<string, unknown>[]): string[] {
  return rows.filter((r) => r.n !== r.maxSeq || r.distinctSeq !== r.n).map((r) => `key ${String(r.key)}: n=${String(r.n)} maxSeq=${String(r.maxSeq)} distinct=${String(r.distinctSeq)}`);
}
