import type { IDBPDatabase } from 'idb';
import type { StateChunksDb } from './chunks.ts';
import { chunkIdPrefix, chunkSerial } from './chunks.ts';
import type { ChunkLayout } from './layout.ts';
import type { WorkingSet } from './workingSet.ts';

/** The parts of an IndexedDB backend that its persist, prefetch, restore and compaction modules share. */
export interface BackendCore {
  /** The namespace (database name); chunk handles carry it as `store`. */
  readonly store: string;
  readonly subtask: string;
  readonly maxParallelism: number;
  readonly memoryBudgetBytes: number;
  readonly chunkEntries: number;
  /** Checkpoints with at most this many dirty keys are written in the synchronous part; larger ones copy-on-write, in slices. */
  readonly syncPersistKeys: number;
  readonly maxChunksPerKeyGroup: number;
  readonly ws: WorkingSet;
  readonly layout: ChunkLayout;
  /** The open connection; throws a clear Error when closed (by us, or by another tab). */
  db(): IDBPDatabase<StateChunksDb>;
  /** Bumped by every restore: async work that started before it must not touch the new state. */
  epoch: number;
  /** Settles true when the latest issued persist is durable, false if it failed; null when none is in flight. */
  lastPersist: Promise<boolean> | null;
  /** Settles when the sliced writing of the latest large checkpoint ends; null when none runs. */
  serializing: Promise<void> | null;
  /** Handles returned by recent persists whose checkpoints may still complete: their chunks are kept. */
  recentHandles: { checkpointId: number; ids: Set<string> }[];
  /** Serialises compaction and full rewrites, which both replace layout prefixes. */
  rewriteLock: Promise<void>;
  /** Key groups this backend owns (from the last restore); chunks of others are never deleted here. */
  owns: (kg: number) => boolean;
}

export async function withRewriteLock<T>(core: BackendCore, fn: () => Promise<T>): Promise<T> {
  const before = core.rewriteLock;
  let release!: () => void;
  core.rewriteLock = new Promise((r) => (release = r));
  await before;
  try {
    return await fn();
  } finally {
    release();
  }
}

/** Continues chunk serials after the highest one on disk, so no chunk an old checkpoint refers to is overwritten. */
export async function raiseSerialFromDisk(core: BackendCore): Promise<void> {
  const prefix = chunkIdPrefix(core.subtask);
  const tx = core.db().transaction('chunks', 'readonly');
  const cursor = await tx.store.openKeyCursor(IDBKeyRange.bound(prefix, `${prefix}\uffff`), 'prev');
  const top = cursor ? chunkSerial(String(cursor.key), core.subtask) : null;
  await tx.done;
  if (top !== null) core.layout.raiseSerial(top + 1);
}
