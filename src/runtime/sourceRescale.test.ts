import { describe, expect, it } from 'vitest';
import { LocalCluster } from './localCluster.ts';
import { MemoryCheckpointStore } from '../checkpoint/memoryStore.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';
import { sequenceViolations } from '../testing/exactlyOncePipelines.ts';
import { rescaleDoc, rescaleInputs, rescaleThrough, type RescaledSource } from '../testing/sourceRescaleChains.ts';

// A source rescaled more than once, in process: the rescale after the first starts from an
// assignment that is not i mod p (see sourceRescaleChains.ts). Every record must be read once.
describe('source rescale across several parallelism changes (in process)', () => {
  const reference = runPipeline(rescaleDoc(1, 'inline')).views.view;

  const chains: { kind: RescaledSource; path: number[] }[] = [
    { kind: 'inline', path: [2, 3, 2] },
    { kind: 'inline', path: [3, 2, 3] },
    { kind: 'inline', path: [2, 3, 1, 3] },
    { kind: 'file', path: [2, 3, 2] },
    { kind: 'file', path: [3, 2, 3] },
  ];
  for (const { kind, path } of chains) {
    it(`${kind} source: ${path.join(' → ')} reads every record exactly once`, async () => {
      const store = new MemoryCheckpointStore({ ownership: 'handover' });
      const jobId = `rescale-${kind}-${path.join('-')}`;
      await rescaleThrough(store, jobId, kind, path.slice(0, -1));
      const last = path[path.length - 1];
      const res = await new LocalCluster(planOrThrow(rescaleDoc(last, kind)), { store, jobId, inputs: rescaleInputs(kind), checkpointIntervalMs: 30, batchSize: 3, scheduleSeed: 99 }).run();
      expect(res.status, res.reason).toBe('finished');
      expect(sequenceViolations(res.views.view)).toEqual([]);
      expect(res.views.view).toEqual(reference);
    }, 60_000);
  }
});
