import { describe, expect, it } from 'vitest';
import { compile } from '../compile.ts';
import type { PipelineDocument } from '../document.ts';
import { loadExamples } from '../../testing/examples.ts';
import { ALL_CASES } from '../../testing/sql/cases.ts';
import { importFlinkSql } from '../../import/flinkSql/index.ts';
import { example, joinDoc, windowDoc } from '../../testing/observeDocs.ts';
import { columnGraph, refKey, traceColumn } from './columnLineage.ts';
import type { ColumnRef, LineageStep } from './columnLineage.ts';

const asDoc = (d: Record<string, unknown>) => d as unknown as PipelineDocument;
const ref = (node: string, column: string, port = 'out'): ColumnRef => ({ node, port, column });
const stepOf = (steps: LineageStep[], node: string, column: string) => steps.find((s) => s.ref.node === node && s.ref.column === column);
const src = (nodes: { id: string; kind: string; params: Record<string, unknown> }[], edges: [string, string][]): PipelineDocument => ({
  format: 'weir/pipeline',
  version: 1,
  name: 't',
  nodes,
  edges: edges.map(([a, b]) => {
    const [fn, fp] = a.split('.');
    const [tn, tp] = b.split('.');
    return { from: { node: fn, port: fp }, to: { node: tn, port: tp } };
  }),
});
const inline = (id: string, schema: Record<string, string>, eventTime?: string) => ({ id, kind: 'inlineSource', params: { schema, rows: [], ...(eventTime ? { eventTime: { field: eventTime, maxOutOfOrdernessMs: 0 } } : {}) } });

describe('column lineage of a SQL-imported document (sql-medallion)', () => {
  const doc = asDoc(example('sql-medallion.json'));
  const graph = columnGraph(doc);

  it('traces an aggregate in a view back through a renaming projection and three joins to its source column', () => {
    const t = traceColumn(graph, ref('product_sales_analysis', 'total_sold', 'in'))!;
    expect(stepOf(t.upstream, 'product_sales_analysis_aggregate', 'total_sold')!.derivation).toMatchObject({ how: 'aggregate', expr: 'SUM(quantity)' });
    expect(stepOf(t.upstream, 'order_wide_table_silver_project', 'quantity')!.derivation).toMatchObject({ how: 'copy', from: [{ port: 'in', column: 'qty' }] });
    expect(stepOf(t.upstream, 'orders', 'qty')!.derivation.how).toBe('source');
    expect([...t.nodes].sort()).toEqual(['order_wide_table_silver_join', 'order_wide_table_silver_join_2', 'order_wide_table_silver_join_3', 'order_wide_table_silver_project', 'orders', 'product_sales_analysis', 'product_sales_analysis_aggregate'].sort());
    // The other tables the joins read gave this column nothing.
    expect(t.nodes.has('customers')).toBe(false);
    expect(t.edges.has('orders.out->order_wide_table_silver_join.left')).toBe(true);
    expect(t.edges.has('customers.out->order_wide_table_silver_join.right')).toBe(false);
    expect(t.downstream).toEqual([]);
  });

  it('follows a right-side column the joins renamed twice, and names the join condition', () => {
    const s = graph.steps.get(refKey(ref('order_wide_table_silver_join_3', 'order_id_right_right')))!;
    expect(s.derivation).toMatchObject({ how: 'copy', role: 'joinKey', condition: 'left.order_id = right.order_id' });
    expect(s.inputs.map((i) => i.ref)).toEqual([ref('deliveries', 'order_id')]);
    const renamedOnce = graph.steps.get(refKey(ref('order_wide_table_silver_join_3', 'order_id_right')))!;
    expect(renamedOnce.inputs.map((i) => i.ref)).toEqual([ref('order_wide_table_silver_join_2', 'order_id_right')]);
  });

  it('an expression reads every column it names', () => {
    const t = traceColumn(graph, ref('payment_method_stats_project', 'success_rate'))!;
    expect(stepOf(t.upstream, 'payment_method_stats_project', 'success_rate')!.inputs.map((i) => i.ref.column).sort()).toEqual(['success_count', 'total_count']);
    expect(stepOf(t.upstream, 'payment_method_stats_prepare', '_arg1')!.derivation).toMatchObject({ how: 'expr', expr: "CASE WHEN courier = 'fast' THEN 1 ELSE 0 END" });
    // COUNT(*) reads no column, so the count's branch ends at the aggregate, while the sum's reaches deliveries.courier.
    expect(stepOf(t.upstream, 'payment_method_stats_aggregate', 'total_count')!.inputs).toEqual([]);
    expect(stepOf(t.upstream, 'deliveries', 'courier')).toBeDefined();
  });

  it('forward from a source column reaches every table it ends up in, and stops where it is aggregated away', () => {
    const t = traceColumn(graph, ref('orders', 'qty'))!;
    expect(t.upstream.map((s) => s.ref)).toEqual([ref('orders', 'qty')]);
    const reached = t.downstream.map((s) => `${s.ref.node}.${s.ref.column}`);
    expect(reached).toContain('product_sales_analysis_aggregate.total_sold');
    expect(reached).toContain('product_sales_analysis.total_sold');
    expect(reached).toContain('order_wide_table_silver.quantity');
    expect(t.nodes.has('payment_method_stats_filter')).toBe(true);
    expect(t.nodes.has('payment_method_stats_aggregate')).toBe(false);
    expect(t.nodes.has('customers')).toBe(false);
  });
});

