import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import { compile } from '../../pipeline/compile.ts';

const byScore = { partitionBy: ['cat'], orderBy: [{ field: 'score', direction: 'desc' }], n: 2 };
const updating = { inputs: { in: { changelog: 'update' as const } } };
const r = (id: string, score: number | null, cat = 'a') => ({ cat, id, score });

describe('topN on an append-only input', () => {
  it('emits +I for a gained rank and -U/+U for each rank whose row changed', () => {
    const h = new OperatorHarness('topN', byScore);
    h.processElement(r('p', 5));
    h.processElement(r('q', 7));
    h.processElement(r('s', 6));
    h.processElement(r('t', 1));
    h.processElement(r('u', 9, 'b'));
    expect(h.lines()).toEqual([
      '+I {"cat":"a","id":"p","score":5,"rownum":1}',
      '-U {"cat":"a","id":"p","score":5,"rownum":1}',
      '+U {"cat":"a","id":"q","score":7,"rownum":1}',
      '+I {"cat":"a","id":"p","score":5,"rownum":2}',
      '-U {"cat":"a","id":"p","score":5,"rownum":2}',
      '+U {"cat":"a","id":"s","score":6,"rownum":2}',
      '+I {"cat":"b","id":"u","score":9,"rownum":1}',
    ]);
    // Only n rows per partition are kept.
    expect((h.task.operator.inspect?.() as { partitions: { rowsHeld: number }[] }).partitions.map((p) => p.rowsHeld)).toEqual([2, 1]);
  });

  it('breaks ties by arrival order: an equal row never overtakes an earlier one', () => {
    const h = new OperatorHarness('topN', { ...byScore, n: 3, rankField: 'rk' });
    h.processElement(r('p', 5)).processElement(r('q', 5)).processElement(r('s', 6)).processElement(r('t', 5));
    expect(h.lines()).toEqual([
      '+I {"cat":"a","id":"p","score":5,"rk":1}',
      '+I {"cat":"a","id":"q","score":5,"rk":2}',
      '-U {"cat":"a","id":"p","score":5,"rk":1}',
      '+U {"cat":"a","id":"s","score":6,"rk":1}',
      '-U {"cat":"a","id":"q","score":5,"rk":2}',
      '+U {"cat":"a","id":"p","score":5,"rk":2}',
      '+I {"cat":"a","id":"q","score":5,"rk":3}',
    ]);
  });

  it('n = 1 keeps the single best row per partition; NULL sorts last descending and first ascending', () => {
    const desc = new OperatorHarness('topN', { ...byScore, n: 1 });
    desc.processElement(r('p', null)).processElement(r('q', 3)).processElement(r('s', 2));
    expect(desc.lines()).toEqual(['+I {"cat":"a","id":"p","score":null,"rownum":1}', '-U {"cat":"a","id":"p","score":null,"rownum":1}', '+U {"cat":"a","id":"q","score":3,"rownum":1}']);
    const asc = new OperatorHarness('topN', { partitionBy: [], orderBy: [{ field: 'score', direction: 'asc' }], n: 1 });
    asc.processElement(r('q', 3)).processElement(r('p', null)).processElement(r('s', 2));
    expect(asc.lines()).toEqual(['+I {"cat":"a","id":"q","score":3,"rownum":1}', '-U {"cat":"a","id":"q","score":3,"rownum":1}', '+U {"cat":"a","id":"p","score":null,"rownum":1}']);
  });

  it('uses later orderBy entries to break ties of earlier ones', () => {
    const h = new OperatorHarness('topN', { partitionBy: [], orderBy: [{ field: 'score', direction: 'desc' }, { field: 'id', direction: 'asc' }], n: 2 });
    h.processElement(r('z', 5)).processElement(r('b', 5));
    expect(h.output().at(-1)?.row).toEqual({ cat: 'a', id: 'z', score: 5, rownum: 2 });
  });

  it('dead-letters a retraction, which an append-only input should not carry', () => {
    const h = new OperatorHarness('topN', byScore);
    h.processElement(r('p', 5)).processElement(r('p', 5), { kind: '-D' });
    expect(h.lines()).toHaveLength(1);
    expect(h.deadLetters[0].reason).toMatch(/append-only/);
  });
});

