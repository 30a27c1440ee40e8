import { describe, expect, it } from 'vitest';
import { keyGroupOf } from '../../core/keys.ts';
import { valueState } from '../../state/descriptors.ts';
import { testClock } from '../../state/backendBehaviour.suite.ts';
import type { ChunkRef } from '../../state/snapshotHandles.ts';
import { buildChunks, chunkId, STATE_SCHEMA_VERSION, type ChunkEntry } from './chunks.ts';
import { idbWorld, writeVersion1 } from './testkit.ts';

/** What the database looks like from outside: stores, their key paths, and every chunk by key. */
async function inspectDb(factory: IDBFactory, name: string) {
  const req = factory.open(name);
  const db = await new Promise<IDBDatabase>((res, rej) => {
    req.onsuccess = () => res(req.result);
    req.onerror = () => rej(req.error);
  });
  const tx = db.transaction(['chunks', 'meta']);
  const get = <T,>(r: IDBRequest<T>) => new Promise<T>((res) => (r.onsuccess = () => res(r.result)));
  const keys = await get(tx.objectStore('chunks').getAllKeys());
  const ids = (await get(tx.objectStore('chunks').getAll())).map((c) => (c as { id: string }).id);
  const meta = await get(tx.objectStore('meta').get('lastPersist:op#0'));
  const out = { version: db.version, stores: [...db.objectStoreNames].sort(), keyPath: tx.objectStore('chunks').keyPath, keys, ids, meta };
  db.close();
  return out;
}

describe('state database schema', () => {
  it('upgrades a version-1 database (chunks keyed in line) in place, keeping every chunk, and restores it exactly', async () => {
    const world = idbWorld();
    const { time } = testClock();
    const keys = Array.from({ length: 300 }, (_, i) => i);
    const byKg = new Map<number, ChunkEntry[]>();
    for (const k of keys) {
      const list = byKg.get(keyGroupOf(k)) ?? [];
      byKg.set(keyGroupOf(k), list);
      list.push([k, [['group', 'value', { n: k, out: { key: k, total: k / 3 } }, 0, 1_000 + k]]]);
    }
    let serial = 0;
    const records: { id: string }[] = [];
    const refs: ChunkRef[] = [];
    for (const [kg, entries] of byKg) {
      const built = buildChunks(kg, entries, 2, 1, () => chunkId('op#0', serial++));
      records.push(...built.records);
      refs.push(...built.refs);
    }
    await writeVersion1(world.idbFactory, world.dbName, records, { 'lastPersist:op#0': 1 });

    const b = await world.make(time, { subtask: 'op#0' });
    const after = await inspectDb(world.idbFactory, world.dbName);
    expect(after.version).toBe(STATE_SCHEMA_VERSION);
    expect(after.stores).toEqual(['chunks', 'meta']);
    expect(after.keyPath).toBeNull();
    expect(after.keys).toEqual(records.map((r) => r.id).sort());
    expect(after.ids).toEqual(after.keys);
    expect(after.meta).toBe(1);

    await b.restoreHandles([{ type: 'chunks', store: world.dbName, chunks: refs }]);
    const group = b.value(valueState<{ n: number; out: { key: number; total: number } }>('group'));
    for (const k of keys) {
      b.setCurrentKey(k);
      expect(group.value()).toEqual({ n: k, out: { key: k, total: k / 3 } });
    }
    // New chunks continue after the migrated ones and never overwrite a chunk an old checkpoint refers to.
    b.setCurrentKey(7);
    group.update({ n: -7, out: { key: 7, total: 0 } });
    const { handle } = await b.persist(2).done;
    b.close();
    const fresh = (handle.type === 'chunks' ? handle.chunks : []).filter((r) => r.writtenBy === 2);
    expect(fresh.length).toBe(1);
    expect(records.some((r) => r.id === fresh[0].id)).toBe(false);
    const again = await world.make(time, { subtask: 'op#0' });
    await again.restoreHandles([handle]);
    const g2 = again.value(valueState<{ n: number }>('group'));
    for (const k of keys) {
      again.setCurrentKey(k);
      expect(g2.value()?.n).toBe(k === 7 ? -7 : k);
    }
    again.close();
  });

  it('opens a database already at the current version without copying anything', async () => {
    const world = idbWorld();
    const { time } = testClock();
    const b = await world.make(time, { subtask: 'op#0' });
    const v = b.value(valueState<number>('v'));
    b.setCurrentKey('a');
    v.update(1);
    await b.persist(1).done;
    b.close();
    const before = await inspectDb(world.idbFactory, world.dbName);
    const again = await world.make(time, { subtask: 'op#0' });
    again.close();
    expect(await inspectDb(world.idbFactory, world.dbName)).toEqual(before);
  });
});
