import type { Executor } from '../../src/engine/executor.ts';
import { MemoryCheckpointStore } from '../../src/checkpoint/memoryStore.ts';
import type { SubtaskSnapshot } from '../../src/checkpoint/types.ts';

/**
 * A memory-state checkpoint of an executor-run job, as the runtime takes one: the consistent cut
 * (nothing in flight, copy-on-write state) of every operator, written to the heap store, which
 * copies it as the threaded runtime's structured clone to the job manager does. The copy happens
 * now, on the calling thread; the promise settles with the store once it holds every subtask.
 * Each checkpoint gets a store of its own: a caller that keeps only the latest retains one, as the
 * runtime's coordinator retains its last completed checkpoints and no more.
 */
export function memoryCheckpoint(ex: Executor, jobId: string, id: number): Promise<MemoryCheckpointStore> {
  const store = new MemoryCheckpointStore();
  ex.drainInFlight();
  const snap = ex.snapshot();
  const subtasks = Object.entries(snap.nodes).map(([node, s]): SubtaskSnapshot => ({ subtask: `${node}#0`, parallelism: 1, keyed: { type: 'inline', snapshot: s.keyed }, operator: s.operator, timers: s.timers, watermark: s.watermark, counters: s.counters }));
  return Promise.all(subtasks.map((sub) => store.writeSubtask(jobId, id, sub))).then(() => store);
}
