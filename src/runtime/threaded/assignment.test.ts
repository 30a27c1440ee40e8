import { describe, expect, it } from 'vitest';
import { planOrThrow } from '../../testing/runPipeline.ts';
import { placement, subtasksOn, workerCountFor, workerHosting } from './assignment.ts';

const plan = planOrThrow({
  format: 'weir/pipeline',
  version: 1,
  name: 'placement',
  nodes: [
    { id: 'src', kind: 'inlineSource', params: { rows: [{ k: 1 }] } },
    { id: 'pace', kind: 'map', params: { code: '(r) => r' } },
    { id: 'agg', kind: 'aggregate', params: { groupBy: ['k'], aggregates: [{ fn: 'count', as: 'n' }] }, parallelism: 2 },
    { id: 'view', kind: 'viewSink', params: {}, parallelism: 2 },
  ],
  edges: [
    { from: { node: 'src', port: 'out' }, to: { node: 'pace', port: 'in' } },
    { from: { node: 'pace', port: 'out' }, to: { node: 'agg', port: 'in' } },
    { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
  ],
});

describe('subtask placement', () => {
  it('shares slots by index by default', () => {
    expect(workerCountFor(plan)).toBe(2);
    expect(subtasksOn(plan, 0, 2).map((p) => p.id)).toEqual(['src#0', 'pace#0', 'agg#0', 'view#0']);
    expect(subtasksOn(plan, 1, 2).map((p) => p.id)).toEqual(['agg#1', 'view#1']);
    expect(workerHosting(plan, 'view#1', 2)).toBe(1);
  });

  it('gives each subtask of an ownWorker node a worker no other node shares', () => {
    const own = ['pace'];
    const workers = workerCountFor(plan, Infinity, own);
    expect(workers).toBe(3);
    expect(subtasksOn(plan, 2, workers, own).map((p) => p.id)).toEqual(['pace#0']);
    expect(subtasksOn(plan, 0, workers, own).map((p) => p.id)).toEqual(['src#0', 'agg#0', 'view#0']);
    expect(workerHosting(plan, 'pace#0', workers, own)).toBe(2);
    expect(placement(plan, workers, own)('agg', 1)).toBe(1);
    // maxWorkers bounds the shared workers only.
    expect(workerCountFor(plan, 1, own)).toBe(2);
    expect(subtasksOn(plan, 0, 2, own).map((p) => p.id)).toEqual(['src#0', 'agg#0', 'agg#1', 'view#0', 'view#1']);
  });

  it('puts a group of ownWorker nodes together on workers of their own', () => {
    const own = [['src', 'pace']];
    const workers = workerCountFor(plan, Infinity, own);
    expect(workers).toBe(3);
    expect(subtasksOn(plan, 2, workers, own).map((p) => p.id)).toEqual(['src#0', 'pace#0']);
    expect(subtasksOn(plan, 0, workers, own).map((p) => p.id)).toEqual(['agg#0', 'view#0']);
    expect(subtasksOn(plan, 1, workers, own).map((p) => p.id)).toEqual(['agg#1', 'view#1']);
    expect(workerHosting(plan, 'src#0', workers, own)).toBe(2);
    // A group is as wide as its widest node; a lone id and a group mix.
    const mixed = ['src', ['agg', 'pace']];
    expect(workerCountFor(plan, Infinity, mixed)).toBe(5);
    const at = placement(plan, 5, mixed);
    expect([at('view', 1), at('src', 0), at('pace', 0), at('agg', 0), at('agg', 1)]).toEqual([1, 2, 3, 3, 4]);
  });
});
