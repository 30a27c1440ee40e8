import type { RawRecord, SourcePosition, SourceReader } from '../core/source.ts';
import type { SourceTaskSnapshot } from '../engine/sourceTask.ts';
import type { SubtaskSnapshot } from '../checkpoint/types.ts';

/**
 * One parallelism a source ran at before a rescale: its subtask i had read every position
 * ≡ i (mod parallelism) below offsets[i], and none at or above it.
 */
export interface SplitLevel {
  parallelism: number;
  offsets: number[];
}

/** A source snapshot that also carries the levels before the latest rescale (Flink's reassigned splits). */
export type SplitSourceSnapshot = SourceTaskSnapshot & {
  splits?: SplitLevel[];
  /** Entries of the source's injection log read so far (injectionLog.ts); only subtask 0 reads them. */
  injected?: number;
  /** Entries appended to the injection log but not read at the checkpoint (for a resume elsewhere). */
  injectedPending?: RawRecord[];
  /** What the source's own reader carries (SourceReader.carry): a live feed's unread messages. */
  carried?: unknown;
};

const covers = (l: SplitLevel, p: number) => p < l.offsets[p % l.parallelism];

/**
 * Subtask `index` of `parallelism` reads the records whose position is ≡ index (mod parallelism)
 * and that no earlier level (before a rescale) had read. Its offset is the position in the
 * underlying source, so replay from a checkpoint is exact.
 */
export class SplitReader implements SourceReader {
  /** Levels before the last rescale whose positions are not all behind this subtask yet. */
  history: SplitLevel[] = [];

  constructor(
    private readonly inner: SourceReader,
    readonly index: number,
    readonly parallelism: number,
  ) {}

  read(max: number): RawRecord[] {
    if (this.parallelism === 1 && this.history.length === 0) return this.inner.read(max);
    const out: RawRecord[] = [];
    while (out.length < max && !this.inner.done()) {
      const at = this.inner.offset();
      const got = this.inner.read(1);
      if (at % this.parallelism === this.index && !this.history.some((l) => covers(l, at))) out.push(...got);
    }
    return out;
  }

  done(): boolean {
    return this.inner.done();
  }

  offset(): number {
    return this.inner.offset();
  }

  seek(o: number, at?: SourcePosition): void {
    this.inner.seek(o, at);
  }

  position(): SourcePosition | undefined {
    return this.inner.position?.();
  }

  /** The source task's snapshot plus the history levels a later restore needs. */
  snapshot(base: SourceTaskSnapshot): SplitSourceSnapshot {
    return this.history.length ? { ...base, splits: this.history.map((l) => ({ ...l, offsets: [...l.offsets] })) } : base;
  }

  /**
   * What this subtask restores from the snapshots of every old subtask of its source. At the same
   * parallelism it continues its own split; after a rescale the old subtasks' offsets become a
   * level every new subtask skips, and each starts at the lowest old offset, so every record
   * is read exactly once whatever the old and new parallelism.
   */
  restore(snaps: readonly SubtaskSnapshot[], node: string): SourceTaskSnapshot {
    const olds = snaps.filter((s) => s.source);
    const oldParallelism = olds[0]?.parallelism;
    if (!olds.length || olds.length !== oldParallelism || olds.some((s) => s.parallelism !== oldParallelism)) {
      throw new Error(`source ${node}: the checkpoint holds ${olds.length} of its subtask snapshots, expected one per old subtask (${oldParallelism ?? '?'}): it is damaged; restore from an earlier checkpoint or start without --resume`);
    }
    const byIndex = new Map(olds.map((s) => [Number(s.subtask.slice(s.subtask.lastIndexOf('#') + 1)), s.source as SplitSourceSnapshot]));
    const history = byIndex.get(0)?.splits ?? [];
    if (oldParallelism === this.parallelism) {
      const own = byIndex.get(this.index)!;
      this.history = own.splits ?? [];
      // A changelog source's latest row per key goes on with it, or its next update of a key read
      // before the checkpoint would be a second insert instead of a retraction and an update.
      return { offset: own.offset, ...(own.at ? { at: own.at } : {}), maxTs: own.maxTs, watermark: own.watermark, ...(own.changelogTable ? { changelogTable: own.changelogTable } : {}) };
    }
    // Split by position, one key's changes would land on several subtasks: a changelog source runs as one.
    if (olds.some((s) => (s.source as SplitSourceSnapshot).changelogTable)) {
      throw new Error(`source ${node}: the checkpoint holds a changelog source at parallelism ${oldParallelism}, which cannot be split again at parallelism ${this.parallelism} (a changelog source is read by one subtask); restore it at parallelism ${oldParallelism}`);
    }
    const latest: SplitLevel = { parallelism: oldParallelism, offsets: Array.from({ length: oldParallelism }, (_, i) => byIndex.get(i)!.offset) };
    const low = Math.min(...latest.offsets);
    // A level whose positions all lie below the newest level's lowest offset adds nothing.
    this.history = [...history.filter((l) => Math.max(...l.offsets) > low), latest];
    const all = [...byIndex.values()];
    // The lowest watermark and timestamp: this subtask now reads records some old subtask had not reached.
    const at = all.find((s) => s.offset === low)?.at;
    return { offset: low, ...(at ? { at } : {}), maxTs: Math.min(...all.map((s) => s.maxTs)), watermark: Math.min(...all.map((s) => s.watermark)) };
  }
}

export function splitReader(inner: SourceReader, index: number, parallelism: number): SplitReader {
  return new SplitReader(inner, index, parallelism);
}