describe('windows, Top-N and joins of the examples', () => {
  it('window bounds derive from the event time, the rank from its partition and ordering', () => {
    const doc = asDoc(example('top-cities.json'));
    const g = columnGraph(doc);
    const w = doc.nodes.find((n) => n.id === 'per_minute')!.params as { sizeMs: number };
    const start = g.steps.get(refKey(ref('per_minute', 'window_start')))!;
    expect(start.derivation.how).toBe('window');
    expect(start.derivation.expr).toMatch(/^TUMBLE\(\w+, /);
    expect(start.inputs.map((i) => i.ref.node)).toEqual(['orders']);
    expect(w.sizeMs).toBeGreaterThan(0);
    const top = doc.nodes.find((n) => n.kind === 'topN')!;
    const rankField = (top.params as { rankField?: string }).rankField ?? 'rownum';
    const rank = g.steps.get(refKey(ref(top.id, rankField)))!;
    expect(rank.derivation.how).toBe('rank');
    expect(rank.derivation.expr).toMatch(/^ROW_NUMBER\(\) OVER \(/);
    expect(rank.inputs.length).toBeGreaterThan(0);
  });

  it('a regular join takes each column from its own side', () => {
    const doc = asDoc(joinDoc());
    const g = columnGraph(doc);
    const join = doc.nodes.find((n) => n.kind === 'join')!;
    const p = join.params as { leftKey: string[]; rightKey: string[] };
    const key = g.steps.get(refKey(ref(join.id, p.leftKey[0])))!;
    expect(key.derivation).toMatchObject({ role: 'joinKey', condition: `left.${p.leftKey[0]} = right.${p.rightKey[0]}` });
    for (const s of [...g.steps.values()].filter((x) => x.ref.node === join.id)) expect(s.inputs).toHaveLength(1);
  });

  it('window aggregates of the windowing fixture name their call', () => {
    const doc = asDoc(windowDoc());
    const g = columnGraph(doc);
    const win = doc.nodes.find((n) => n.kind === 'window')!;
    const calls = (win.params as { aggregates: { as: string }[] }).aggregates;
    for (const c of calls) expect(g.steps.get(refKey(ref(win.id, c.as)))!.derivation.how).toMatch(/aggregate|code/);
  });
});

describe('kinds whose derivation is opaque or merged', () => {
  it('user code is named as such, not guessed, and the backward trace ends there', () => {
    const doc = src(
      [inline('s', { a: 'number', b: 'number' }), { id: 'p', kind: 'map', params: { code: '(row) => ({ c: row.a + row.b })', outputSchema: { c: 'number' } } }, { id: 'v', kind: 'viewSink', params: {} }],
      [
        ['s.out', 'p.in'],
        ['p.out', 'v.in'],
      ],
    );
    const t = traceColumn(columnGraph(doc), ref('v', 'c', 'in'))!;
    expect(stepOf(t.upstream, 'p', 'c')!.derivation).toEqual({ how: 'code', from: [] });
    expect(t.nodes.has('s')).toBe(false);
  });

  it('a union merges the same-named column of every input', () => {
    const doc = src(
      [inline('a', { k: 'string', v: 'number' }), inline('b', { k: 'string', v: 'number' }), { id: 'u', kind: 'union', params: {} }, { id: 'g', kind: 'aggregate', params: { groupBy: ['k'], aggregates: [{ fn: 'max', field: 'v', as: 'top' }] } }],
      [
        ['a.out', 'u.in'],
        ['b.out', 'u.in'],
        ['u.out', 'g.in'],
      ],
    );
    const g = columnGraph(doc);
    const t = traceColumn(g, ref('g', 'top'))!;
    expect(stepOf(t.upstream, 'u', 'v')!.derivation.how).toBe('merge');
    expect([...t.nodes].sort()).toEqual(['a', 'b', 'g', 'u']);
    expect(stepOf(t.upstream, 'g', 'top')!.derivation.expr).toBe('MAX(v)');
    expect(stepOf(t.upstream, 'g', 'k')).toBeUndefined();
    expect(g.steps.get(refKey(ref('g', 'k')))!.derivation.role).toBe('groupKey');
  });

  it('an OVER aggregate spells its frame, and a map computes over the input record', () => {
    const doc = src(
      [
        inline('s', { product: 'string', amount: 'number', ts: 'timestamp' }, 'ts'),
        { id: 'm', kind: 'map', params: { set: [{ name: 'amount', expr: 'amount * 2' }] } },
        { id: 'o', kind: 'overAggregate', params: { partitionBy: ['product'], frame: 'range', precedingMs: 3_600_000, aggregates: [{ fn: 'sum', field: 'amount', as: 'last_hour' }] } },
      ],
      [
        ['s.out', 'm.in'],
        ['m.out', 'o.in'],
      ],
    );
    const g = columnGraph(doc);
    expect(g.steps.get(refKey(ref('o', 'last_hour')))!.derivation.expr).toBe('SUM(amount) OVER (PARTITION BY product ORDER BY ts RANGE INTERVAL 1 h PRECEDING)');
    expect(g.steps.get(refKey(ref('m', 'amount')))!.derivation).toMatchObject({ how: 'expr', expr: 'amount * 2', from: [{ port: 'in', column: 'amount' }] });
    expect(g.steps.get(refKey(ref('o', 'product')))!.derivation.how).toBe('copy');
  });

  it('a window join adds the window bounds to both sides before renaming the right ones', () => {
    const doc = src(
      [
        inline('l', { id: 'string', ts: 'timestamp' }, 'ts'),
        inline('r', { id: 'string', at: 'timestamp' }, 'at'),
        { id: 'j', kind: 'windowJoin', params: { type: 'inner', leftKey: ['id'], rightKey: ['id'], window: { type: 'tumble', sizeMs: 60_000 } } },
      ],
      [
        ['l.out', 'j.left'],
        ['r.out', 'j.right'],
      ],
    );
    const g = columnGraph(doc);
    expect(g.steps.get(refKey(ref('j', 'window_start')))!.inputs.map((i) => i.ref)).toEqual([ref('l', 'ts')]);
    expect(g.steps.get(refKey(ref('j', 'window_start_right')))!.derivation).toMatchObject({ how: 'window', expr: 'TUMBLE(at, 1 min)' });
    expect(g.steps.get(refKey(ref('j', 'id_right')))!.inputs.map((i) => i.ref)).toEqual([ref('r', 'id')]);
  });
});

/** Every column the compiler infers has a derivation, and every input it names is a column upstream. */
function expectComplete(doc: PipelineDocument) {
  const { streams } = compile(doc);
  const g = columnGraph(doc, streams);
  for (const n of doc.nodes) {
    for (const [port, s] of Object.entries(streams[n.id]?.outputs ?? {})) {
      for (const f of Object.keys(s.fields ?? {})) {
        const step = g.steps.get(refKey({ node: n.id, port, column: f }));
        expect(step, `${n.id}.${port}.${f}`).toBeDefined();
        expect(step!.derivation.how, `${n.id}.${port}.${f}`).not.toBe('unknown');
        expect(step!.inputs.length, `${n.id}.${port}.${f} reads ${JSON.stringify(step!.derivation.from)}`).toBe(step!.derivation.from.length);
        for (const i of step!.inputs) expect(g.steps.has(refKey(i.ref)), `${n.id}.${f} ← ${i.ref.node}.${i.ref.column}`).toBe(true);
      }
    }
  }
}

describe('every column of every example and SQL oracle script is explained', () => {
  for (const { entry, doc } of loadExamples()) it(entry.file, () => expectComplete(asDoc(doc)));
  for (const c of ALL_CASES) {
    it(`sql: ${c.name}`, () => {
      const r = importFlinkSql(c.sql, c.name);
      expect(r.ok).toBe(true);
      if (r.ok) expectComplete(r.doc);
    });
  }
});