describe('topN on an updating input', () => {
  it('keeps every row so that a retraction promotes the next one', () => {
    const h = new OperatorHarness('topN', byScore, updating);
    h.processElement(r('x', 10)).processElement(r('y', 8)).processElement(r('z', 5));
    h.processElement(r('x', 10), { kind: '-D' });
    h.processElement(r('z', 5), { kind: '-D' });
    h.processElement(r('y', 8), { kind: '-U' }).processElement(r('y', 3), { kind: '+U' });
    h.processElement(r('y', 3), { kind: '-D' });
    expect(h.lines()).toEqual([
      '+I {"cat":"a","id":"x","score":10,"rownum":1}',
      '+I {"cat":"a","id":"y","score":8,"rownum":2}',
      // x leaves: y moves up, z comes in from below the top 2
      '-U {"cat":"a","id":"x","score":10,"rownum":1}',
      '+U {"cat":"a","id":"y","score":8,"rownum":1}',
      '-U {"cat":"a","id":"y","score":8,"rownum":2}',
      '+U {"cat":"a","id":"z","score":5,"rownum":2}',
      // z leaves and nothing is below it
      '-D {"cat":"a","id":"z","score":5,"rownum":2}',
      // y is updated: -U empties the partition, +U brings it back
      '-D {"cat":"a","id":"y","score":8,"rownum":1}',
      '+I {"cat":"a","id":"y","score":3,"rownum":1}',
      '-D {"cat":"a","id":"y","score":3,"rownum":1}',
    ]);
    expect(h.task.state.keys('sorted')).toEqual([]);
  });

  it('removes one copy of duplicate rows and emits nothing when the top n does not change', () => {
    const h = new OperatorHarness('topN', { ...byScore, n: 1 }, updating);
    h.processElement(r('x', 10)).processElement(r('x', 10)).processElement(r('x', 10), { kind: '-D' });
    expect(h.lines()).toEqual(['+I {"cat":"a","id":"x","score":10,"rownum":1}']);
    h.processElement(r('x', 10), { kind: '-D' });
    expect(h.lines().at(-1)).toBe('-D {"cat":"a","id":"x","score":10,"rownum":1}');
  });

  it('matches a retraction to a row with equal content, even a copy with keys in another order', () => {
    const h = new OperatorHarness('topN', byScore, updating);
    h.processElement({ cat: 'a', id: 'x', score: 1, tags: ['k'] });
    h.processElement({ tags: ['k'], score: 1, id: 'x', cat: 'a' }, { kind: '-D' });
    h.processElement(r('q', 1), { kind: '-D' });
    expect(h.output().map((e) => e.kind)).toEqual(['+I', '-D']);
    expect(h.deadLetters.map((d) => d.reason)).toEqual(['-D for a row the partition does not hold']);
  });
});

describe('topN snapshots and pipelines', () => {
  it('restores from a snapshot into a fresh operator and continues identically', () => {
    for (const opts of [{}, updating]) {
      const rows = Array.from({ length: 60 }, (_, i) => r(`id${i}`, (i * 37) % 23, `c${i % 3}`));
      const a = new OperatorHarness('topN', { ...byScore, n: 3 }, opts);
      const b = new OperatorHarness('topN', { ...byScore, n: 3 }, opts);
      rows.slice(0, 30).forEach((x) => a.processElement(x));
      const restored = a.restored(a.snapshot());
      rows.forEach((x) => b.processElement(x));
      rows.slice(30).forEach((x) => restored.processElement(x));
      if (opts === updating) rows.slice(0, 20).forEach((x) => (restored.processElement(x, { kind: '-D' }), b.processElement(x, { kind: '-D' })));
      expect(restored.lines()).toEqual(b.lines().slice(a.output().length));
      expect(restored.deadLetters).toEqual([]);
    }
  });

  it('keeps the top 2 products per category in a view', () => {
    const rows = [r('p', 5), r('q', 7), r('s', 6, 'b'), r('t', 9), r('u', 1, 'b'), r('v', 8, 'b')];
    const run = runPipeline({
      format: 'weir/pipeline',
      version: 1,
      name: 'top2',
      nodes: [
        { id: 'src', kind: 'inlineSource', params: { rows } },
        { id: 'top', kind: 'topN', params: byScore },
        { id: 'view', kind: 'viewSink', params: {} },
      ],
      edges: [
        { from: { node: 'src', port: 'out' }, to: { node: 'top', port: 'in' } },
        { from: { node: 'top', port: 'out' }, to: { node: 'view', port: 'in' } },
      ],
    });
    expect(run.views.view).toEqual([
      { cat: 'a', id: 't', score: 9, rownum: 1 },
      { cat: 'a', id: 'q', score: 7, rownum: 2 },
      { cat: 'b', id: 'v', score: 8, rownum: 1 },
      { cat: 'b', id: 's', score: 6, rownum: 2 },
    ]);
    expect(run.plan.nodes.find((n) => n.id === 'top')?.outputs.out).toMatchObject({ changelog: 'update', uniqueKey: ['cat', 'rownum'] });
  });

  it('ranks the changelog of an aggregate (updating input) end to end', () => {
    const sales = [
      { store: 's1', amount: 5 },
      { store: 's2', amount: 4 },
      { store: 's3', amount: 3 },
      { store: 's3', amount: 3 },
      { store: 's1', amount: 2 },
    ];
    const run = runPipeline({
      format: 'weir/pipeline',
      version: 1,
      name: 'best-stores',
      nodes: [
        { id: 'src', kind: 'inlineSource', params: { rows: sales } },
        { id: 'agg', kind: 'aggregate', params: { groupBy: ['store'], aggregates: [{ fn: 'sum', field: 'amount', as: 'revenue' }] } },
        { id: 'top', kind: 'topN', params: { partitionBy: [], orderBy: [{ field: 'revenue', direction: 'desc' }], n: 2 } },
        { id: 'view', kind: 'viewSink', params: {} },
      ],
      edges: [
        { from: { node: 'src', port: 'out' }, to: { node: 'agg', port: 'in' } },
        { from: { node: 'agg', port: 'out' }, to: { node: 'top', port: 'in' } },
        { from: { node: 'top', port: 'out' }, to: { node: 'view', port: 'in' } },
      ],
    });
    expect(run.deadLetters).toEqual([]);
    expect(run.views.view).toEqual([
      { store: 's1', revenue: 7, rownum: 1 },
      { store: 's3', revenue: 6, rownum: 2 },
    ]);
  });

  it('reports unknown fields and a rank column that clashes with an input field', () => {
    const { problems } = compile({
      format: 'weir/pipeline',
      version: 1,
      name: 'bad',
      nodes: [
        { id: 'src', kind: 'inlineSource', params: { rows: [r('p', 1)] } },
        { id: 'top', kind: 'topN', params: { partitionBy: ['nope'], orderBy: [{ field: 'missing', direction: 'asc' }], n: 1, rankField: 'score' } },
        { id: 'view', kind: 'viewSink', params: {} },
      ],
      edges: [
        { from: { node: 'src', port: 'out' }, to: { node: 'top', port: 'in' } },
        { from: { node: 'top', port: 'out' }, to: { node: 'view', port: 'in' } },
      ],
    });
    expect(problems.map((p) => [p.field, p.code])).toEqual([
      ['params.partitionBy[0]', 'unknown-field'],
      ['params.orderBy[0].field', 'unknown-field'],
      ['params.rankField', 'duplicate-column'],
    ]);
  });
});

