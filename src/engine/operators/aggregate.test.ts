import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { runPipeline } from '../../testing/runPipeline.ts';

const params = {
  groupBy: ['store'],
  aggregates: [
    { fn: 'count', as: 'n' },
    { fn: 'sum', field: 'amount', as: 'total' },
    { fn: 'avg', field: 'amount', as: 'mean' },
    { fn: 'min', field: 'amount', as: 'low' },
    { fn: 'max', field: 'amount', as: 'high' },
    { fn: 'countDistinct', field: 'customer', as: 'customers' },
  ],
};

// These tests feed retractions by hand, so the input is declared updating (MIN/MAX then keep their multiset).
const UPDATING = { inputs: { in: { changelog: 'update' as const } } };

describe('aggregate (GROUP BY)', () => {
  it('emits +I, then -U/+U pairs, then -D when the group empties', () => {
    const h = new OperatorHarness('aggregate', params, UPDATING);
    h.processElement({ store: 'a', amount: 10, customer: 'x' });
    h.processElement({ store: 'a', amount: 4, customer: 'y' });
    h.processElement({ store: 'a', amount: 4, customer: 'y' }, { kind: '-D' });
    h.processElement({ store: 'a', amount: 10, customer: 'x' }, { kind: '-D' });
    expect(h.lines()).toEqual([
      '+I {"store":"a","n":1,"total":10,"mean":10,"low":10,"high":10,"customers":1}',
      '-U {"store":"a","n":1,"total":10,"mean":10,"low":10,"high":10,"customers":1}',
      '+U {"store":"a","n":2,"total":14,"mean":7,"low":4,"high":10,"customers":2}',
      '-U {"store":"a","n":2,"total":14,"mean":7,"low":4,"high":10,"customers":2}',
      '+U {"store":"a","n":1,"total":10,"mean":10,"low":10,"high":10,"customers":1}',
      '-D {"store":"a","n":1,"total":10,"mean":10,"low":10,"high":10,"customers":1}',
    ]);
  });

  it('ignores NULLs as SQL does and skips unchanged results', () => {
    const h = new OperatorHarness('aggregate', { groupBy: ['k'], aggregates: [{ fn: 'sum', field: 'v', as: 's' }] });
    h.processElement({ k: 1, v: null });
    h.processElement({ k: 1, v: 0 });
    h.processElement({ k: 1, v: 0 });
    expect(h.lines()).toEqual(['+I {"k":1,"s":null}', '-U {"k":1,"s":null}', '+U {"k":1,"s":0}']);
  });

  it('runs a user-defined aggregate with retraction', () => {
    const code = '({ create: () => [], add: (a, v) => [...a, v], retract: (a, v) => a.filter((x) => x !== v), get: (a) => a.join("|") })';
    const h = new OperatorHarness('aggregate', { groupBy: ['k'], aggregates: [{ fn: 'udaf', field: 'v', as: 'all', code }] });
    h.processElement({ k: 1, v: 'a' }).processElement({ k: 1, v: 'b' }).processElement({ k: 1, v: 'a' }, { kind: '-U' }).processElement({ k: 1, v: 'c' }, { kind: '+U' });
    expect(h.output().at(-1)?.row).toEqual({ k: 1, all: 'b|c' });
  });

  it('restores from a snapshot into a fresh operator and continues identically', () => {
    const a = new OperatorHarness('aggregate', params, UPDATING);
    const b = new OperatorHarness('aggregate', params, UPDATING);
    const rows = Array.from({ length: 50 }, (_, i) => ({ store: `s${i % 7}`, amount: i, customer: `c${i % 5}` }));
    rows.slice(0, 25).forEach((r) => a.processElement(r));
    const restored = a.restored(a.snapshot());
    rows.forEach((r) => b.processElement(r));
    rows.slice(25).forEach((r) => restored.processElement(r));
    expect(restored.lines()).toEqual(b.lines().slice(a.output().length));
  });

  it('keeps a view of sales by store in a pipeline', () => {
    const run = runPipeline({
      format: 'weir/pipeline',
      version: 1,
      name: 'sales',
      nodes: [
        { id: 'tx', kind: 'inlineSource', params: { rows: [{ store: 'a', amount: 3 }, { store: 'b', amount: 4 }, { store: 'a', amount: 5 }] } },
        { id: 'agg', kind: 'aggregate', params: { groupBy: ['store'], aggregates: [{ fn: 'sum', field: 'amount', as: 'revenue' }] } },
        { id: 'view', kind: 'viewSink', params: {} },
      ],
      edges: [
        { from: { node: 'tx', port: 'out' }, to: { node: 'agg', port: 'in' } },
        { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
      ],
    });
    expect(run.views.view).toEqual([
      { store: 'a', revenue: 8 },
      { store: 'b', revenue: 4 },
    ]);
  });
});
