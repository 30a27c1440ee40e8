import { describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { valueState } from '../../state/descriptors.ts';
import type { KeyedStateHandle } from '../../state/snapshotHandles.ts';
import type { IndexedDbStateBackend } from './indexedDbBackend.ts';
import { idbWorld } from './testkit.ts';
import { testClock } from '../../state/backendBehaviour.suite.ts';

const { time } = testClock();

/** Counts the chunk records a restore reads, by wrapping the object store's `get` and `getAll` (which reads ranges of them). */
function countChunkReads(): { reads: number } {
  const counter = { reads: 0 };
  type Store = { get: (k: unknown) => unknown; getAll: (q?: unknown, n?: number) => IDBRequest<unknown[]> };
  const storeProto = (globalThis as unknown as { IDBObjectStore: { prototype: Store } }).IDBObjectStore.prototype;
  const { get, getAll } = storeProto;
  storeProto.get = function (this: { name: string }, k: unknown) {
    if (this.name === 'chunks') counter.reads++;
    return get.call(this, k);
  };
  storeProto.getAll = function (this: { name: string }, q?: unknown, n?: number) {
    const req = getAll.call(this, q, n);
    if (this.name === 'chunks') req.addEventListener('success', () => (counter.reads += req.result.length));
    return req;
  };
  return counter;
}

async function storedChunks(factory: IDBFactory, dbName: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = factory.open(dbName);
    req.onerror = () => reject(req.error);
    req.onsuccess = () => {
      const db = req.result;
      const count = db.transaction('chunks', 'readonly').objectStore('chunks').count();
      count.onsuccess = () => {
        db.close();
        resolve(count.result);
      };
    };
  });
}

/** 60 checkpoints, each updating a tenth of 400 keys; as the job manager drives it, optionally. */
async function longRun(world: ReturnType<typeof idbWorld>, drive: boolean): Promise<{ backend: IndexedDbStateBackend; latest: KeyedStateHandle }> {
  const b = await world.make(time);
  const v = b.value(valueState<number>('v'));
  let retained: KeyedStateHandle[] = [];
  for (let cp = 1; cp <= 60; cp++) {
    for (let k = 0; k < 400; k++) {
      if (cp > 1 && k % 10 !== cp % 10) continue;
      b.setCurrentKey(`k${k}`);
      v.update(cp * 1000 + k);
    }
    const { handle } = await b.persist(cp).done;
    retained = [...retained, handle].slice(-3);
    if (drive) await b.retainOnly(retained);
  }
  return { backend: b, latest: retained.at(-1)! };
}

describe('compaction and chunk collection of the IndexedDB backend', () => {
  it('keeps stored chunks bounded and restores from fewer chunk reads, with the same state', async () => {
    const results: Record<string, { stored: number; handleChunks: number; reads: number }> = {};
    const counter = countChunkReads();
    for (const drive of [false, true]) {
      const world = idbWorld({ chunkEntries: 64, maxChunksPerKeyGroup: 4 });
      const { backend, latest } = await longRun(world, drive);
      backend.close();
      const restored = await world.make(time);
      const before = counter.reads;
      await restored.restoreHandles([latest]);
      const reads = counter.reads - before;
      const v = restored.value(valueState<number>('v'));
      for (let k = 0; k < 400; k++) {
        restored.setCurrentKey(`k${k}`);
        // The last checkpoint that touched key k: the largest cp ≤ 60 with cp % 10 === k % 10.
        const last = 60 - ((60 - (k % 10)) % 10);
        expect(v.value(), `k${k}`).toBe(last * 1000 + k);
      }
      restored.close();
      const handleChunks = latest.type === 'chunks' ? latest.chunks.length : 0;
      results[drive ? 'driven' : 'undriven'] = { stored: await storedChunks(world.idbFactory, world.dbName), handleChunks, reads };
    }
    console.log(JSON.stringify(results));
    const { undriven, driven } = results;
    expect(driven.stored).toBeLessThan(undriven.stored / 3);
    expect(driven.reads).toBeLessThan(undriven.reads / 2);
    expect(driven.reads).toBe(driven.handleChunks);
    // What stays is the retained checkpoints' chunks plus one compaction's output, not the run's history.
    expect(driven.stored).toBeLessThanOrEqual(3 * driven.handleChunks);
  });
});