describe('topN with RANK and DENSE_RANK', () => {
  const final = (lines: string[]) => {
    // Replays the changelog into the multiset of rows it leaves.
    const held: string[] = [];
    for (const l of lines) {
      const [kind, row] = [l.slice(0, 2), l.slice(3)];
      if (kind === '+I' || kind === '+U') held.push(row);
      else held.splice(held.indexOf(row), 1);
    }
    return held.sort();
  };

  it('gives ties one rank and keeps every row ranked within n, on an append-only input', () => {
    const rank = new OperatorHarness('topN', { ...byScore, rankFunction: 'rank' });
    const dense = new OperatorHarness('topN', { ...byScore, rankFunction: 'denseRank' });
    for (const h of [rank, dense]) h.processElement(r('p', 5)).processElement(r('q', 7)).processElement(r('s', 7)).processElement(r('t', 5)).processElement(r('u', 1));
    // RANK: 7, 7 share rank 1 and take rank 2, so the fives rank 3 and drop out.
    expect(final(rank.lines())).toEqual(['{"cat":"a","id":"q","score":7,"rownum":1}', '{"cat":"a","id":"s","score":7,"rownum":1}']);
    // DENSE_RANK: the fives rank 2 and stay.
    expect(final(dense.lines())).toEqual([
      '{"cat":"a","id":"p","score":5,"rownum":2}',
      '{"cat":"a","id":"q","score":7,"rownum":1}',
      '{"cat":"a","id":"s","score":7,"rownum":1}',
      '{"cat":"a","id":"t","score":5,"rownum":2}',
    ]);
    expect((dense.task.operator.inspect?.() as { partitions: { rowsHeld: number }[] }).partitions[0].rowsHeld).toBe(4);
  });

  it('re-ranks the rows behind a retracted tie, on an updating input', () => {
    const h = new OperatorHarness('topN', { ...byScore, rankFunction: 'rank' }, updating);
    h.processElement(r('p', 9)).processElement(r('q', 9)).processElement(r('s', 4));
    expect(final(h.lines())).toEqual(['{"cat":"a","id":"p","score":9,"rownum":1}', '{"cat":"a","id":"q","score":9,"rownum":1}']);
    h.processElement(r('q', 9), { kind: '-D' });
    expect(final(h.lines())).toEqual(['{"cat":"a","id":"p","score":9,"rownum":1}', '{"cat":"a","id":"s","score":4,"rownum":2}']);
  });
});
