import { describe, expect, it } from 'vitest';
import { listState, valueState } from '../../state/descriptors.ts';
import { testClock } from '../../state/backendBehaviour.suite.ts';
import type { KeyedStateHandle } from '../../state/snapshotHandles.ts';
import { idbWorld } from './testkit.ts';
import type { IndexedDbStateBackend } from './indexedDbBackend.ts';

const KEYS = Array.from({ length: 40 }, (_, i) => `k${i}`);

function read(b: IndexedDbStateBackend): [string, unknown, unknown][] {
  const v = b.value(valueState<number>('v'));
  const l = b.list(listState<number>('l'));
  return KEYS.map((k) => {
    b.setCurrentKey(k);
    return [k, v.value(), l.get()];
  });
}

/**
 * A restore without a memory budget applies a key group's chunks in order straight into the
 * tables; with one it loads each key's latest entry. Both must give the same state from chains
 * where keys lose a state, are deleted, and come back.
 */
describe('restoring a chain of incremental checkpoints', () => {
  it('gives the same state with and without a memory budget, and later checkpoints still see every persisted key', async () => {
    const world = idbWorld({ chunkEntries: 4 });
    const { time } = testClock();
    const b = await world.make(time);
    const v = b.value(valueState<number>('v'));
    const l = b.list(listState<number>('l'));
    KEYS.forEach((k, i) => {
      b.setCurrentKey(k);
      v.update(i);
      l.add(i);
    });
    await b.persist(1).done;
    b.setCurrentKey('k0'); // loses its list
    l.clear();
    v.update(100);
    b.setCurrentKey('k1'); // deleted
    v.clear();
    l.clear();
    b.setCurrentKey('k2'); // deleted, then back below
    v.clear();
    l.clear();
    await b.persist(2).done;
    b.setCurrentKey('k2');
    v.update(-2);
    b.setCurrentKey('k3'); // only its list changes
    l.add(33);
    const { handle } = await b.persist(3).done;
    const want = read(b);
    expect(want.slice(0, 4)).toEqual([
      ['k0', 100, []],
      ['k1', undefined, []],
      ['k2', -2, []],
      ['k3', 3, [3, 33]],
    ]);
    b.close();

    const restoreInto = async (memoryBudgetBytes?: number, h: KeyedStateHandle = handle) => {
      const r = await world.make(time, { memoryBudgetBytes, subtask: 'op#0' });
      await r.restoreHandles([h]);
      return r;
    };
    const unbudgeted = await restoreInto();
    expect(read(unbudgeted)).toEqual(want);
    expect(unbudgeted.keys('l').sort()).toEqual(KEYS.filter((k) => !['k0', 'k1', 'k2'].includes(k)).sort());
    // A key the restore loaded from the chunks is deleted: the next checkpoint must write its tombstone.
    unbudgeted.setCurrentKey('k5');
    unbudgeted.value(valueState<number>('v')).clear();
    unbudgeted.list(listState<number>('l')).clear();
    const after = await unbudgeted.persist(4).done;
    unbudgeted.close();
    const budgeted = await restoreInto(1e12, after.handle);
    expect(read(budgeted)).toEqual(want.map((e) => (e[0] === 'k5' ? ['k5', undefined, []] : e)));
    budgeted.close();
  });
});
