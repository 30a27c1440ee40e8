import { describe, expect, it } from 'vitest';
import { JobManager } from './jobManager.ts';
import { inProcessSpawn } from './spawn.ts';
import { MemoryCheckpointStore } from '../../checkpoint/memoryStore.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import { exactlyOnceDoc, sequenceViolations } from '../../testing/exactlyOncePipelines.ts';
import { rescaleDoc, rescaleInputs, rescaleThrough, type RescaledSource } from '../../testing/sourceRescaleChains.ts';

// Checkpoint with a parallel source, stop, and resume the job at another parallelism of every
// node, source included: the old splits' remaining records are redistributed (Flink reassigns
// splits), so each record is read exactly once and the views equal the failure-free run.
const spawn = inProcessSpawn();
const fast = { spawn, heartbeatTimeoutMs: 60_000, restart: { type: 'fixedDelay', delayMs: 1, maxAttempts: 2 } } as const;

function everywhere(p: number) {
  const doc = exactlyOnceDoc(p, { n: 4000, keys: 41, spinUs: 60 });
  return { ...doc, nodes: doc.nodes.map((n) => ({ ...n, parallelism: p })) };
}

async function checkpointThenStop(store: MemoryCheckpointStore, jobId: string): Promise<number> {
  const jm = new JobManager(everywhere(2), { ...fast, store, jobId, checkpointIntervalMs: 15, batchSize: 20 });
  const run = jm.run();
  const completed = () => jm.checkpointHistory().filter((c) => c.status === 'completed').length;
  for (let i = 0; i < 5000 && completed() < 2; i++) await new Promise((r) => setTimeout(r, 2));
  jm.cancel('stopped by the test after a checkpoint');
  const res = await run;
  expect(res.status).toBe('failed');
  const latest = await store.latest(jobId);
  expect(latest, 'a checkpoint completed before the stop').not.toBeNull();
  // The sources stopped mid-way, at different offsets: the resumed job must split what remains.
  const offsets = await Promise.all([0, 1].map(async (i) => (await store.readSubtask(latest!.subtasks[`src#${i}`])).source!.offset));
  expect(offsets.every((o) => o > 0 && o < 4000), `source offsets ${offsets}`).toBe(true);
  return latest!.checkpointId;
}

describe('source rescale from a checkpoint', () => {
  const reference = runPipeline(everywhere(1)).views.view;

  for (const p of [3, 1]) {
    it(`checkpoints at parallelism 2 and finishes at ${p} with the failure-free views`, async () => {
      const store = new MemoryCheckpointStore({ ownership: 'handover' });
      const jobId = `rescale-${p}`;
      const from = await checkpointThenStop(store, jobId);
      const log: string[] = [];
      const res = await new JobManager(everywhere(p), { ...fast, store, jobId, resume: true, checkpointIntervalMs: 15, log: (m) => log.push(m) }).run();
      expect(log).toContain(`attempt 1: restoring from checkpoint ${from}`);
      expect(res.status, res.reason).toBe('finished');
      expect(res.recoveries).toEqual([]);
      expect(sequenceViolations(res.views.view)).toEqual([]);
      expect(res.views.view).toEqual(reference);
    }, 60_000);
  }
});

// The old assignment is itself a rescaled one (taken and stopped in process, where the stops are
// deterministic): the workers restore splits that skip what an earlier level read.
describe('source rescale from an assignment that is not i mod p (worker threads)', () => {
  const reference = runPipeline(rescaleDoc(1, 'inline')).views.view;
  const chains: { kind: RescaledSource; path: number[] }[] = [
    { kind: 'inline', path: [2, 3, 2] },
    { kind: 'inline', path: [3, 2, 3] },
    { kind: 'file', path: [2, 3, 2] },
  ];
  for (const { kind, path } of chains) {
    it(`${kind} source: ${path.join(' → ')}, the last run on workers, reads every record exactly once`, async () => {
      const store = new MemoryCheckpointStore({ ownership: 'handover' });
      const jobId = `threaded-rescale-${kind}-${path.join('-')}`;
      await rescaleThrough(store, jobId, kind, path.slice(0, -1));
      const from = (await store.latest(jobId))!.checkpointId;
      const log: string[] = [];
      const res = await new JobManager(rescaleDoc(path[path.length - 1], kind), { ...fast, store, jobId, resume: true, inputs: rescaleInputs(kind), checkpointIntervalMs: 15, log: (m) => log.push(m) }).run();
      expect(log).toContain(`attempt 1: restoring from checkpoint ${from}`);
      expect(res.status, res.reason).toBe('finished');
      expect(sequenceViolations(res.views.view)).toEqual([]);
      expect(res.views.view).toEqual(reference);
    }, 60_000);
  }
});
