import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { JobManager } from './jobManager.ts';
import { inProcessSpawn } from './spawn.ts';
import { idbPlatform } from './idbPlatform.ts';
import { MemoryCheckpointStore } from '../../checkpoint/memoryStore.ts';
import type { SubtaskSnapshot } from '../../checkpoint/types.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import { exactlyOnceDoc, sequenceViolations } from '../../testing/exactlyOncePipelines.ts';

// In-process workers share one fake-indexeddb, as the workers of a browser origin share real IndexedDB,
// so chunked incremental checkpoints, compaction and collection run exactly as in the browser.
function storedChunkIds(factory: IDBFactory, dbName: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const req = factory.open(dbName);
    req.onerror = () => reject(req.error);
    req.onsuccess = () => {
      const db = req.result;
      const keys = db.transaction('chunks', 'readonly').objectStore('chunks').getAllKeys();
      keys.onerror = () => reject(keys.error);
      keys.onsuccess = () => {
        db.close();
        resolve(keys.result as string[]);
      };
    };
  });
}

/** Remembers every chunk any snapshot referred to: what would stay on disk without collection. */
class WatchingStore extends MemoryCheckpointStore {
  readonly everReferenced = new Set<string>();
  /** Chunks first written by each checkpoint. */
  readonly newByCheckpoint = new Map<number, number>();
  override writeSubtask(jobId: string, checkpointId: number, snap: SubtaskSnapshot) {
    if (snap.keyed.type === 'chunks') for (const c of snap.keyed.chunks) this.everReferenced.add(c.id);
    const fresh = snap.keyed.type === 'chunks' ? snap.keyed.chunks.filter((c) => c.writtenBy === checkpointId).length : 0;
    this.newByCheckpoint.set(checkpointId, (this.newByCheckpoint.get(checkpointId) ?? 0) + fresh);
    return super.writeSubtask(jobId, checkpointId, snap);
  }
}

describe('chunk retention on the threaded runtime', () => {
  it('keeps stored chunks bounded over many checkpoints and restores the right state after a kill', async () => {
    const factory = new IDBFactory();
    const spawn = inProcessSpawn(() => idbPlatform({ factory: async () => factory, chunkedCheckpoints: true, locks: null }));
    const doc = exactlyOnceDoc(2, { n: 40_000, keys: 50, spinUs: 40 });
    const watching = new WatchingStore();
    const jm = new JobManager(doc, { spawn, store: watching, state: 'indexeddb', jobId: 'gc', checkpointIntervalMs: 8, batchSize: 20, retain: 2, heartbeatTimeoutMs: 60_000, restart: { type: 'fixedDelay', delayMs: 1, maxAttempts: 3 } });
    const run = jm.run();
    for (let i = 0; i < 5000 && jm.checkpointHistory().filter((c) => c.status === 'completed').length < 3; i++) await new Promise((r) => setTimeout(r, 2));
    expect(jm.killSubtask('agg#1')).toBe(true);
    const res = await run;
    expect(res.status, res.reason).toBe('finished');
    expect(res.restarts).toBe(1);
    expect(res.views.view).toEqual(runPipeline(doc).views.view);
    expect(sequenceViolations(res.views.view)).toEqual([]);

    const completed = res.checkpoints.filter((c) => c.status === 'completed');
    // Every chunk id any checkpoint's handle named: what would be on disk without collection.
    const store = jm.store;
    const retained = new Set<string>();
    for (const m of await store.list('gc')) {
      for (const ref of Object.values(m.subtasks)) {
        const snap = await store.readSubtask(ref);
        if (snap.keyed.type === 'chunks') for (const c of snap.keyed.chunks) retained.add(c.id);
      }
    }
    const stored = await storedChunkIds(factory, 'weir-state-gc');
    const onDisk = new Set(stored);
    console.log(`checkpoints completed ${completed.length}, chunks ever referenced ${watching.everReferenced.size}, stored at the end ${stored.length}, referenced by the retained checkpoints ${retained.size}, largest checkpoints wrote ${[...watching.newByCheckpoint.values()].sort((a, b) => b - a).slice(0, 3)}`);
    expect(completed.length).toBeGreaterThanOrEqual(8);
    // Garbage is left at most from the few checkpoints completed since the last collection (one
    // collection runs at a time, none after the final checkpoint): a bound that does not grow with the run.
    const largest = [...watching.newByCheckpoint.values()].sort((a, b) => b - a);
    // Plus one compaction's output, written but referenced only from the next checkpoint on: at most the whole state.
    const latest = (await store.latest('gc'))!;
    let latestChunks = 0;
    for (const ref of Object.values(latest.subtasks)) {
      const snap = await store.readSubtask(ref);
      if (snap.keyed.type === 'chunks') latestChunks += snap.keyed.chunks.length;
    }
    const allowance = largest.slice(0, 3).reduce((n, x) => n + x, 0) + latestChunks;
    expect(stored.length).toBeLessThanOrEqual(retained.size + allowance);
    for (const id of retained) expect(onDisk.has(id), `retained chunk ${id} was deleted`).toBe(true);
  }, 60_000);
});
