import { describe, expect, it } from 'vitest';
import { keyGroupOf } from '../../core/keys.ts';
import type { ChunkRef } from '../../state/snapshotHandles.ts';
import { listState, mapState, valueState } from '../../state/descriptors.ts';
import { testClock } from '../../state/backendBehaviour.suite.ts';
import { idbWorld } from './testkit.ts';
import type { IndexedDbStateBackend } from './indexedDbBackend.ts';
import { MemoryStateBackend } from '../../state/memory/memoryBackend.ts';

const chunksOf = (h: { type: string; chunks?: ChunkRef[] }) => (h.type === 'chunks' ? h.chunks! : []);

async function storedChunkIds(world: ReturnType<typeof idbWorld>): Promise<string[]> {
  const req = world.idbFactory.open(world.dbName);
  const db = await new Promise<IDBDatabase>((res) => (req.onsuccess = () => res(req.result)));
  const keys = await new Promise<IDBValidKey[]>((res) => {
    const r = db.transaction('chunks').objectStore('chunks').getAllKeys();
    r.onsuccess = () => res(r.result);
  });
  db.close();
  return keys.map(String);
}

function fill(b: IndexedDbStateBackend, n: number, value: (i: number) => number = (i) => i) {
  const v = b.value(valueState<number>('v'));
  for (let i = 0; i < n; i++) {
    b.setCurrentKey(`k${i}`);
    v.update(value(i));
  }
  return v;
}

