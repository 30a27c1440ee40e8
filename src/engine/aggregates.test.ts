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
