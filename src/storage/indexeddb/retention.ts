import type { CheckpointStore } from '../../checkpoint/types.ts';
import type { KeyedStateHandle } from '../../state/snapshotHandles.ts';
import { createStateStores, STATE_SCHEMA_VERSION, type StateChunksDb } from './chunks.ts';
import { defaultIdbFactory, openNamespace } from './db.ts';

/**
 * Helpers for the runtime around checkpoint retention. After `store.discard(...)`, pass
 * `retainedKeyedHandles(store, jobId)` to every live backend's `retainOnly`; at recovery (before
 * any backend of the job opens) `sweepStateChunks` removes chunks that no retained checkpoint
 * refers to, such as those of a checkpoint torn by a crash.
 */

/** Every keyed-state handle of every retained (committed) checkpoint of the job. */
export async function retainedKeyedHandles(store: CheckpointStore, jobId: string, node?: string): Promise<KeyedStateHandle[]> {
  const out: KeyedStateHandle[] = [];
  for (const m of await store.list(jobId)) {
    for (const [subtask, ref] of Object.entries(m.subtasks)) {
      if (node !== undefined && !subtask.startsWith(`${node}#`)) continue;
      const snap = await store.readSubtask(ref);
      if (snap.keyed.type === 'chunks') out.push(snap.keyed);
    }
  }
  return out;
}

/**
 * Deletes every chunk of the namespace that `retained` does not refer to. Only safe while no
 * backend of the job is writing (at startup or recovery): their in-flight chunks are not
 * referenced yet. Returns how many chunks were deleted.
 */
export async function sweepStateChunks(opts: { dbName: string; idbFactory?: IDBFactory }, retained: readonly KeyedStateHandle[]): Promise<number> {
  const referenced = new Set<string>();
  for (const h of retained) if (h.type === 'chunks' && h.store === opts.dbName) for (const r of h.chunks) referenced.add(r.id);
  const db = await openNamespace<StateChunksDb>({
    factory: defaultIdbFactory(opts.idbFactory),
    name: opts.dbName,
    version: STATE_SCHEMA_VERSION,
    upgrade: createStateStores,
    onClosed: () => {},
  });
  try {
    const tx = db.transaction('chunks', 'readwrite');
    let deleted = 0;
    for (const id of await tx.store.getAllKeys()) {
      if (referenced.has(id)) continue;
      await tx.store.delete(id);
      deleted++;
    }
    await tx.done;
    return deleted;
  } finally {
    db.close();
  }
}