describe('IndexedDbStateBackend checkpoints', () => {
  it('a heap snapshot after checkpoints puts every key in its own key group', async () => {
    // The dirty tracking stamps cells with its generation; the heap snapshot files cells by the
    // key group it caches on them. The two must not share a field.
    const world = idbWorld();
    const { time } = testClock();
    const b = await world.make(time);
    const v = fill(b, 2_000);
    await b.persist(1).done;
    for (let i = 0; i < 2_000; i += 7) {
      b.setCurrentKey(`k${i}`);
      v.update(i + 1);
    }
    await b.persist(2).done;
    const snap = b.snapshot();
    let cells = 0;
    for (const [g, list] of Object.entries(snap.keyGroups)) {
      for (const c of list) {
        expect(keyGroupOf(c.key as string), String(c.key)).toBe(Number(g));
        cells++;
      }
    }
    expect(cells).toBe(2_000);
  });

  it('an incremental checkpoint writes only dirty key groups and refers to older chunks', async () => {
    const world = idbWorld();
    const { time } = testClock();
    const b = await world.make(time);
    const v = fill(b, 10_000);
    const first = b.persist(1);
    expect(first.dirtyKeys).toBe(10_000);
    const r1 = await first.done;
    expect(r1.writtenBytes).toBe(r1.fullBytes);

    const changed = new Set<number>();
    for (let i = 0; i < 10_000; i += 100) {
      b.setCurrentKey(`k${i}`);
      v.update(-i);
      changed.add(keyGroupOf(`k${i}`));
    }
    const second = b.persist(2);
    expect(second.dirtyKeys).toBe(100);
    const r2 = await second.done;
    expect(r2.writtenBytes).toBeLessThanOrEqual(0.1 * r2.fullBytes);
    const fresh = chunksOf(r2.handle).filter((c) => c.writtenBy === 2);
    expect(new Set(fresh.map((c) => c.keyGroup))).toEqual(changed);
    expect(fresh.reduce((n, c) => n + c.entries, 0)).toBe(100);
    // Every chunk of the first checkpoint is still referenced: nothing was rewritten.
    expect(chunksOf(r2.handle).filter((c) => c.writtenBy === 1)).toEqual(chunksOf(r1.handle));

    const restored = await world.make(time);
    await restored.restoreHandles([r2.handle]);
    const rv = restored.value(valueState<number>('v'));
    for (const i of [0, 1, 100, 5_000, 5_001, 9_999]) {
      restored.setCurrentKey(`k${i}`);
      expect(rv.value()).toBe(i % 100 === 0 ? -i : i);
    }
    expect(restored.metrics().keyCount).toBe(10_000);
  });

  it('deleted keys stay deleted through incremental, full and compacted checkpoints', async () => {
    const world = idbWorld({ maxChunksPerKeyGroup: 1 });
    const { time } = testClock();
    const b = await world.make(time);
    const v = fill(b, 50);
    const l = b.list(listState<number>('l'));
    const m = b.map(mapState<string, number>('m'));
    for (const k of ['k1', 'k2', 'k3']) {
      b.setCurrentKey(k);
      l.add(1);
      m.put('x', 1);
    }
    await b.persist(1).done;
    b.setCurrentKey('k1');
    v.clear();
    l.clear();
    m.remove('x');
    b.setCurrentKey('k2');
    v.update(null as unknown as number);
    l.update([]);
    const incremental = await b.persist(2).done;
    // Merges the key groups that now have two chunks, dropping the tombstones with what they deleted.
    await b.retainOnly([incremental.handle]);
    b.setCurrentKey('k3');
    v.clear();
    const compacted = await b.persist(3).done;
    // Two groups went from two chunks to one (or none), checkpoint 3 added one.
    expect(chunksOf(compacted.handle).length).toBeLessThan(chunksOf(incremental.handle).length);
    b.setCurrentKey('k4');
    v.clear();
    const full = await b.persist(4, { incremental: false }).done;
    expect(chunksOf(full.handle).every((c) => c.writtenBy === 4)).toBe(true);

    const expectations: [typeof incremental, string[]][] = [
      [incremental, ['k1', 'k2']],
      [compacted, ['k1', 'k2', 'k3']],
      [full, ['k1', 'k2', 'k3', 'k4']],
    ];
    for (const [r, gone] of expectations) {
      const back = await world.make(time);
      await back.restoreHandles([r.handle]);
      expect(back.keys('v').length).toBe(50 - gone.length);
      for (const k of gone) expect(back.keys('v')).not.toContain(k);
      expect(back.keys('m').sort()).toEqual(['k2', 'k3']);
      expect(back.keys('l')).toEqual(['k3']);
      back.close();
    }
  });

  it('compaction merges a key group with many chunks, and collection keeps exactly what is referenced', async () => {
    const world = idbWorld({ maxChunksPerKeyGroup: 3 });
    const { time } = testClock();
    const b = await world.make(time);
    const v = b.value(valueState<number>('v'));
    // Keys of one key group, so its chunk list grows by one per checkpoint.
    const keys = Array.from({ length: 3000 }, (_, i) => `x${i}`).filter((k) => keyGroupOf(k) === 7).slice(0, 12);
    const results = [];
    for (let cp = 1; cp <= 6; cp++) {
      b.setCurrentKey(keys[cp]);
      v.update(cp);
      if (cp === 3) {
        b.setCurrentKey(keys[1]);
        v.clear();
      }
      results.push(await b.persist(cp).done);
    }
    expect(chunksOf(results[5].handle)).toHaveLength(6);
    const retained = [results[4].handle, results[5].handle];
    await b.retainOnly(retained);
    const after = await b.persist(7).done;
    expect(chunksOf(after.handle)).toHaveLength(1);
    const onDisk = new Set(await storedChunkIds(world));
    // Chunks of the retained checkpoints and the new merged one survive; checkpoint 1-4's own chunks... are all still
    // referenced by checkpoint 6, so nothing is deleted yet.
    for (const c of [...chunksOf(results[5].handle), ...chunksOf(after.handle)]) expect(onDisk.has(c.id)).toBe(true);

    // Once only the compacted checkpoint is retained, the old chunks go.
    await b.retainOnly([after.handle]);
    expect(new Set(await storedChunkIds(world))).toEqual(new Set(chunksOf(after.handle).map((c) => c.id)));
    const back = await world.make(time);
    await back.restoreHandles([after.handle]);
    const bv = back.value(valueState<number>('v'));
    expect(back.keys('v').sort()).toEqual([keys[2], keys[3], keys[4], keys[5], keys[6]].sort());
    back.setCurrentKey(keys[6]);
    expect(bv.value()).toBe(6);
  });

  it('a failed write puts its keys back, so the next checkpoint writes them', async () => {
    const world = idbWorld();
    const { time } = testClock();
    const b = await world.make(time);
    const v = b.value(valueState<unknown>('v'));
    b.setCurrentKey('ok');
    v.update(1);
    b.setCurrentKey('bad');
    v.update({ f: () => 1 });
    const failed = b.persist(1);
    await expect(failed.done).rejects.toThrow();
    v.update({ f: 2 });
    const r = await b.persist(2).done;
    expect(chunksOf(r.handle).reduce((n, c) => n + c.entries, 0)).toBe(2);
    const back = await world.make(time);
    await back.restoreHandles([r.handle]);
    back.setCurrentKey('bad');
    expect(back.value(valueState('v')).value()).toEqual({ f: 2 });
  });

  it('a failed checkpoint written in slices puts back every key, also those written before it failed', async () => {
    const world = idbWorld({ syncPersistKeys: 0 });
    const { time } = testClock();
    const b = await world.make(time);
    const v = b.value(valueState<unknown>('v'));
    const keys = Array.from({ length: 60 }, (_, i) => `k${i}`);
    for (const k of keys) {
      b.setCurrentKey(k);
      v.update(k === 'k59' ? { f: () => 1 } : k);
    }
    await expect(b.persist(1).done).rejects.toThrow();
    b.setCurrentKey('k59');
    v.update('k59');
    const r = await b.persist(2).done;
    expect(chunksOf(r.handle).reduce((n, c) => n + c.entries, 0)).toBe(keys.length);
    const back = await world.make(time);
    await back.restoreHandles([r.handle]);
    expect(back.keys('v').sort()).toEqual([...keys].sort());
  });

  it('a checkpoint taken while an earlier write is in flight refers to it and waits for it', async () => {
    const world = idbWorld();
    const { time } = testClock();
    const b = await world.make(time);
    const v = fill(b, 100);
    const p1 = b.persist(1);
    b.setCurrentKey('k5');
    v.update(555);
    const p2 = b.persist(2);
    const [r1, r2] = await Promise.all([p1.done, p2.done]);
    expect(chunksOf(r2.handle).filter((c) => c.writtenBy === 1)).toEqual(chunksOf(r1.handle));
    const back = await world.make(time);
    await back.restoreHandles([r2.handle]);
    back.setCurrentKey('k5');
    expect(back.value(valueState('v')).value()).toBe(555);
  });

  it('exports a chunk handle as an inline snapshot that the memory backend restores', async () => {
    const world = idbWorld();
    const { time } = testClock();
    const b = await world.make(time);
    fill(b, 300);
    const l = b.list(listState<string>('l'));
    b.setCurrentKey('k1');
    l.add('a');
    await b.persist(1).done;
    b.setCurrentKey('k2');
    b.value(valueState<number>('v')).clear();
    const { handle } = await b.persist(2).done;
    const inline = await b.toInline(handle);
    expect(inline.type).toBe('inline');
    const mem = new MemoryStateBackend(time);
    if (inline.type === 'inline') mem.restore([inline.snapshot]);
    expect(mem.keys('v')).toHaveLength(299);
    mem.setCurrentKey('k1');
    expect(mem.list(listState<string>('l')).get()).toEqual(['a']);
    expect(mem.value(valueState<number>('v')).value()).toBe(1);
  });

  it('writes chunks of 1024 entries without a memory budget and of 256 under one (where a prefetch reads whole chunks)', async () => {
    const { time } = testClock();
    const chunkSizes = async (memoryBudgetBytes?: number) => {
      const b = await idbWorld({ maxParallelism: 1, memoryBudgetBytes }).make(time);
      fill(b, 2_100);
      const { handle } = await b.persist(1).done;
      b.close();
      return chunksOf(handle).map((c) => c.entries);
    };
    expect(await chunkSizes()).toEqual([1024, 1024, 52]);
    expect(await chunkSizes(1e12)).toEqual([...Array(8).fill(256), 52]);
  });
});
