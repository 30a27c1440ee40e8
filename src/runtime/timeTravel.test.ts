import { describe, expect, it } from 'vitest';
import { LocalCluster, type ClusterEvent } from './localCluster.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';

const rows = Array.from({ length: 400 }, (_, i) => ({ user: `u${i % 5}`, amount: 1, ts: i * 10 }));
const doc = {
  format: 'weir/pipeline',
  version: 1,
  name: 'travel',
  settings: { parallelism: 1 },
  nodes: [
    { id: 'src', kind: 'inlineSource', params: { rows, schema: { user: 'string', amount: 'integer', ts: 'timestamp' }, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } },
    { id: 'agg', kind: 'aggregate', params: { groupBy: ['user'], aggregates: [{ fn: 'sum', field: 'amount', as: 'total' }] }, parallelism: 2 },
    { id: 'view', kind: 'viewSink', params: {} },
  ],
  edges: [
    { from: { node: 'src', port: 'out' }, to: { node: 'agg', port: 'in' } },
    { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
  ],
};

const completed = (c: LocalCluster) => c.checkpointHistory().filter((r) => r.status === 'completed');

describe('time travel and checkpoint ids', () => {
  it('after a travel back, a failure restores the travelled-to checkpoint, not a later one of the abandoned run, and ids never repeat', async () => {
    const c = new LocalCluster(planOrThrow(doc), { checkpointIntervalMs: 15, batchSize: 4, retain: 20 });
    const restored: (number | null)[] = [];
    c.onEvent((e: ClusterEvent) => {
      if (e.type === 'restored') restored.push(e.checkpointId);
    });
    await c.start();
    while (completed(c).length < 4) expect(await c.step()).toBe('running');
    const ids = completed(c).map((r) => r.checkpointId);
    const back = ids[0];
    await c.restoreTo(back);
    // Killed before the travelled run completes a checkpoint of its own.
    c.kill('agg#0');
    while ((await c.step()) === 'running');
    expect(c.result().status).toBe('finished');
    expect(restored.slice(-2)).toEqual([back, back]);
    const all = c.checkpointHistory().map((r) => r.checkpointId);
    expect(new Set(all).size, `checkpoint ids ${all.join(', ')}`).toBe(all.length);
    expect(c.result().views.view).toEqual(runPipeline(doc).views.view);
  });
});
