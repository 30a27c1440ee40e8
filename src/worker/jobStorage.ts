import type { CheckpointManifest, CheckpointStore, SubtaskSnapshot } from '../checkpoint/types.ts';
import { parseSubtaskId } from '../checkpoint/types.ts';
import { MemoryCheckpointStore } from '../checkpoint/memoryStore.ts';
import { IndexedDbCheckpointStore } from '../storage/indexeddb/checkpointStore.ts';
import { IndexedDbStateBackend } from '../storage/indexeddb/indexedDbBackend.ts';
import { deleteNamespace } from '../storage/indexeddb/db.ts';
import type { ClusterOptions, LocalCluster } from '../runtime/localCluster.ts';
import { isDurableBackend } from '../state/backend.ts';
import type { Resumable } from './protocol.ts';
import { recordsBelow } from './clusterMetrics.ts';
import type { SplitSourceSnapshot } from '../runtime/sourceSplit.ts';

/** What the designer adds to a manifest so a reloaded page can say what it would resume. */
interface ProgressTag {
  wallClockAt?: number;
  recordsRead?: number;
  /** The job ran to its end after this checkpoint: nothing to resume after a reload. */
  jobFinished?: boolean;
}

const CHECKPOINT_DB = 'weir-checkpoints';
/** One IndexedDB database per job for keyed state: two projects (or tabs) never share chunks. */
export const stateDbName = (jobId: string): string => `weir-state/${jobId}`;

/**
 * Delegates to the real store and tags each manifest with the wall-clock time of its commit and
 * the source records read at its barrier (from the source subtasks' offsets in the snapshot).
 */
export class ProgressTaggingStore implements CheckpointStore {
  private readonly read = new Map<number, number>();

  constructor(readonly inner: CheckpointStore) {}

  async writeSubtask(jobId: string, checkpointId: number, snap: SubtaskSnapshot): Promise<{ ref: string; bytes: number }> {
    if (snap.source) {
      const { index } = parseSubtaskId(snap.subtask);
      this.read.set(checkpointId, (this.read.get(checkpointId) ?? 0) + recordsBelow(snap.source.offset, index, snap.parallelism) + ((snap.source as SplitSourceSnapshot).injected ?? 0));
    }
    return this.inner.writeSubtask(jobId, checkpointId, snap);
  }

  commit(manifest: CheckpointManifest): Promise<void> {
    const tagged: CheckpointManifest & ProgressTag = { ...manifest, wallClockAt: Date.now(), recordsRead: this.read.get(manifest.checkpointId) ?? 0 };
    this.read.delete(manifest.checkpointId);
    return this.inner.commit(tagged);
  }

  /** Marks the job's latest checkpoint as followed by the job's end, so a reload offers no resume. */
  async markFinished(jobId: string): Promise<void> {
    const latest = await this.inner.latest(jobId);
    if (latest) await this.inner.commit({ ...latest, jobFinished: true } as CheckpointManifest & ProgressTag);
  }

  latest = (jobId: string) => this.inner.latest(jobId);
  list = (jobId: string) => this.inner.list(jobId);
  readSubtask = (ref: string) => this.inner.readSubtask(ref);
  discard = (jobId: string, id: number) => this.inner.discard(jobId, id);
  abort = (jobId: string, id: number) => this.inner.abort(jobId, id);
  /** Releases the inner store's database, when it holds one. */
  close = async (): Promise<void> => (this.inner as { close?: () => Promise<void> }).close?.();
}

/** The designer's durable checkpoint store (the one a reloaded page looks in to offer a resume), tagged with progress. */
export const durableCheckpointStore = (): ProgressTaggingStore => new ProgressTaggingStore(new IndexedDbCheckpointStore({ dbName: CHECKPOINT_DB, exclusive: true }));

export interface JobStorage {
  store: ProgressTaggingStore;
  backend: ClusterOptions['backend'];
  /** Releases the job's IndexedDB namespaces (a new run of the same job claims them again). */
  close(cluster: LocalCluster | null): Promise<void>;
}

/** Storage for one run: memory (nothing survives the page) or IndexedDB namespaced by jobId. */
export function openJobStorage(kind: 'memory' | 'indexeddb', jobId: string, maxParallelism: number): JobStorage {
  if (kind === 'memory') return { store: new ProgressTaggingStore(new MemoryCheckpointStore({ ownership: 'handover' })), backend: undefined, close: async (c) => closeBackends(c) };
  const idb = new IndexedDbCheckpointStore({ dbName: CHECKPOINT_DB, exclusive: true });
  return {
    store: new ProgressTaggingStore(idb),
    backend: (node, index, time, attempt) => openStateBackend(() => new IndexedDbStateBackend({ dbName: stateDbName(jobId), subtask: `${node.id}#${index}`, time, maxParallelism }), attempt),
    close: async (c) => {
      closeBackends(c);
      await idb.close();
    },
  };
}

const RELOCK_TRIES = 40;
const RELOCK_WAIT_MS = 50;

/**
 * Opens a subtask's backend. After a restart the failed attempt's backend has just released its
 * Web Lock, but the browser lets go of it a moment later: retry briefly rather than fail the restart.
 */
async function openStateBackend(make: () => IndexedDbStateBackend, attempt: number): Promise<IndexedDbStateBackend> {
  for (let i = 0; ; i++) {
    try {
      return await make().open();
    } catch (e) {
      const stillOurs = attempt > 1 && /is in use by another tab or worker/.test((e as Error).message);
      if (!stillOurs || i >= RELOCK_TRIES) throw e;
      await new Promise((r) => setTimeout(r, RELOCK_WAIT_MS));
    }
  }
}

function closeBackends(cluster: LocalCluster | null): void {
  for (const r of cluster?.subtasks() ?? []) if (r.task && isDurableBackend(r.task.state)) r.task.state.close();
}

/** Start over: forget every checkpoint and all keyed state of the job. */
export async function wipeJob(storage: JobStorage, jobId: string): Promise<void> {
  const inner = storage.store.inner;
  for (const m of await inner.list(jobId)) await inner.discard(jobId, m.checkpointId);
  if (inner instanceof IndexedDbCheckpointStore) {
    await inner.cleanupUncommitted(jobId);
    await deleteNamespace(stateDbName(jobId));
  }
}

/** The latest completed checkpoint of the job in IndexedDB, if any; never throws for a missing database. */
export async function findResumable(jobId: string): Promise<Resumable | null> {
  if (!(globalThis as { indexedDB?: unknown }).indexedDB) return null;
  const store = new IndexedDbCheckpointStore({ dbName: CHECKPOINT_DB });
  try {
    const m = (await store.latest(jobId)) as (CheckpointManifest & ProgressTag) | null;
    if (!m || m.jobFinished) return null;
    return { jobId, checkpointId: m.checkpointId, completedAt: m.wallClockAt ?? 0, records: m.recordsRead ?? 0 };
  } finally {
    await store.close();
  }
}
