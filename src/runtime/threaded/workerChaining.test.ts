import { describe, expect, it } from 'vitest';
import { JobManager } from './jobManager.ts';
import { inProcessSpawn } from './spawn.ts';
import { MemoryCheckpointStore } from '../../checkpoint/memoryStore.ts';
import { readSnapshots } from '../jobMaster.ts';
import { LocalCluster } from '../localCluster.ts';
import { planOrThrow, runPipeline } from '../../testing/runPipeline.ts';
import { chainingDoc, chainingRows } from '../../testing/chainingDocs.ts';
import { seededRng } from '../../core/rng.ts';

const spawn = inProcessSpawn();
const fast = { spawn, heartbeatTimeoutMs: 60_000, restart: { type: 'fixedDelay', delayMs: 1, maxAttempts: 5 } } as const;

describe('chained views on worker hosts', () => {
  it('chain where a view and its GROUP BY share a worker, survive a kill, and checkpoints resume unchained in process', async () => {
    const rows = chainingRows(seededRng(9), 3000, 400);
    const reference = runPipeline(chainingDoc(rows, 1)).views;
    for (const chain of [true, false]) {
      const store = new MemoryCheckpointStore();
      const jm = new JobManager(chainingDoc(rows, 2), { ...fast, store, chain, checkpointIntervalMs: 5, batchSize: 20 });
      const run = jm.run();
      for (let i = 0; i < 2000 && !jm.checkpointHistory().some((c) => c.status === 'completed'); i++) await new Promise((r) => setTimeout(r, 2));
      jm.killSubtask('totals#1');
      const res = await run;
      expect(res.status, res.reason).toBe('finished');
      expect(res.restarts).toBe(1);
      expect(res.views, `chain ${chain}`).toEqual(reference);
      // The last checkpoint's view snapshots: derived from the aggregate when chained, rows of their own when not.
      const last = (await store.list('chaining')).at(-1)!;
      const snaps = await readSnapshots(store, last);
      expect(snaps.view.map((s) => s.derivedFrom ?? null)).toEqual(chain ? ['totals', 'totals'] : [null, null]);
      // The in-process runtime resumes it unchained (rows rebuilt from the aggregate) to the same end.
      const resumed = await new LocalCluster(planOrThrow(chainingDoc(rows, 2)), { store, chain: false, checkpointIntervalMs: 25 }).run();
      expect(resumed.status).toBe('finished');
      expect(resumed.views, `resumed from chain ${chain}`).toEqual(reference);
    }
  }, 60_000);
});
