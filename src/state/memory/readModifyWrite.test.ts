import { describe, expect, it } from 'vitest';
import { MemoryStateBackend } from './memoryBackend.ts';
import { listState, mapState, valueState } from '../descriptors.ts';

// The heap backend remembers the cell a read found so that the write after it skips a lookup.
// These sequences would write into a stale cell if that memory outlived a key change or a removal.
describe('MemoryStateBackend read-modify-write', () => {
  const make = () => {
    let now = 0;
    const b = new MemoryStateBackend({ processingTime: () => now, eventTime: () => 0 });
    return { b, advance: (ms: number) => (now += ms) };
  };

  it('writes to the key that is current at the write, not the one read', () => {
    const { b } = make();
    const s = b.value(valueState<number>('n'));
    b.setCurrentKey('a');
    s.update(1);
    expect(s.value()).toBe(1);
    b.setCurrentKey('b');
    s.update(2);
    b.setCurrentKey('a');
    expect(s.value()).toBe(1);
    b.setCurrentKey('b');
    expect(s.value()).toBe(2);
  });

  it('does not write into a cell that was cleared, restored away, or listed out between read and write', () => {
    const { b } = make();
    const s = b.value(valueState<number>('n'));
    const other = b.value(valueState<number>('m'));
    b.setCurrentKey('k');
    s.update(1);
    expect(s.value()).toBe(1);
    s.clear();
    s.update(5);
    expect(b.keys('n')).toEqual(['k']);
    expect(s.value()).toBe(5);
    const snap = b.snapshot();
    s.value();
    b.restore([{ maxParallelism: snap.maxParallelism, keyGroups: {} }]);
    s.update(6);
    expect(b.keys('n')).toEqual(['k']);
    expect(s.value()).toBe(6);
    // A read of one state followed by a write of another touches each state's own cell.
    expect(other.value()).toBeUndefined();
    s.update(7);
    other.update(8);
    expect([s.value(), other.value()]).toEqual([7, 8]);
  });

  it('does not revive a value whose TTL expired on the read', () => {
    const { b, advance } = make();
    const s = b.value(valueState<number>('n', { ttlMs: 10, update: 'onCreateAndWrite', time: 'processing' }));
    b.setCurrentKey('k');
    s.update(1);
    advance(10);
    expect(s.value()).toBeUndefined();
    expect(b.metrics().ttlCleanups).toBe(1);
    s.update(2);
    expect(s.value()).toBe(2);
    expect(b.metrics().perState.n.keys).toBe(1);
  });

  // Map and list states remember the cell the same way: one lookup per key context.
  it('map state: a put after the last entry was removed, or expired, lands in a new cell of the table', () => {
    const { b, advance } = make();
    const m = b.map(mapState<string, number>('m'));
    b.setCurrentKey('k');
    m.put('x', 1);
    expect(m.get('x')).toBe(1);
    m.remove('x');
    m.put('y', 2);
    expect(b.keys('m')).toEqual(['k']);
    expect(m.entries()).toEqual([['y', 2]]);
    const t = b.map(mapState<string, number>('t', { ttlMs: 10, update: 'onCreateAndWrite', time: 'processing' }));
    t.put('x', 1);
    advance(10);
    expect(t.get('x')).toBeUndefined();
    t.put('z', 3);
    expect(b.keys('t')).toEqual(['k']);
    expect(t.entries()).toEqual([['z', 3]]);
  });

  it('map and list states: reads and writes follow key changes, other states and snapshots', () => {
    const { b } = make();
    const m = b.map(mapState<string, { n: number }>('m'));
    const l = b.list(listState<number>('l'));
    const v = b.value(valueState<number>('v'));
    b.setCurrentKey('a');
    m.put('x', { n: 1 });
    b.setCurrentKey('b');
    expect(m.get('x')).toBeUndefined();
    m.put('x', { n: 2 });
    v.update(9);
    l.add(1);
    l.update([]);
    l.add(2);
    expect(l.get()).toEqual([2]);
    b.setCurrentKey('a');
    const before = b.snapshot();
    const held = m.get('x')!;
    held.n = 5;
    m.put('x', held);
    expect(m.get('x')).toEqual({ n: 5 });
    const cells = Object.values(before.keyGroups).flat();
    expect(cells.filter((c) => c.state === 'm').map((c) => [c.key, c.value])).toEqual(expect.arrayContaining([['a', [['x', { n: 1 }, 0]]], ['b', [['x', { n: 2 }, 0]]]]));
    b.setCurrentKey('b');
    expect([m.get('x'), v.value(), l.get()]).toEqual([{ n: 2 }, 9, [2]]);
  });

  it('keeps reads and writes right when the same key is set again, when a read finds a state empty, and when a map entry is put again', () => {
    const { b } = make();
    const n = b.value(valueState<number>('n'));
    const m = b.map(mapState<string, { x: number }>('m'));
    const empty = b.map(mapState<string, number>('never'));
    b.setCurrentKey('a');
    n.update(1);
    b.setCurrentKey('a');
    expect(n.value()).toBe(1);
    n.update(2);
    b.setCurrentKey('b');
    n.update(3);
    b.setCurrentKey('a');
    b.setCurrentKey('a');
    expect(n.value()).toBe(2);
    // A read of a state no key holds leaves the cell the last read found in place, and writes land right.
    expect(n.value()).toBe(2);
    expect(empty.get('x')).toBeUndefined();
    expect(empty.isEmpty()).toBe(true);
    n.update(4);
    expect(n.value()).toBe(4);
    empty.put('x', 1);
    expect(empty.get('x')).toBe(1);
    expect(b.keys('never')).toEqual(['a']);
    // A second put of an entry after a snapshot leaves the snapshot as taken.
    m.put('k', { x: 1 });
    const snap = b.snapshot();
    const taken = JSON.stringify(snap);
    m.put('k', { x: 2 });
    m.put('j', { x: 3 });
    m.put('k', { x: 4 });
    expect(JSON.stringify(snap)).toBe(taken);
    expect(m.entries()).toEqual([['k', { x: 4 }], ['j', { x: 3 }]]);
    b.setCurrentKey('b');
    expect(n.value()).toBe(3);
    expect(m.isEmpty()).toBe(true);
    b.restore([snap]);
    b.setCurrentKey('a');
    expect(m.entries()).toEqual([['k', { x: 1 }]]);
    expect(n.value()).toBe(4);
  });
});
