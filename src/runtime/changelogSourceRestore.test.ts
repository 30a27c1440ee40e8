import { describe, expect, it } from 'vitest';
import { LocalCluster } from './localCluster.ts';
import { MemoryCheckpointStore } from '../checkpoint/memoryStore.ts';
import { JobManager } from './threaded/jobManager.ts';
import { inProcessSpawn } from './threaded/spawn.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';

// A changelog source with a primary key keeps the latest row per key (ChangelogNormalize), so an
// update retracts exactly the row downstream saw. That table is part of the source's snapshot:
// after a restore, an update of a key first seen before the checkpoint must still retract it.
function upsertDoc() {
  const rows: { id: string; v: number }[] = [];
  for (let round = 1; round <= 12; round++) for (let k = 0; k < 30; k++) rows.push({ id: `k${k}`, v: round * 100 + k });
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'upsert restore',
    nodes: [
      { id: 'src', kind: 'inlineSource', params: { rows, changelog: { format: 'upsert', primaryKey: ['id'] } } },
      { id: 'agg', kind: 'aggregate', params: { groupBy: [], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'sum', field: 'v', as: 'total' }] } },
      { id: 'view', kind: 'viewSink', params: {} },
    ],
    edges: [
      { from: { node: 'src', port: 'out' }, to: { node: 'agg', port: 'in' } },
      { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
    ],
  };
}

describe('changelog source restore', () => {
  const reference = runPipeline(upsertDoc()).views.view;

  it('the plain run holds one row per key, each at its last value', () => {
    expect(reference).toEqual([{ n: 30, total: Array.from({ length: 30 }, (_, k) => 1200 + k).reduce((a, b) => a + b) }]);
  });

  for (const atStep of [40, 90, 160]) {
    it(`a kill at step ${atStep} restores the source's table: updates after the checkpoint still retract`, async () => {
      const res = await new LocalCluster(planOrThrow(upsertDoc()), { checkpointIntervalMs: 15, batchSize: 5, kills: [{ atStep }], restart: { type: 'fixedDelay', delayMs: 1, maxAttempts: 3 } }).run();
      expect(res.status, res.reason).toBe('finished');
      expect(res.restarts).toBe(1);
      expect(res.checkpoints.some((c) => c.status === 'completed'), 'a checkpoint completed before the kill').toBe(true);
      expect(res.views.view).toEqual(reference);
    });
  }

  it('a job checkpointed in process and resumed on worker threads goes on with the table', async () => {
    const store = new MemoryCheckpointStore({ ownership: 'handover' });
    const jobId = 'upsert-resume';
    const first = new LocalCluster(planOrThrow(upsertDoc()), { store, jobId, checkpointIntervalMs: 15, batchSize: 5 });
    await first.start();
    while (first.running() && !first.checkpointHistory().some((c) => c.status === 'completed')) await first.step();
    const latest = (await store.latest(jobId))!;
    const offset = (await store.readSubtask(latest.subtasks['src#0'])).source!.offset;
    expect(offset, 'the checkpoint lies after the first round of keys and before the end').toBeGreaterThan(30);
    expect(offset).toBeLessThan(360);
    const res = await new JobManager(upsertDoc(), { spawn: inProcessSpawn(), heartbeatTimeoutMs: 60_000, store, jobId, resume: true, checkpointIntervalMs: 15 }).run();
    expect(res.status, res.reason).toBe('finished');
    expect(res.views.view).toEqual(reference);
  }, 60_000);
});
