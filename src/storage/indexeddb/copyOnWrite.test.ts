import { describe, expect, it } from 'vitest';
import { listState, mapState, valueState } from '../../state/descriptors.ts';
import { testClock } from '../../state/backendBehaviour.suite.ts';
import { idbWorld } from './testkit.ts';

describe('IndexedDbStateBackend copy-on-write checkpoints', () => {
  it('keeps writes made while a large checkpoint is being written out of it', async () => {
    const world = idbWorld({ syncPersistKeys: 10 });
    const { time } = testClock();
    const b = await world.make(time);
    const v = b.value(valueState<{ n: number; tags: string[] }>('v'));
    const l = b.list(listState<number>('l'));
    const m = b.map(mapState<string, number>('m'));
    const keys = Array.from({ length: 6_000 }, (_, i) => `k${i}`);
    for (const [i, k] of keys.entries()) {
      b.setCurrentKey(k);
      v.update({ n: i, tags: ['a'] });
      if (i % 10 === 0) l.add(i);
      if (i % 7 === 0) m.put('x', i);
    }
    const p = b.persist(1);
    expect(p.dirtyKeys).toBe(6_000);
    // Records keep flowing while the checkpoint is written: mutate in place, add, remove, clear.
    for (const [i, k] of keys.entries()) {
      if (i % 3) continue;
      b.setCurrentKey(k);
      const cur = v.value()!;
      cur.n = -1;
      cur.tags.push('changed');
      v.update(cur);
      l.add(-1);
      m.remove('x');
      if (i % 9 === 0) v.clear();
    }
    const { handle } = await p.done;
    const back = await world.make(time);
    await back.restoreHandles([handle]);
    const bv = back.value(valueState<{ n: number; tags: string[] }>('v'));
    const bl = back.list(listState<number>('l'));
    const bm = back.map(mapState<string, number>('m'));
    const got = keys.map((k) => {
      back.setCurrentKey(k);
      return [bv.value(), bl.get(), bm.get('x')];
    });
    expect(got).toEqual(keys.map((_, i) => [{ n: i, tags: ['a'] }, i % 10 === 0 ? [i] : [], i % 7 === 0 ? i : undefined]));
    // ...and the next checkpoint carries exactly those later writes.
    const next = await b.persist(2).done;
    const again = await world.make(time);
    await again.restoreHandles([next.handle]);
    again.setCurrentKey('k3');
    expect(again.value(valueState('v')).value()).toEqual({ n: -1, tags: ['a', 'changed'] });
    again.setCurrentKey('k9');
    expect(again.value(valueState('v')).value()).toBeUndefined();
    expect(again.list(listState('l')).get()).toEqual([-1]);
  });

  it('keeps out writes to keys of groups not yet written, made while earlier slices commit', async () => {
    const world = idbWorld({ syncPersistKeys: 10 });
    const { time } = testClock();
    const b = await world.make(time);
    const v = b.value(valueState<number>('v'));
    const keys = Array.from({ length: 30_000 }, (_, i) => i);
    for (const k of keys) {
      b.setCurrentKey(k);
      v.update(k);
    }
    const p = b.persist(1);
    let settled = false;
    void p.done.finally(() => (settled = true));
    // A different share of the keys changes between each pair of slices, until the checkpoint is durable.
    for (let round = 0; !settled && round < 1_000; round++) {
      await new Promise((r) => setTimeout(r, 0));
      for (let k = round % 40; k < keys.length; k += 40) {
        b.setCurrentKey(k);
        v.update(-1);
      }
    }
    const { handle } = await p.done;
    const back = await world.make(time);
    await back.restoreHandles([handle]);
    const bv = back.value(valueState<number>('v'));
    const wrong = keys.filter((k) => {
      back.setCurrentKey(k);
      return bv.value() !== k;
    });
    expect(wrong).toEqual([]);
  });

  it('a value that cannot be cloned fails the checkpoint, not the record that touched it', async () => {
    const world = idbWorld({ syncPersistKeys: 0 });
    const { time } = testClock();
    const b = await world.make(time);
    const v = b.value(valueState<unknown>('v'));
    b.setCurrentKey('bad');
    v.update({ f: () => 1 });
    const p = b.persist(1);
    expect(() => v.value()).not.toThrow();
    v.update({ f: 1 });
    await expect(p.done).rejects.toThrow();
    const r = await b.persist(2).done;
    const back = await world.make(time);
    await back.restoreHandles([r.handle]);
    back.setCurrentKey('bad');
    expect(back.value(valueState('v')).value()).toEqual({ f: 1 });
  });
});
