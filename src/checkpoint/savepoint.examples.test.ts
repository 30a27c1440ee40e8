import { describe, expect, it } from 'vitest';
import { LocalCluster } from '../runtime/localCluster.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';
import { loadExamples } from '../testing/examples.ts';
import { MemoryCheckpointStore } from './memoryStore.ts';
import { exportSavepoint, importSavepoint } from './savepoint.ts';

// Every example, stopped at a checkpoint in the middle of its run, exported, imported into a
// fresh store and resumed by a fresh cluster, ends with the views of an uninterrupted run.
describe('savepoints of every example', () => {
  for (const { entry, doc } of loadExamples()) {
    it(`${entry.file}: mid-run savepoint → fresh cluster → same final views`, async () => {
      const expected = runPipeline(doc).views;
      // Short examples finish between two checkpoints of a long interval: shorten it until they checkpoint mid-run.
      let store = new MemoryCheckpointStore();
      let completed: { checkpointId: number }[] = [];
      for (const [interval, batchSize] of [[50, 4], [10, 4], [1, 1]]) {
        store = new MemoryCheckpointStore();
        const first = new LocalCluster(planOrThrow(doc), { jobId: 'a', store, checkpointIntervalMs: interval, retain: 1000, batchSize });
        const full = await first.run();
        expect(full.status).toBe('finished');
        expect(full.views).toEqual(expected);
        completed = first.checkpointHistory().filter((r) => r.status === 'completed');
        if (completed.length > 2) break;
      }
      expect(completed.length, 'the example should checkpoint before its end').toBeGreaterThan(1);
      const mid = completed[Math.floor((completed.length - 1) / 2)].checkpointId;

      const bytes = await exportSavepoint(store, 'a', mid);
      const fresh = new MemoryCheckpointStore();
      await importSavepoint(bytes, fresh, 'b');
      const restored: number[] = [];
      const second = new LocalCluster(planOrThrow(doc), { jobId: 'b', store: fresh, batchSize: 4 });
      second.onEvent((e) => e.type === 'restored' && restored.push(e.checkpointId ?? -1));
      const res = await second.run();
      expect(restored).toEqual([mid]);
      expect(res.status).toBe('finished');
      expect(res.views).toEqual(expected);
    });
  }
});
