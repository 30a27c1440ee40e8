import { describe, expect, it } from 'vitest';
import { MemoryStateBackend } from './memoryBackend.ts';
import { keyGroupOf } from '../../core/keys.ts';
import type { ColumnsDescriptor } from '../descriptors.ts';
import type { StateTime } from '../backend.ts';

/** Two numbers per key; the value state form is { sum, n } with the ref as its label. */
const pair: ColumnsDescriptor = {
  name: 'pair',
  kind: 'columns',
  width: 2,
  encode: (nums, at, ref) => ({ sum: nums[at], n: nums[at + 1], label: ref }),
  decode(value, nums, at) {
    const v = value as { sum: number; n: number; label: unknown };
    nums[at] = v.sum;
    nums[at + 1] = v.n;
    return v.label;
  },
};

function backend(clock = { pt: 0, et: 0 }) {
  const time: StateTime = { processingTime: () => clock.pt, eventTime: () => clock.et };
  return { b: new MemoryStateBackend(time), clock };
}

function fill(b: MemoryStateBackend, keys: number) {
  const s = b.columns(pair)!;
  for (let k = 0; k < keys; k++) {
    b.setCurrentKey(k);
    const slot = s.claim();
    const nums = s.numbers();
    nums[slot * 2] += k * 0.5;
    nums[slot * 2 + 1] += 1;
    s.written(slot, k % 3 === 0 ? `label ${k}` : k);
  }
  return s;
}

describe('columns state in the heap backend', () => {
  it('snapshots as value cells grouped by key group and restores only the owned groups', () => {
    const { b, clock } = backend();
    clock.et = 42;
    fill(b, 300);
    const snap = b.snapshot();
    const cells = Object.entries(snap.keyGroups).flatMap(([kg, cs]) => cs.map((c) => ({ kg: Number(kg), c })));
    expect(cells).toHaveLength(300);
    for (const { kg, c } of cells) {
      expect(kg).toBe(keyGroupOf(c.key));
      expect(c).toEqual({ state: 'pair', kind: 'value', key: c.key, value: { sum: (c.key as number) * 0.5, n: 1, label: (c.key as number) % 3 === 0 ? `label ${c.key}` : c.key }, touched: 0, eventTime: 42 });
    }
    const half = (kg: number) => kg < 64;
    const { b: other } = backend();
    const s = other.columns(pair)!;
    other.restore([structuredClone(snap)], half);
    expect(other.keys('pair').sort((x, y) => (x as number) - (y as number))).toEqual(cells.filter((x) => half(x.kg)).map((x) => x.c.key).sort((x, y) => (x as number) - (y as number)));
    other.setCurrentKey(3);
    const slot = s.find();
    if (half(keyGroupOf(3))) expect(s.ref(slot)).toBe('label 3');
    else expect(slot).toBe(-1);
  });

  it('restoring into a used state leaves no numbers of the keys it dropped in reused slots', () => {
    const { b } = backend();
    const s = fill(b, 20);
    const snap = structuredClone(b.snapshot());
    fill(b, 40);
    b.restore([snap]);
    expect(b.keys('pair')).toHaveLength(20);
    b.setCurrentKey(-1);
    const fresh = s.claim();
    expect([s.numbers()[fresh * 2], s.numbers()[fresh * 2 + 1]]).toEqual([0, 0]);
    b.setCurrentKey(5);
    expect(s.numbers()[s.find() * 2]).toBe(2.5);
  });

  it('takes in cells restored before the state was declared', () => {
    const { b } = backend();
    fill(b, 50);
    const snap = structuredClone(b.snapshot());
    const { b: late } = backend();
    late.restore([snap]);
    const s = late.columns(pair)!;
    late.setCurrentKey(6);
    expect(s.numbers()[s.find() * 2]).toBe(3);
    expect(s.ref(s.find())).toBe('label 6');
    expect(late.keys('pair')).toHaveLength(50);
    expect(late.inspect(5)).toHaveLength(5);
    expect(late.metrics()).toMatchObject({ keyCount: 50, perState: { pair: { keys: 50 } } });
  });

  it('records write time and serial for the observatory once it looks, and builds cells on demand', () => {
    const { b, clock } = backend();
    const s = fill(b, 10);
    const [t] = b.observeTables();
    expect(t).toMatchObject({ name: 'pair', kind: 'value', ttl: undefined });
    expect(t.table.size).toBe(10);
    expect(t.table.get(4)).toEqual({ v: { sum: 2, n: 1, label: 4 }, t: 0, et: 0, u: undefined, w: undefined });
    clock.pt = 777;
    const before = b.mutations();
    b.setCurrentKey(4);
    s.written(s.find(), 4);
    expect(b.mutations()).toBe(before + 1);
    expect(t.table.get(4)).toMatchObject({ u: 777, w: before + 1 });
    expect([...t.table.keys()]).toHaveLength(10);
    expect([...t.table].map(([k]) => k)).toEqual([...t.table.keys()]);
    const keySet = b.keySetVersion();
    s.clear();
    expect(b.keySetVersion()).toBe(keySet + 1);
    expect(t.table.has(4)).toBe(false);
  });

  it('is not offered by backends that keep per-key cells, and refuses a name another state has', () => {
    class Cells extends MemoryStateBackend {
      protected override newTable() {
        return new Map();
      }
    }
    const time: StateTime = { processingTime: () => 0, eventTime: () => 0 };
    expect(new Cells(time).columns(pair)).toBeNull();
    const { b } = backend();
    b.value({ name: 'pair', kind: 'value' });
    expect(() => b.columns(pair)).toThrow(/already registered as value/);
  });

  it('hands an unchanged key its last snapshot cell and builds the cells of keys written, claimed, dropped or restored since', () => {
    const { b, clock } = backend();
    const s = fill(b, 300);
    const cellOf = (snap: ReturnType<MemoryStateBackend['snapshot']>, key: number) => snap.keyGroups[keyGroupOf(key, snap.maxParallelism)].find((c) => c.key === key)!;
    const first = b.snapshot();
    b.setCurrentKey(5);
    const slot = s.find();
    s.numbers()[slot * 2] += 100;
    clock.et = 42;
    s.written(slot, 'relabelled');
    b.setCurrentKey(7);
    s.clear();
    b.setCurrentKey(7);
    s.claim();
    const second = b.snapshot();
    expect(cellOf(second, 4)).toBe(cellOf(first, 4));
    expect(cellOf(second, 5)).not.toBe(cellOf(first, 5));
    expect(cellOf(second, 5)).toEqual({ state: 'pair', kind: 'value', key: 5, value: { sum: 102.5, n: 1, label: 'relabelled' }, touched: 0, eventTime: 42 });
    expect(cellOf(first, 5).value).toEqual({ sum: 2.5, n: 1, label: 5 });
    expect(cellOf(second, 7).value).toEqual({ sum: 0, n: 0, label: 7 });
    b.restore([first]);
    const third = b.snapshot();
    expect(cellOf(third, 5).value).toEqual({ sum: 2.5, n: 1, label: 5 });
    expect(cellOf(third, 7).value).toEqual({ sum: 3.5, n: 1, label: 7 });
    const count = (snap: typeof first) => Object.values(snap.keyGroups).reduce((n, cells) => n + cells.length, 0);
    expect(count(third)).toBe(300);
  });
});
