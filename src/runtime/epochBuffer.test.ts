import { describe, expect, it } from 'vitest';
import { EpochBuffer } from './epochBuffer.ts';

describe('EpochBuffer', () => {
  it('carries every uncommitted epoch into each snapshot and hands epochs over once their checkpoint completes', () => {
    const b = new EpochBuffer<string>('sink#0');
    b.addAll(['a', 'b']);
    expect(b.close(1)).toEqual([{ origin: 'sink#0', epoch: 1, items: ['a', 'b'] }]);
    b.add('c');
    // Checkpoint 1 has not completed: its epoch is still in the snapshot of checkpoint 2.
    const snap2 = b.close(2);
    expect(snap2.map((e) => e.epoch)).toEqual([1, 2]);
    b.add('d');
    expect(b.commit(1)).toEqual([{ origin: 'sink#0', epoch: 1, items: ['a', 'b'] }]);
    expect(b.commit(1)).toEqual([]);
    expect(b.commitAll()).toEqual([
      { origin: 'sink#0', epoch: 2, items: ['c'] },
      { origin: 'sink#0', epoch: Infinity, items: ['d'] },
    ]);
    // Snapshots hold copies: what the buffer does later does not change them.
    expect(snap2[1].items).toEqual(['c']);
  });

  it('keeps no empty epochs', () => {
    const b = new EpochBuffer<number>('x#1');
    expect(b.close(1)).toEqual([]);
    b.add(7);
    expect(b.close(2)).toEqual([{ origin: 'x#1', epoch: 2, items: [7] }]);
    expect(b.close(3)).toHaveLength(1);
    expect(b.commit(3)).toEqual([{ origin: 'x#1', epoch: 2, items: [7] }]);
    expect(b.commitAll()).toEqual([]);
  });
});
