// Test-only helpers (imported by *.test.ts): IndexedDB backends on fake-indexeddb.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import type { KeyedStateBackend, StateTime } from '../../state/backend.ts';
import type { BackendTarget } from '../../state/backendBehaviour.suite.ts';
import { IndexedDbStateBackend, type IndexedDbBackendOptions } from './indexedDbBackend.ts';

let namespaces = 0;

/** A fresh, isolated IndexedDB (its own factory) and a maker of backends in one namespace of it. */
export function idbWorld(defaults: Partial<IndexedDbBackendOptions> = {}) {
  const idbFactory = new IDBFactory();
  const dbName = `weir-state-test-${++namespaces}`;
  let subtasks = 0;
  const make = async (time: StateTime, opts: Partial<IndexedDbBackendOptions> = {}) =>
    new IndexedDbStateBackend({ dbName, subtask: `op#${subtasks++}`, time, idbFactory, locks: null, ...defaults, ...opts }).open();
  return { idbFactory, dbName, make };
}

/** The behaviour-suite target: with a budget, `touch` checkpoints (so keys become evictable) and prefetches. */
export function idbTarget(memoryBudgetBytes?: number, opts: Partial<IndexedDbBackendOptions> = {}): BackendTarget {
  const world = idbWorld({ memoryBudgetBytes, ...opts });
  let checkpoint = 0;
  const asIdb = (b: KeyedStateBackend) => b as IndexedDbStateBackend;
  return {
    make: (time) => world.make(time),
    touch: async (b, keys) => {
      if (memoryBudgetBytes !== undefined) await asIdb(b).persist(++checkpoint).done;
      await b.prefetch(keys);
    },
    transfer: async (from, into, owns) => {
      const { handle } = await asIdb(from).persist(++checkpoint).done;
      await asIdb(into).restoreHandles([handle], owns);
    },
  };
}

const done = (req: IDBRequest | IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    if (req instanceof IDBTransaction) {
      req.oncomplete = () => resolve();
      req.onerror = () => reject(req.error);
    } else {
      req.onsuccess = () => resolve();
      req.onerror = () => reject(req.error);
    }
  });

/**
 * A state database as schema version 1 created it (chunks keyed in line by their `id`), holding
 * `chunks` and `meta`: what an existing browser profile has on disk before the upgrade.
 */
export async function writeVersion1(factory: IDBFactory, dbName: string, chunks: readonly { id: string }[], meta: Record<string, unknown> = {}): Promise<void> {
  const req = factory.open(dbName, 1);
  req.onupgradeneeded = () => {
    req.result.createObjectStore('chunks', { keyPath: 'id' });
    req.result.createObjectStore('meta');
  };
  await done(req);
  const db = req.result;
  const tx = db.transaction(['chunks', 'meta'], 'readwrite');
  for (const c of chunks) tx.objectStore('chunks').put(c);
  for (const [k, v] of Object.entries(meta)) tx.objectStore('meta').put(v, k);
  await done(tx);
  db.close();
}
