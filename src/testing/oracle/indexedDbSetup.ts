// Test-only: runs the single-threaded executor with every operator's keyed state in the
// IndexedDB backend (on fake-indexeddb), persisting incremental checkpoints while it runs.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { IndexedDbStateBackend } from '../../state/indexeddb/indexedDbBackend.ts';
import type { JobPlan } from '../../pipeline/plan.ts';
import type { ExecutorSetup } from './oracleKit.ts';

let databases = 0;

/**
 * No memory budget: the executor has no prefetch step, so evicted keys would read as empty.
 * Persisting every `stepsPerCheckpoint` steps (about ten checkpoints for 10,000 records) still
 * puts incremental chunk writes between records.
 */
export function indexedDbSetup(stepsPerCheckpoint = 2_000) {
  return (plan: JobPlan): ExecutorSetup & { backends: IndexedDbStateBackend[]; checkpoints: () => number } => {
    const idbFactory = new IDBFactory();
    const dbName = `weir-oracle-${++databases}`;
    const backends: IndexedDbStateBackend[] = [];
    const opening: Promise<unknown>[] = [];
    let checkpoints = 0;
    return {
      backends,
      checkpoints: () => checkpoints,
      backend(node, time) {
        const b = new IndexedDbStateBackend({ dbName, subtask: `${node.id}#0`, time, idbFactory, locks: null, maxParallelism: plan.maxParallelism });
        backends.push(b);
        opening.push(b.open());
        return b;
      },
      async drive(executor) {
        await Promise.all(opening);
        try {
          while (executor.run(stepsPerCheckpoint) > 0) {
            checkpoints++;
            await Promise.all(backends.map((b) => b.persist(checkpoints, { incremental: true }).done));
          }
        } finally {
          for (const b of backends) b.close();
        }
      },
    };
  };
}
