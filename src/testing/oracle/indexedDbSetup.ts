// Test-only: every operator's keyed state in the IndexedDB backend (on fake-indexeddb); the
// runtime persists incremental checkpoints into it while the job runs.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { IndexedDbStateBackend } from '../../storage/indexeddb/indexedDbBackend.ts';
import type { ClusterOptions } from '../../runtime/localCluster.ts';

let databases = 0;

/** A backend factory over one fresh database; no memory budget, so every key stays resident. */
export function indexedDbBackend(): NonNullable<ClusterOptions['backend']> {
  const idbFactory = new IDBFactory();
  const dbName = `weir-oracle-${++databases}`;
  return (node, index, time) => new IndexedDbStateBackend({ dbName, subtask: `${node.id}#${index}`, time, idbFactory, locks: null }).open();
}
