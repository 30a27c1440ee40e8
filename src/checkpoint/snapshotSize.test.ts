import { describe, expect, it } from 'vitest';
import { approxSnapshotSize, SAMPLED_CELLS } from './snapshotSize.ts';
import { approxSize } from '../state/size.ts';
import { sampleSnapshot } from './storeBehaviour.suite.ts';
import type { SubtaskSnapshot } from './types.ts';
import type { SnapshotCell } from '../state/backend.ts';
import { MemoryCheckpointStore } from './memoryStore.ts';

/** A join-like keyed snapshot: `groups` key groups of `perGroup` map cells of uneven sizes (no group sampled by approxSize). */
function joinSnapshot(groups: number, perGroup: number, cell: (i: number) => SnapshotCell = joinCell): SubtaskSnapshot {
  const keyGroups: Record<number, SnapshotCell[]> = {};
  let i = 0;
  for (let g = 0; g < groups; g++) keyGroups[g] = Array.from({ length: perGroup }, () => cell(i++));
  return { ...sampleSnapshot('paid#0', 1), keyed: { type: 'inline', snapshot: { maxParallelism: 128, keyGroups } } };
}

function joinCell(i: number): SnapshotCell {
  const rows = Array.from({ length: 1 + (i % 3) }, (_, j) => [`{"order_id":${i},"n":${j}}`, { row: { order_id: i, customer: `c${i % 97}`.repeat(1 + (i % 5)), amount: i * 1.5 }, ts: i, count: 1, matches: j }, i]);
  return { state: i % 2 ? 'join.left' : 'join.right', kind: 'map', key: i, value: rows, touched: i, eventTime: i };
}

describe('approxSnapshotSize', () => {
  it('is approxSize exactly while the keyed cells are few', () => {
    const small = sampleSnapshot('op#0', 3);
    expect(approxSnapshotSize(small)).toBe(approxSize(small));
    const atLimit = joinSnapshot(16, SAMPLED_CELLS / 16);
    expect(approxSnapshotSize(atLimit)).toBe(approxSize(atLimit));
    const chunked: SubtaskSnapshot = { ...small, keyed: { type: 'chunks', store: 's', chunks: [{ id: 'c1', keyGroup: 3, entries: 10, bytes: 400, writtenBy: 1 }] } };
    expect(approxSnapshotSize(chunked)).toBe(approxSize(chunked));
  });

  it('estimates many cells over many key groups within 5% of the full walk', () => {
    // 128 groups of 20: approxSize walks every cell (no array is long enough for its own sampling).
    for (const [groups, perGroup] of [[128, 20], [100, 37], [7, 300]]) {
      const snap = joinSnapshot(groups, perGroup);
      const exact = approxSize(snap);
      expect(Math.abs(approxSnapshotSize(snap) - exact) / exact).toBeLessThan(0.05);
    }
  });

  it('looks at no more than SAMPLED_CELLS cells, however many there are', () => {
    let reads = 0;
    const counted = (i: number): SnapshotCell => {
      const c = joinCell(i);
      const value = c.value;
      return Object.defineProperty(c, 'value', { enumerable: true, get: () => (reads++, value) });
    };
    const snap = joinSnapshot(128, 40, counted);
    approxSnapshotSize(snap);
    expect(reads).toBe(SAMPLED_CELLS);
    reads = 0;
    approxSize(snap);
    expect(reads).toBe(128 * 40);
  });

  it('is what the memory checkpoint store reports for a write', async () => {
    const snap = joinSnapshot(128, 20);
    const { bytes } = await new MemoryCheckpointStore({ ownership: 'handover' }).writeSubtask('j', 1, snap);
    expect(bytes).toBe(approxSnapshotSize(snap));
  });
});
