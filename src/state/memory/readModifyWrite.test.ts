import { describe, expect, it } from 'vitest';
import { MemoryStateBackend } from './memoryBackend.ts';
import { valueState } from '../descriptors.ts';

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
});
