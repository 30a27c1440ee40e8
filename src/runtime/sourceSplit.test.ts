import { describe, expect, it } from 'vitest';
import type { RawRecord, SourceReader } from '../core/source.ts';
import type { SubtaskSnapshot } from '../checkpoint/types.ts';
import { SplitReader } from './sourceSplit.ts';

/** Positions 0..n-1 of a replayable source; each record is its position. */
function positions(n: number): SourceReader {
  let at = 0;
  return {
    read: (max) => {
      const out: RawRecord[] = [];
      for (; out.length < max && at < n; at++) out.push({ value: at } as unknown as RawRecord);
      return out;
    },
    done: () => at >= n,
    offset: () => at,
    seek: (o) => void (at = o),
  };
}

const valueOf = (r: RawRecord) => (r as unknown as { value: number }).value;

/** Runs `parallelism` readers, each for its own number of reads, and snapshots them. */
function runAndSnapshot(readers: SplitReader[], reads: number[], into: Set<number>): SubtaskSnapshot[] {
  readers.forEach((r, i) => {
    for (let k = 0; k < reads[i]; k++) {
      for (const rec of r.read(1)) {
        const v = valueOf(rec);
        if (into.has(v)) throw new Error(`position ${v} read twice`);
        into.add(v);
      }
    }
  });
  return readers.map((r, i) => ({
    subtask: `src#${i}`,
    parallelism: readers.length,
    keyed: { type: 'inline', snapshot: { maxParallelism: 0, keyGroups: {} } },
    operator: { lists: {}, broadcast: {} },
    timers: [],
    watermark: i,
    counters: {},
    source: r.snapshot({ offset: r.offset(), maxTs: 100 + i, watermark: i }),
  }));
}

function restoreAt(snaps: SubtaskSnapshot[], parallelism: number, n: number): SplitReader[] {
  return Array.from({ length: parallelism }, (_, i) => {
    const r = new SplitReader(positions(n), i, parallelism);
    r.seek(r.restore(snaps, 'src').offset);
    return r;
  });
}

describe('SplitReader rescale', () => {
  it('reads every position exactly once across 2 → 3 → 1 → 4 rescales with uneven progress', () => {
    const n = 500;
    const seen = new Set<number>();
    let readers = Array.from({ length: 2 }, (_, i) => new SplitReader(positions(n), i, 2));
    let snaps = runAndSnapshot(readers, [40, 7], seen);
    readers = restoreAt(snaps, 3, n);
    snaps = runAndSnapshot(readers, [3, 60, 11], seen);
    readers = restoreAt(snaps, 1, n);
    snaps = runAndSnapshot(readers, [5], seen);
    readers = restoreAt(snaps, 4, n);
    runAndSnapshot(readers, [n, n, n, n], seen);
    expect(seen.size).toBe(n);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
  });

  it('restores the lowest watermark and timestamp after a rescale, its own at the same parallelism', () => {
    const seen = new Set<number>();
    const snaps = runAndSnapshot([0, 1].map((i) => new SplitReader(positions(50), i, 2)), [4, 9], seen);
    expect(new SplitReader(positions(50), 0, 3).restore(snaps, 'src')).toEqual({ offset: 7, maxTs: 100, watermark: 0 });
    expect(new SplitReader(positions(50), 1, 2).restore(snaps, 'src')).toEqual({ offset: 18, maxTs: 101, watermark: 1 });
  });

  it('names the source when the checkpoint lacks some of its subtask snapshots', () => {
    const snaps = runAndSnapshot([0, 1].map((i) => new SplitReader(positions(10), i, 2)), [1, 1], new Set());
    expect(() => new SplitReader(positions(10), 0, 3).restore(snaps.slice(1), 'src')).toThrow(/source src: the checkpoint holds 1 of its subtask snapshots, expected one per old subtask \(2\)/);
  });

  it('keeps a changelog source\'s table at the same parallelism and refuses to split it again', () => {
    const snaps = runAndSnapshot([new SplitReader(positions(10), 0, 1)], [3], new Set());
    (snaps[0].source as { changelogTable?: unknown }).changelogTable = [['["a"]', { id: 'a', v: 2 }]];
    expect(new SplitReader(positions(10), 0, 1).restore(snaps, 'src')).toEqual({ offset: 3, maxTs: 100, watermark: 0, changelogTable: [['["a"]', { id: 'a', v: 2 }]] });
    expect(() => new SplitReader(positions(10), 0, 2).restore(snaps, 'src')).toThrow(/source src: the checkpoint holds a changelog source at parallelism 1, which cannot be split again at parallelism 2/);
  });
});
