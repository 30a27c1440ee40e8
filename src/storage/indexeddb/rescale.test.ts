import { describe, expect, it } from 'vitest';
import { keyGroupOf, keyGroupRange } from '../../core/keys.ts';
import type { Key } from '../../core/types.ts';
import type { KeyedStateHandle } from '../../state/snapshotHandles.ts';
import { mapState, valueState } from '../../state/descriptors.ts';
import { testClock } from '../../state/backendBehaviour.suite.ts';
import { idbWorld } from './testkit.ts';

const MAX_P = 128;
const owner = (subtask: number, parallelism: number) => {
  const [lo, hi] = keyGroupRange(subtask, parallelism, MAX_P);
  return (kg: number) => kg >= lo && kg <= hi;
};

describe('IndexedDbStateBackend rescaling', () => {
  it('two handles from parallelism 2 restore into parallelism 1 and 3 with exactly the original keys', async () => {
    const world = idbWorld({ maxParallelism: MAX_P });
    const { time } = testClock();
    const all = Array.from({ length: 2_000 }, (_, i) => (i % 2 ? `user-${i}` : i));
    const handles: KeyedStateHandle[] = [];
    for (let s = 0; s < 2; s++) {
      const b = await world.make(time);
      const v = b.value(valueState<number>('v'));
      const m = b.map(mapState<string, string>('m'));
      const mine = all.filter((k) => owner(s, 2)(keyGroupOf(k, MAX_P)));
      for (const k of mine) {
        b.setCurrentKey(k);
        v.update(String(k).length);
        m.put('owner', `old-${s}`);
      }
      await b.persist(1).done;
      // An incremental step too, so the handles layer two checkpoints.
      b.setCurrentKey(mine[0]);
      v.update(-1);
      handles.push((await b.persist(2).done).handle);
    }
    const firsts = [0, 1].map((s) => all.find((x) => owner(s, 2)(keyGroupOf(x, MAX_P))));
    const expected = (k: Key) => (firsts.includes(k as string | number) ? -1 : String(k).length);

    for (const parallelism of [1, 3]) {
      const seen: unknown[] = [];
      for (let s = 0; s < parallelism; s++) {
        const owns = owner(s, parallelism);
        const b = await world.make(time, { memoryBudgetBytes: s === 0 ? 5_000 : Infinity });
        await b.restoreHandles(handles, owns);
        const keys = b.keys('v');
        expect(keys.every((k) => owns(keyGroupOf(k, MAX_P)))).toBe(true);
        await b.prefetch(keys);
        const v = b.value(valueState<number>('v'));
        const m = b.map(mapState<string, string>('m'));
        for (const k of keys) {
          b.setCurrentKey(k);
          expect(v.value()).toBe(expected(k));
          expect(m.get('owner')).toBe(`old-${owner(0, 2)(keyGroupOf(k, MAX_P)) ? 0 : 1}`);
        }
        seen.push(...keys);
        // The rescaled subtask keeps checkpointing on top of the chunks it took over.
        const next = await b.persist(3).done;
        expect(next.writtenBytes).toBe(0);
        b.close();
      }
      expect(seen.map(String).sort()).toEqual(all.map(String).sort());
      expect(new Set(seen.map((k) => `${typeof k}:${k}`)).size).toBe(all.length);
    }
  });
});
