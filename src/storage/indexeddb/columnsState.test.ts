import { describe, expect, it } from 'vitest';
import type { Key } from '../../core/types.ts';
import type { ColumnsDescriptor, ColumnsState } from '../../state/descriptors.ts';
import type { KeyedStateBackend, KeyedStateSnapshot } from '../../state/backend.ts';
import { valueState } from '../../state/descriptors.ts';
import { testClock } from '../../state/backendBehaviour.suite.ts';
import { MemoryStateBackend } from '../../state/memory/memoryBackend.ts';
import { idbWorld } from './testkit.ts';

/** Two numbers per key; the value-state form is { sum, n, label } (the label is the ref). */
const pair: ColumnsDescriptor = {
  name: 'pair',
  kind: 'columns',
  width: 2,
  encode: (nums, at, ref) => ({ sum: nums[at], n: nums[at + 1], label: ref }),
  decode(value, nums, at) {
    const v = value as { sum: number; n: number; label: unknown };
    if (typeof v?.n !== 'number') throw new Error('not a pair');
    nums[at] = v.sum;
    nums[at + 1] = v.n;
    return v.label;
  },
};

function bump(b: KeyedStateBackend, s: ColumnsState, key: Key, by: number, label: unknown = key): void {
  b.setCurrentKey(key);
  const slot = s.claim();
  const nums = s.numbers();
  nums[slot * 2] += by;
  nums[slot * 2 + 1] += 1;
  s.written(slot, label);
}

/** The cells of a snapshot, sorted, without key groups: two backends' states compared as values. */
const cellsOf = (snap: KeyedStateSnapshot) =>
  Object.values(snap.keyGroups)
    .flat()
    .map((c) => JSON.stringify([c.state, c.kind, c.key, c.value, c.touched, c.eventTime]))
    .sort();

const keys = Array.from({ length: 3_000 }, (_, i) => (i % 5 === 0 ? `k${i}` : i));

/** What records do to both backends between checkpoints: claim, bump, relabel and clear keys, and a value state beside. */
function phaseOps(b: KeyedStateBackend, s: ColumnsState, phase: number): void {
  const other = b.value(valueState<number>('other'));
  for (const [i, k] of keys.entries()) {
    if (phase === 0) {
      bump(b, s, k, i * 0.25, i % 3 === 0 ? `label ${i}` : k);
      if (i % 4 === 0) other.update(i);
    } else if (i % 3 === phase % 3) {
      if (i % 7 === 0) {
        b.setCurrentKey(k);
        s.clear();
        // A new key takes the freed slot; every other cleared key comes straight back in another slot.
        bump(b, s, `new ${phase} ${i}`, i);
        if (i % 2) bump(b, s, k, -phase, `back ${phase}`);
      } else bump(b, s, k, phase, k);
      if (i % 11 === 0) other.update(-i);
    }
  }
}

describe('columns state in the IndexedDB backend', () => {
  it('is offered without a memory budget only', async () => {
    const { time } = testClock();
    const world = idbWorld();
    expect((await world.make(time)).columns(pair)).not.toBeNull();
    expect((await world.make(time, { memoryBudgetBytes: 1e6 })).columns(pair)).toBeNull();
  });

  for (const syncPersistKeys of [100_000, 10]) {
    it(`checkpoints what the heap backend snapshots, and restores it (${syncPersistKeys === 10 ? 'in slices, records flowing' : 'at once'})`, async () => {
      const clock = testClock();
      clock.event = 5;
      const world = idbWorld({ syncPersistKeys });
      const idb = await world.make(clock.time);
      const heap = new MemoryStateBackend(clock.time);
      const si = idb.columns(pair)!;
      const sh = heap.columns(pair)!;
      phaseOps(idb, si, 0);
      phaseOps(heap, sh, 0);
      for (let phase = 1; phase <= 3; phase++) {
        const expected = cellsOf(heap.snapshot());
        const p = idb.persist(phase);
        // Records keep flowing while the checkpoint is written (in slices: after this task).
        clock.event = 5 + phase;
        phaseOps(idb, si, phase);
        phaseOps(heap, sh, phase);
        const { handle } = await p.done;
        for (const declareFirst of [true, false]) {
          const back = await world.make(clock.time);
          if (declareFirst) back.columns(pair);
          await back.restoreHandles([handle]);
          const s = back.columns(pair)!;
          expect(cellsOf(back.snapshot())).toEqual(expected);
          expect(back.keys('pair').length).toBe(s.size());
          back.close();
        }
      }
      // Restored keys are clean: nothing is dirty until they change.
      const back = await world.make(clock.time);
      back.columns(pair);
      await back.restoreHandles([(await idb.persist(9).done).handle]);
      expect(back.diagnostics().dirtyKeys).toBe(0);
      expect(cellsOf(back.snapshot())).toEqual(cellsOf(heap.snapshot()));
    });
  }

  it('restores a checkpoint written as value state (by a version without columns) into columns', async () => {
    const { time } = testClock();
    const world = idbWorld();
    const old = await world.make(time);
    const v = old.value(valueState<{ sum: number; n: number; label: unknown }>('pair'));
    for (let k = 0; k < 500; k++) {
      old.setCurrentKey(k);
      v.update({ sum: k / 2, n: 1, label: k % 2 ? k : `l${k}` });
    }
    const { handle } = await old.persist(1).done;
    const back = await world.make(time);
    const s = back.columns(pair)!;
    await back.restoreHandles([handle]);
    back.setCurrentKey(8);
    expect([s.numbers()[s.find() * 2], s.ref(s.find())]).toEqual([4, 'l8']);
    expect(s.size()).toBe(500);
    // ...and a key changed after the restore is written again, the others are referred to.
    bump(back, s, 8, 1);
    const next = await back.persist(2).done;
    expect(next.writtenBytes).toBeLessThan(next.fullBytes / 10);
    const again = await world.make(time);
    const s2 = again.columns(pair)!;
    await again.restoreHandles([next.handle]);
    again.setCurrentKey(8);
    expect([s2.numbers()[s2.find() * 2], s2.numbers()[s2.find() * 2 + 1]]).toEqual([5, 2]);
  });
});
