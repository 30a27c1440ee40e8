import { describe, expect, it } from 'vitest';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { LocalCluster } from './localCluster.ts';
import type { Kill } from './localCluster.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';
import { IndexedDbStateBackend } from '../storage/indexeddb/indexedDbBackend.ts';
import { seededRng } from '../core/rng.ts';

const doc = (parallelism: number) => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'idb-exactly-once',
  settings: { parallelism },
  nodes: [
    { id: 'src', kind: 'generatorSource', params: { scenario: 'sequence', count: 2500, keys: 40, seed: 3 }, parallelism: 1 },
    { id: 'agg', kind: 'aggregate', params: { groupBy: ['key'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'max', field: 'seq', as: 'maxSeq' }, { fn: 'countDistinct', field: 'seq', as: 'distinctSeq' }] } },
    { id: 'view', kind: 'viewSink', params: {} },
  ],
  edges: [
    { from: { node: 'src', port: 'out' }, to: { node: 'agg', port: 'in' } },
    { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
  ],
});

describe('LocalCluster with the IndexedDB state backend', () => {
  it('recovers from kills with incremental checkpoints and gives the failure-free view', async () => {
    const reference = runPipeline(doc(1)).views.view;
    const rng = seededRng(99);
    let interrupted = 0;
    for (let trial = 0; trial < 6; trial++) {
      const p = 1 + (trial % 3);
      const idbFactory = new IDBFactory();
      const kills: Kill[] = [{ atStep: 100 + rng.int(600), when: trial % 2 ? 'writing' : 'any' }];
      const res = await new LocalCluster(planOrThrow(doc(p)), {
        scheduleSeed: trial,
        checkpointIntervalMs: 30,
        batchSize: 32,
        kills,
        backend: async (node, index, time) => new IndexedDbStateBackend({ dbName: `weir-state-t${trial}`, subtask: `${node.id}#${index}`, time, idbFactory, locks: null }).open(),
      }).run();
      expect(res.status, res.reason).toBe('finished');
      if (res.restarts > 0) interrupted++;
      expect(res.views.view, `trial ${trial}`).toEqual(reference);
      for (const r of res.views.view) expect([r.n, r.distinctSeq]).toEqual([r.maxSeq, r.maxSeq]);
      const done = res.checkpoints.filter((c) => c.status === 'completed');
      expect(done.length, `trial ${trial}`).toBeGreaterThan(1);
    }
    expect(interrupted).toBeGreaterThanOrEqual(4);
  });
});
