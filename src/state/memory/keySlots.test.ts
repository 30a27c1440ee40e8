import { describe, expect, it } from 'vitest';
import { KeySlots } from './keySlots.ts';
import { seededRng } from '../../core/rng.ts';
import type { Key } from '../../core/types.ts';

/** Keys of every kind a GROUP BY key can be, integers crowded into few buckets so probe runs collide. */
function keyPool(seed: number): Key[] {
  const rng = seededRng(seed);
  const pool: Key[] = [0, -0, 1, -1, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 1.5, Number.NaN, Infinity, -Infinity, '1', '', 'a', true, false, null];
  for (let i = 0; i < 300; i++) pool.push(rng.int(600) - 100);
  for (let i = 0; i < 40; i++) pool.push(rng.int(1000) * 64);
  for (let i = 0; i < 20; i++) pool.push(`k${rng.int(30)}`);
  return pool;
}

/** The same operations on a Map<Key, number> and a KeySlots; every answer and the iteration order must agree. */
function compare(seed: number, ops: number): void {
  const rng = seededRng(seed);
  const pool = keyPool(seed);
  const model = new Map<Key, number>();
  const index = new KeySlots();
  const free: number[] = [];
  let used = 0;
  for (let op = 0; op < ops; op++) {
    const key = pool[rng.int(pool.length)];
    const r = rng.next();
    if (r < 0.6) {
      if (model.has(key)) continue;
      const slot = free.pop() ?? used++;
      model.set(key, slot);
      index.set(key, slot);
    } else if (r < 0.995) {
      const want = model.get(key);
      model.delete(key);
      expect(index.delete(key)).toBe(want ?? -1);
      if (want !== undefined) free.push(want);
    } else {
      model.clear();
      index.clear();
      free.length = 0;
      used = 0;
    }
    if (op % 97 === 0 || op === ops - 1) {
      expect(index.size).toBe(model.size);
      for (const k of pool) expect(index.get(k)).toBe(model.get(k) ?? -1);
      expect([...index.entries()]).toEqual([...model.entries()]);
      const seen: [Key, number][] = [];
      index.forEach((slot, k) => seen.push([k, slot]));
      expect(seen).toEqual([...model.entries()]);
      expect([...index.keys()]).toEqual([...model.keys()]);
    }
  }
}

describe('KeySlots', () => {
  it('answers as a Map<Key, number> does, in the same order, over random sets, deletes and clears', () => {
    for (const seed of [1, 2, 3, 4, 5]) compare(seed, 6_000);
  });

  it('keeps -0 as 0 and tells 1 from "1", NaN from null', () => {
    const s = new KeySlots();
    s.set(-0, 0);
    s.set('1', 1);
    s.set(Number.NaN, 2);
    s.set(null, 3);
    expect(s.get(0)).toBe(0);
    expect(Object.is([...s.keys()][0], 0)).toBe(true);
    expect(s.get(1)).toBe(-1);
    expect(s.get('1')).toBe(1);
    expect(s.get(Number.NaN)).toBe(2);
    expect(s.get(null)).toBe(3);
    expect(s.get(false)).toBe(-1);
  });

  it('grows past a million integer keys and still finds each', () => {
    const s = new KeySlots();
    for (let k = 0; k < 1_200_000; k++) s.set(k * 7 - 3_000_000, k);
    for (let k = 0; k < 1_200_000; k += 997) expect(s.get(k * 7 - 3_000_000)).toBe(k);
    expect(s.get(1)).toBe(-1);
    expect(s.size).toBe(1_200_000);
  });
});
