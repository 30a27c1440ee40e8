import { describe, expect, it } from 'vitest';
import { keyGroupOf } from '../../core/keys.ts';
import type { Key } from '../../core/types.ts';
import type { ChunkRef, KeyedStateHandle } from '../../state/snapshotHandles.ts';
import { listState, valueState } from '../../state/descriptors.ts';
import { testClock } from '../../state/backendBehaviour.suite.ts';
import { chunkId, type ChunkEntry, type RowChunk } from './chunks.ts';
import { COLUMNAR_FORMAT } from './columnarChunk.ts';
import { idbWorld, writeVersion1 } from './testkit.ts';
import type { IndexedDbStateBackend } from './indexedDbBackend.ts';

/** Chunks as the first format stored them (one array per entry), in a database of schema version 1 as Weir then created it. */
async function writeRowChunks(world: ReturnType<typeof idbWorld>, chunks: RowChunk[]): Promise<void> {
  await writeVersion1(world.idbFactory, world.dbName, chunks);
}

async function storedFormats(world: ReturnType<typeof idbWorld>): Promise<(number | undefined)[]> {
  const req = world.idbFactory.open(world.dbName);
  const db = await new Promise<IDBDatabase>((res) => (req.onsuccess = () => res(req.result)));
  const all = await new Promise<{ v?: number }[]>((res) => {
    const r = db.transaction('chunks').objectStore('chunks').getAll();
    r.onsuccess = () => res(r.result as { v?: number }[]);
  });
  db.close();
  return all.map((c) => c.v);
}

const KEYS = Array.from({ length: 40 }, (_, i) => `k${i}`);

/** A checkpoint of the first format: `v` and `hist` per key, in row chunks of 8 entries per key group, the last key deleted by a tombstone. */
function legacyCheckpoint(store: string): { chunks: RowChunk[]; handle: KeyedStateHandle } {
  const byKg = new Map<number, ChunkEntry[]>();
  for (const [i, key] of KEYS.entries()) {
    const entries = byKg.get(keyGroupOf(key)) ?? [];
    byKg.set(keyGroupOf(key), entries);
    entries.push([key, [['v', 'value', { n: i }, i, null], ['hist', 'list', [[i, i], [i + 1, i + 1]], i, 1_000 + i]]]);
  }
  const chunks: RowChunk[] = [];
  let serial = 0;
  for (const [kg, entries] of byKg) {
    for (let i = 0; i < entries.length; i += 8) chunks.push({ id: chunkId('op#0', serial++), kg, writtenBy: 1, entries: entries.slice(i, i + 8) });
  }
  const last = KEYS[KEYS.length - 1];
  chunks.push({ id: chunkId('op#0', serial++), kg: keyGroupOf(last), writtenBy: 2, entries: [[last, null]] });
  const refs: ChunkRef[] = chunks.map((c) => ({ id: c.id, keyGroup: c.kg, entries: c.entries.length, bytes: 100 * c.entries.length, writtenBy: c.writtenBy }));
  return { chunks, handle: { type: 'chunks', store, chunks: refs } };
}

function read(b: IndexedDbStateBackend, keys: readonly Key[]) {
  const v = b.value(valueState<{ n: number }>('v'));
  const hist = b.list(listState<number>('hist'));
  return keys.map((k) => {
    b.setCurrentKey(k);
    return [k, v.value(), hist.get()];
  });
}

const expected = (keys: readonly string[]) => keys.map((k) => [k, Number(k.slice(1)) === 39 ? undefined : { n: Number(k.slice(1)) }, Number(k.slice(1)) === 39 ? [] : [Number(k.slice(1)), Number(k.slice(1)) + 1]]);

describe('chunks of the first (row) format already on disk', () => {
  it('restore, take incremental columnar chunks on top, compact into columnar chunks and restore again', async () => {
    const world = idbWorld({ maxChunksPerKeyGroup: 1 });
    const { time } = testClock();
    const legacy = legacyCheckpoint(world.dbName);
    await writeRowChunks(world, legacy.chunks);
    const b = await world.make(time, { subtask: 'op#0' });
    await b.restoreHandles([legacy.handle]);
    expect(b.keys('v').sort()).toEqual(KEYS.slice(0, -1).sort());
    expect(read(b, KEYS)).toEqual(expected(KEYS));

    // An incremental checkpoint writes only the changed key, columnar, on top of the row chunks.
    const v = b.value(valueState<{ n: number }>('v'));
    b.setCurrentKey('k3');
    v.update({ n: -3 });
    const inc = await b.persist(3).done;
    expect(inc.handle.type === 'chunks' && inc.handle.chunks.filter((c) => c.writtenBy === 3).length).toBe(1);
    const mixed = await world.make(time);
    await mixed.restoreHandles([inc.handle]);
    const want = expected(KEYS).map((e) => (e[0] === 'k3' ? ['k3', { n: -3 }, e[2]] : e));
    expect(read(mixed, KEYS)).toEqual(want);
    mixed.close();

    // Compaction merges the mixed chains into columnar chunks; the state stays the same.
    await b.retainOnly([inc.handle]);
    const compacted = await b.persist(4).done;
    b.close();
    const again = await world.make(time);
    await again.restoreHandles([compacted.handle]);
    expect(read(again, KEYS)).toEqual(want);
    const formats = new Set(await storedFormats(world));
    expect(formats.has(COLUMNAR_FORMAT)).toBe(true);
  });

  it('are prefetched back after eviction under a memory budget', async () => {
    const world = idbWorld();
    const { time } = testClock();
    const legacy = legacyCheckpoint(world.dbName);
    await writeRowChunks(world, legacy.chunks);
    const b = await world.make(time, { subtask: 'op#0', memoryBudgetBytes: 500 });
    await b.restoreHandles([legacy.handle]);
    expect(b.diagnostics().evictedKeys).toBeGreaterThan(10);
    for (const k of KEYS) {
      await b.prefetch([k]);
      expect(read(b, [k])).toEqual(expected([k]));
    }
  });
});
