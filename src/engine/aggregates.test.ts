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

describe('LISTAGG', () => {
  const comma = { fn: 'listAgg', field: 'x', as: 'l' } as const;
  const feed = (call: { fn: 'listAgg'; field: string; as: string; separator?: string }, appendOnly: boolean, xs: unknown[]) => {
    const acc = accumulator(call, appendOnly);
    let a = acc.create();
    for (const x of xs) a = acc.add(a, { x });
    return { acc, a };
  };

  it('joins the non-NULL values in arrival order by "," unless told otherwise; none is NULL', () => {
    for (const appendOnly of [true, false]) {
      const f = feed(comma, appendOnly, ['b', null, 'a', 'b']);
      expect(f.acc.get(f.a)).toBe('b,a,b');
      const dash = feed({ ...comma, separator: ' - ' }, appendOnly, ['x', 'y']);
      expect(dash.acc.get(dash.a)).toBe('x - y');
      expect(dash.acc.get(dash.acc.merge(dash.a, feed(comma, appendOnly, ['z']).a))).toBe('x - y - z');
      const none = feed(comma, appendOnly, [null, null]);
      expect(none.acc.get(none.a)).toBeNull();
    }
  });

  it("a retraction takes back the earliest copy of its value, and one of a value not there changes nothing (Flink's ListAggWithRetractAggFunction)", () => {
    const { acc, a } = feed(comma, false, ['a', 'b', 'a', 'c']);
    expect(acc.get(acc.retract(a, { x: 'a' }))).toBe('b,a,c');
    expect(acc.get(acc.retract(a, { x: 'zzz' }))).toBe('b,a,c');
    expect(acc.get(acc.retract(a, { x: null }))).toBe('b,a,c');
    for (const x of ['b', 'a', 'c']) acc.retract(a, { x });
    expect(acc.get(a)).toBeNull();
  });

  it('as a GROUP BY aggregate over an updating input, every update moves the value to the end of the list', () => {
    const doc = {
      format: 'weir/pipeline',
      version: 1,
      name: 'list_of_counts',
      nodes: [
        { id: 'src', kind: 'inlineSource', params: { rows: [{ k: 'a' }, { k: 'b' }, { k: 'a' }, { k: 'c' }] } },
        { id: 'counts', kind: 'map', params: { set: [{ name: 'label', expr: "k || '#'" }] } },
        { id: 'per_key', kind: 'aggregate', params: { groupBy: ['k'], aggregates: [{ fn: 'lastValue', field: 'label', as: 'label' }, { fn: 'count', as: 'n' }] } },
        { id: 'labelled', kind: 'map', params: { set: [{ name: 'tag', expr: "label || CAST(n AS STRING)" }] } },
        { id: 'lists', kind: 'aggregate', params: { groupBy: [], aggregates: [{ fn: 'listAgg', field: 'tag', as: 'tags', separator: ';' }, { fn: 'listAgg', field: 'k', as: 'keys' }] } },
        { id: 'view', kind: 'viewSink', params: {} },
      ],
      edges: [
        { from: { node: 'src', port: 'out' }, to: { node: 'counts', port: 'in' } },
        { from: { node: 'counts', port: 'out' }, to: { node: 'per_key', port: 'in' } },
        { from: { node: 'per_key', port: 'out' }, to: { node: 'labelled', port: 'in' } },
        { from: { node: 'labelled', port: 'out' }, to: { node: 'lists', port: 'in' } },
        { from: { node: 'lists', port: 'out' }, to: { node: 'view', port: 'in' } },
      ],
    };
    const r = runPipeline(doc);
    expect(r.deadLetters).toEqual([]);
    // tag: +a#1 | +b#1 | -a#1 +a#2 | +c#1; k: +a | +b | -a +a | +c leaves [b, a, c].
    expect(r.views.view).toEqual([{ tags: 'b#1;a#2;c#1', keys: 'b,a,c' }]);
  });
});
