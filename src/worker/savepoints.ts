import type { CheckpointStore } from '../checkpoint/types.ts';
import { exportSavepoint, importSavepoint } from '../checkpoint/savepoint.ts';
import type { KeyedHandleReader } from '../checkpoint/savepoint.ts';
import type { LocalCluster } from '../runtime/localCluster.ts';
import { IndexedDbStateBackend } from '../storage/indexeddb/indexedDbBackend.ts';

/**
 * Reads IndexedDB chunk handles through one of the job's open state backends: every subtask's
 * chunks live in the job's one database, so any open backend of it can read them.
 */
export function chunkReader(cluster: LocalCluster): KeyedHandleReader {
  return async (handle, subtask) => {
    const backends = cluster.subtasks().flatMap((r) => (r.task?.state instanceof IndexedDbStateBackend ? [{ id: r.id, b: r.task.state }] : []));
    const b = (backends.find((x) => x.id === subtask) ?? backends[0])?.b;
    if (!b) throw new Error(`${subtask}: its keyed state is in IndexedDB chunks but no IndexedDB state backend of this job is open; load the job with the IndexedDB backend`);
    const inline = await b.toInline(handle);
    if (inline.type !== 'inline') throw new Error(`${subtask}: chunks could not be read inline`);
    return inline.snapshot;
  };
}

/** A retained checkpoint of the job as savepoint bytes (keyed state inlined, so the file stands alone). */
export function exportJobSavepoint(store: CheckpointStore, jobId: string, checkpointId: number, cluster: LocalCluster): Promise<Uint8Array> {
  return exportSavepoint(store, jobId, checkpointId, { readChunks: chunkReader(cluster) });
}

/** Commits an uploaded savepoint as a checkpoint of the job; returns its checkpoint id. */
export function importJobSavepoint(bytes: Uint8Array, store: CheckpointStore, jobId: string): Promise<number> {
  return importSavepoint(bytes, store, jobId);
}
