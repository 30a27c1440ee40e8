import { describe, expect, it } from 'vitest';
import type { Key } from '../../core/types.ts';
import { seededRng } from '../../core/rng.ts';
import type { KeyedStateBackend, PersistResult } from '../../state/backend.ts';
import { listState, mapState, reducingState, valueState } from '../../state/descriptors.ts';
import { MemoryStateBackend } from '../../state/memory/memoryBackend.ts';
import { testClock } from '../../state/backendBehaviour.suite.ts';
import { idbWorld } from './testkit.ts';
import type { IndexedDbStateBackend } from './indexedDbBackend.ts';

function bind(b: KeyedStateBackend) {
  return {
    cnt: b.value(valueState<number>('cnt')),
    hist: b.list(listState<number>('hist', { ttlMs: 400 })),
    attrs: b.map(mapState<string, number>('attrs')),
    sum: b.reducing(reducingState<number>('sum', (a, c) => a + c)),
    seen: b.value(valueState<{ at: number }>('seen', { ttlMs: 300, update: 'onReadAndWrite' })),
  };
}

/** Applies one random operation to the current key and returns what it read. */
function operate(s: ReturnType<typeof bind>, op: number, i: number, x: number): unknown {
  switch (op) {
    case 0: {
      const c = s.cnt.value() ?? 0;
      s.cnt.update(c + 1);
      return c;
    }
    case 1:
      s.hist.add(i);
      return s.hist.get().length;
    case 2:
      s.attrs.put(`f${x % 5}`, i);
      return s.attrs.size();
    case 3:
      s.attrs.remove(`f${x % 5}`);
      return s.attrs.entries();
    case 4:
      s.sum.add(x);
      return s.sum.get();
    case 5:
      s.cnt.clear();
      return null;
    case 6: {
      const seen = s.seen.value();
      if (x % 2) s.seen.update({ at: i });
      return seen;
    }
    default:
      return [s.hist.get(), s.attrs.keys(), s.cnt.value()];
  }
}

async function dumpAll(b: KeyedStateBackend): Promise<Record<string, unknown>> {
  const names = ['cnt', 'hist', 'attrs', 'sum', 'seen'];
  const keys = [...new Set(names.flatMap((n) => b.keys(n)))].sort((a, c) => String(a).localeCompare(String(c)));
  await b.prefetch(keys);
  const s = bind(b);
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    b.setCurrentKey(k);
    out[`${typeof k}:${String(k)}`] = [s.cnt.value(), s.hist.get(), s.attrs.entries(), s.sum.get(), s.seen.value()];
  }
  return out;
}

describe('IndexedDbStateBackend eviction and prefetch', () => {
  it.each([
    ['checkpoints written at once', 4096],
    ['checkpoints written copy-on-write, in slices', 0],
  ])('under a tiny memory budget gives exactly what the memory backend gives (%s)', async (_name, syncPersistKeys) => {
    const world = idbWorld({ memoryBudgetBytes: 3_000, chunkEntries: 16, maxChunksPerKeyGroup: 4, syncPersistKeys });
    const clock = testClock();
    const rng = seededRng(42);
    const universe: Key[] = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? i : `key-${i}`));
    let mem: KeyedStateBackend = new MemoryStateBackend(clock.time);
    let idb = await world.make(clock.time);
    let handles: PersistResult[] = [];
    let inFlight: Promise<PersistResult> | null = null;
    let memSnap = mem.snapshot();
    let maxEvicted = 0;
    for (let batch = 0; batch < 75; batch++) {
      clock.proc += 37;
      const ops = Array.from({ length: 30 }, () => ({ key: rng.pick(universe), op: rng.int(8), x: rng.int(100) }));
      await idb.prefetch(ops.map((o) => o.key));
      maxEvicted = Math.max(maxEvicted, idb.diagnostics().evictedKeys);
      const sm = bind(mem);
      const si = bind(idb);
      for (const [i, o] of ops.entries()) {
        mem.setCurrentKey(o.key);
        idb.setCurrentKey(o.key);
        expect(operate(si, o.op, batch * 100 + i, o.x)).toEqual(operate(sm, o.op, batch * 100 + i, o.x));
      }
      if (batch % 3 === 2) {
        // The previous checkpoint's write may still be running while this one starts.
        const next = idb.persist(batch, { incremental: batch % 21 !== 20 }).done;
        if (inFlight) handles.push(await inFlight);
        inFlight = next;
        memSnap = mem.snapshot();
        if (handles.length > 2) {
          handles = handles.slice(-2);
          await idb.retainOnly(handles.map((h) => h.handle));
        }
      }
      if (batch % 25 === 24) {
        // Recover both from their latest checkpoint, as after a crash.
        const last = await inFlight!;
        inFlight = null;
        handles.push(last);
        idb.close();
        idb = await world.make(clock.time);
        await idb.restoreHandles([last.handle]);
        mem = new MemoryStateBackend(clock.time);
        mem.restore([memSnap]);
      }
    }
    expect(maxEvicted).toBeGreaterThan(100);
    expect(await dumpAll(idb)).toEqual(await dumpAll(mem));
  });

  it('reading, writing or clearing an evicted key that was not prefetched throws', async () => {
    const world = idbWorld({ memoryBudgetBytes: 1_000 });
    const { time } = testClock();
    const b = await world.make(time);
    const v = b.value(valueState<number>('v'));
    for (let i = 0; i < 200; i++) {
      b.setCurrentKey(`k${i}`);
      v.update(i);
    }
    // Dirty keys are never evicted: nothing is on disk yet.
    await b.prefetch(['k0']);
    expect(b.diagnostics().evictedKeys).toBe(0);
    await b.persist(1).done;
    await b.prefetch(['k0']);
    const m = b.metrics();
    expect(m.keysOnDisk).toBeGreaterThan(150);
    expect(m.keysInMemory! + m.keysOnDisk!).toBe(200);
    expect(m.keyCount).toBe(200);
    expect(b.keys('v')).toHaveLength(200);

    b.setCurrentKey('k150');
    expect(() => v.value()).toThrow(/evicted.*prefetch/);
    expect(() => v.update(1)).toThrow(/evicted/);
    expect(() => v.clear()).toThrow(/evicted/);
    expect(() => b.snapshot()).toThrow(/persist/);
    b.setCurrentKey('k0');
    expect(v.value()).toBe(0);

    await b.prefetch(['k150', 'k151']);
    b.setCurrentKey('k150');
    expect(v.value()).toBe(150);
    v.update(-150);
    // k150 is dirty now: a later prefetch keeps it even when over budget.
    await b.prefetch(['k1']);
    b.setCurrentKey('k150');
    expect(v.value()).toBe(-150);
  });

  it('restores lazily within the budget and prefetches the rest', async () => {
    const world = idbWorld();
    const { time } = testClock();
    const b = await world.make(time);
    const v = b.value(valueState<number>('v'));
    for (let i = 0; i < 500; i++) {
      b.setCurrentKey(i);
      v.update(i * 3);
    }
    const { handle } = await b.persist(1).done;
    const small = await world.make(time, { memoryBudgetBytes: 2_000 });
    await small.restoreHandles([handle]);
    expect(small.diagnostics().evictedKeys).toBeGreaterThan(400);
    const sv = small.value(valueState<number>('v'));
    const keys = Array.from({ length: 500 }, (_, i) => i);
    for (let from = 0; from < 500; from += 50) {
      const batch = keys.slice(from, from + 50);
      await small.prefetch(batch);
      for (const k of batch) {
        small.setCurrentKey(k);
        expect(sv.value()).toBe(k * 3);
      }
    }
  });
});
