import type { JobPlan } from '../../pipeline/plan.ts';
import type { StateTime } from '../../state/backend.ts';
import { IndexedDbStateBackend } from '../../storage/indexeddb/indexedDbBackend.ts';
import type { IndexedDbBackendOptions } from '../../storage/indexeddb/indexedDbBackend.ts';
import { sweepStateChunks } from '../../storage/indexeddb/retention.ts';
import type { Placement } from './assignment.ts';
import type { DeploySpec } from './protocol.ts';
import type { WorkerPlatform } from './workerRuntime.ts';

export interface IdbPlatformOptions {
  /** Where IndexedDB comes from in this thread (the browser's or a Storage Bucket's, or fake-indexeddb in Node). */
  factory(spec: DeploySpec): Promise<IDBFactory>;
  /**
   * Checkpoint keyed state as chunks in IndexedDB (only dirty keys, incremental), with chunk
   * handles in the snapshot. Only where the database outlives the worker: real IndexedDB is
   * shared by all workers of an origin, fake-indexeddb lives and dies with one Node worker.
   * Without it, snapshots carry the keyed state inline, as with the memory backend.
   */
  chunkedCheckpoints: boolean;
  /** Web Locks guarding each subtask's namespace; null where there are none (Node). */
  locks?: IndexedDbBackendOptions['locks'];
  memoryBudgetBytes?: number;
}

/** The IndexedDB backend minus `persist`, so the runner snapshots it inline (isDurableBackend is false). */
class InlineSnapshotIdbBackend extends IndexedDbStateBackend {}
Object.defineProperty(InlineSnapshotIdbBackend.prototype, 'persist', { value: undefined });

/** `state: 'indexeddb'`: every keyed subtask gets an IndexedDbStateBackend in the job's namespace. */
export function idbPlatform(opts: IdbPlatformOptions): WorkerPlatform {
  let factory: IDBFactory | null = null;
  // A job may keep its state in a Storage Bucket: the factory changes with the bucket.
  let factoryFor: string | null | undefined;
  let jobId: string | null = null;
  let backends: { node: string; backend: IndexedDbStateBackend }[] = [];
  const closeAll = () => {
    for (const b of backends) b.backend.close();
    backends = [];
  };
  return {
    async init(spec: DeploySpec) {
      closeAll();
      jobId = spec.jobId;
      if (spec.state !== 'indexeddb' || (factory && factoryFor === spec.storageBucket)) return;
      factory = await opts.factory(spec);
      factoryFor = spec.storageBucket;
    },
    stateBackend(spec: DeploySpec, plan: JobPlan, p: Placement, time: StateTime) {
      if (spec.state !== 'indexeddb' || !factory) return undefined;
      const o: IndexedDbBackendOptions = {
        dbName: `weir-state-${spec.jobId}`,
        subtask: p.id,
        maxParallelism: plan.maxParallelism,
        time,
        idbFactory: factory,
        memoryBudgetBytes: opts.memoryBudgetBytes,
        ...(opts.locks !== undefined ? { locks: opts.locks } : {}),
      };
      const b = opts.chunkedCheckpoints ? new IndexedDbStateBackend(o) : new InlineSnapshotIdbBackend(o);
      backends.push({ node: p.node.id, backend: b });
      return b;
    },
    async prepare() {
      await Promise.all(backends.map((b) => b.backend.open()));
    },
    async retainOnly(handles) {
      // Inline snapshots leave nothing on disk to collect.
      if (!opts.chunkedCheckpoints) return;
      // Chunk ids are per subtask but key groups are shared by every keyed node: pass each backend its node's handles only.
      await Promise.all(backends.map((b) => b.backend.retainOnly(handles[b.node] ?? [])));
    },
    async sweepChunks(handles) {
      if (!opts.chunkedCheckpoints || !factory || jobId === null) return 0;
      return sweepStateChunks({ dbName: `weir-state-${jobId}`, idbFactory: factory }, handles);
    },
    dispose: closeAll,
  };
}
