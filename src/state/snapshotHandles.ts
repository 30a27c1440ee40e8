import type { KeyedStateSnapshot } from './backend.ts';

/**
 * Where a subtask's keyed state went. Heap state travels inline; a durable backend
 * (IndexedDB, files) writes its own chunks and hands back references to them.
 */
export type KeyedStateHandle =
  | { type: 'inline'; snapshot: KeyedStateSnapshot }
  | { type: 'chunks'; store: string; chunks: ChunkRef[] };

export interface ChunkRef {
  /** Stable id of a chunk value in the backend's store. */
  id: string;
  keyGroup: number;
  entries: number;
  bytes: number;
  /** The checkpoint that wrote it; older ids mean an incremental checkpoint reused it. */
  writtenBy: number;
}
