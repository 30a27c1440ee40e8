import { describe, expect, it } from 'vitest';
import { accumulator } from './aggregates.ts';
import { seededRng } from '../core/rng.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';

describe('MIN/MAX on append-only input', () => {
  const call = { fn: 'max', field: 'x', as: 'hi' } as const;

  it('gives the same extreme as the multiset, keeping only the extreme', () => {
    const rng = seededRng(3);
    const lean = accumulator(call, true);
    const full = accumulator(call);
    let a = lean.create();
    let b = full.create();
    for (let i = 0; i < 500; i++) {
      const row = { x: rng.next() < 0.1 ? null : rng.int(1000) };
      a = lean.add(a, row);
      b = full.add(b, row);
      expect(lean.get(a)).toBe(full.get(b));
    }
    expect(a).toEqual({ values: null, best: full.get(b) });
    const merged = lean.merge(a, lean.add(lean.create(), { x: 5000 }));
    expect(lean.get(merged)).toBe(5000);
  });

  it('refuses a retraction with a message naming the call', () => {
    const lean = accumulator(call, true);
    expect(() => lean.retract(lean.add(lean.create(), { x: 1 }), { x: 1 })).toThrow(/MAX "hi".*append-only/);
  });

  it('keeps the multiset behind an updating input, where retractions find the next extreme', () => {
    const doc = {
      format: 'weir/pipeline',
      version: 1,
      name: 'max_of_counts',
      nodes: [
        { id: 'src', kind: 'inlineSource', params: { rows: [{ k: 'a', g: 1 }, { k: 'a', g: 1 }, { k: 'b', g: 1 }, { k: 'a', g: 1 }] } },
        { id: 'counts', kind: 'aggregate', params: { groupBy: ['k'], aggregates: [{ fn: 'count', as: 'n' }] } },
        { id: 'top', kind: 'aggregate', params: { groupBy: [], aggregates: [{ fn: 'max', field: 'n', as: 'most' }, { fn: 'min', field: 'n', as: 'least' }] } },
        { id: 'view', kind: 'viewSink', params: {} },
      ],
      edges: [
        { from: { node: 'src', port: 'out' }, to: { node: 'counts', port: 'in' } },
        { from: { node: 'counts', port: 'out' }, to: { node: 'top', port: 'in' } },
        { from: { node: 'top', port: 'out' }, to: { node: 'view', port: 'in' } },
      ],
    };
    const plan = planOrThrow(doc);
    expect(plan.nodes.find((n) => n.id === 'top')!.inputs.in.changelog).toBe('update');
    const r = runPipeline(doc);
    expect(r.deadLetters).toEqual([]);
    expect(r.views.view).toEqual([{ most: 3, least: 1 }]);
  });
});

describe('FIRST_VALUE/LAST_VALUE', () => {
  const first = { fn: 'firstValue', field: 'x', as: 'f' } as const;
  const last = { fn: 'lastValue', field: 'x', as: 'l' } as const;
  const feed = (call: typeof first | typeof last, appendOnly: boolean, xs: unknown[]) => {
    const acc = accumulator(call, appendOnly);
    let a = acc.create();
    for (const x of xs) a = acc.add(a, { x });
    return { acc, a };
  };

  it('skip NULLs, as Flink does, and agree with and without the retraction multiset', () => {
    const xs = [null, 4, null, 7, 4, null];
    for (const appendOnly of [true, false]) {
      const f = feed(first, appendOnly, xs);
      const l = feed(last, appendOnly, xs);
      expect([f.acc.get(f.a), l.acc.get(l.a)]).toEqual([4, 4]);
      expect(f.acc.get(f.acc.merge(f.acc.create(), f.a))).toBe(4);
      expect(l.acc.get(l.acc.merge(l.a, feed(last, appendOnly, [9]).a))).toBe(9);
    }
    expect(feed(first, true, [null, null]).a).toBeNull();
    expect(() => feed(first, true, [1]).acc.retract(1, { x: 1 })).toThrow(/FIRST_VALUE.*append-only/);
  });

  it('a retraction removes the earliest copy of its value (Flink\'s FirstValueWithRetractAggFunction)', () => {
    const { acc, a } = feed(first, false, ['a', 'b', 'a']);
    const after = acc.retract(a, { x: 'a' });
    expect(after).toEqual(['b', 'a']);
    expect(acc.get(after)).toBe('b');
    expect(acc.get(acc.retract(acc.retract(after, { x: 'b' }), { x: 'a' }))).toBeNull();
  });

  it('as GROUP BY aggregates over an updating input, retractions take values back in arrival order', () => {
    const doc = {
      format: 'weir/pipeline',
      version: 1,
      name: 'first_last_of_counts',
      nodes: [
        { id: 'src', kind: 'inlineSource', params: { rows: [{ k: 'a' }, { k: 'a' }, { k: 'b' }, { k: 'a' }] } },
        { id: 'counts', kind: 'aggregate', params: { groupBy: ['k'], aggregates: [{ fn: 'count', as: 'n' }] } },
        { id: 'ends', kind: 'aggregate', params: { groupBy: [], aggregates: [{ fn: 'firstValue', field: 'n', as: 'first_n' }, { fn: 'lastValue', field: 'n', as: 'last_n' }, { fn: 'firstValue', field: 'k', as: 'first_k' }, { fn: 'lastValue', field: 'k', as: 'last_k' }] } },
        { id: 'view', kind: 'viewSink', params: {} },
      ],
      edges: [
        { from: { node: 'src', port: 'out' }, to: { node: 'counts', port: 'in' } },
        { from: { node: 'counts', port: 'out' }, to: { node: 'ends', port: 'in' } },
        { from: { node: 'ends', port: 'out' }, to: { node: 'view', port: 'in' } },
      ],
    };
    const r = runPipeline(doc);
    expect(r.deadLetters).toEqual([]);
    // n: +1 | -1 +2 | +1 | -2 +3 leaves [1, 3]; k: +a | -a +a | +b | -a +a leaves [b, a].
    expect(r.views.view).toEqual([{ first_n: 1, last_n: 3, first_k: 'b', last_k: 'a' }]);
  });
});
