import type { PendingCommit, SubtaskSnapshot } from '../../checkpoint/types.ts';
import type { Element, Row } from '../../core/types.ts';
import type { SnapshotCell } from '../../state/backend.ts';
import { decodeBatch, encodeBatch, packRows, unpackRows, type PackedRows, type WireBatch } from './codec.ts';

/**
 * A sink epoch on the events port. Sink output crosses to the job manager twice (pre-committed
 * in the snapshot, then published), and as structured-cloned element objects it cost more than
 * the job itself: ~1.4 µs per element to clone in the worker and more to rebuild and collect on
 * the manager's thread. Columnar, its numbers travel as transferred typed arrays.
 */
export interface WireCommit {
  origin: string;
  epoch: number;
  batch: WireBatch;
}

export function encodeCommits(commits: PendingCommit[], transfer: Transferable[]): WireCommit[] {
  return commits.map((c) => ({ origin: c.origin, epoch: c.epoch, batch: encodeBatch(c.els, 'columnar', transfer) }));
}

export function decodeCommits(wire: WireCommit[]): PendingCommit[] {
  return wire.map((w) => ({ origin: w.origin, epoch: w.epoch, els: decodeBatch(w.batch) }));
}

/** Sink changes of one subtask for the preview stream, sent with the worker's next flush. */
export interface WirePreview {
  sinkId: string;
  origin: string;
  since: number;
  batch: WireBatch;
}

/** Preview changes as the manager hands them on: not committed yet, tagged with the checkpoint they follow. */
export interface PreviewChange {
  origin: string;
  /** The sink's last checkpoint before these changes; the first completed checkpoint after it commits them. */
  since: number;
  /** The attempt that produced them: a restart discards what the failed attempt previewed and did not commit. */
  attempt: number;
  els: Element[];
}

export function encodePreviews(previews: { sinkId: string; origin: string; since: number; els: Element[] }[], transfer: Transferable[]): WirePreview[] {
  return previews.map((p) => ({ sinkId: p.sinkId, origin: p.origin, since: p.since, batch: encodeBatch(p.els, 'columnar', transfer) }));
}

/**
 * A memory snapshot's keyed cells, all key groups in one list: `counts[i]` cells of key group
 * `groups[i]`, in order. A GROUP BY's cell is three objects: structured-cloned, 5.6 µs per cell
 * (both ends, measured in one thread); as columns, 2.2 µs, its numbers transferred typed arrays.
 * With `base`, only the cells that changed since that snapshot travel (see KeyedTrail).
 */
export interface WireKeyed {
  maxParallelism: number;
  groups: number[];
  counts: Uint32Array;
  /** The cells that travel: all of them, or with `base` those whose `same` is 0, in order. */
  cells: PackedRows;
  /** This subtask's packed snapshots so far, this one included. */
  seq: number;
  /** The snapshot (its `seq`) that `same` refers to. */
  base?: number;
  /** Per cell of the whole list: 1 where it is the cell at the same place of the same key group in `base`. */
  same?: Uint8Array;
}

/** Fewer cells than this go as they are. */
const PACK_CELLS_FROM = 64;

/** One subtask's last packed keyed cells, as one list in key-group order. */
interface Trail {
  seq: number;
  cells: SnapshotCell[];
  /** Where each key group's cells start in `cells`, and how many there are. */
  at: Map<number, { start: number; count: number }>;
}

/**
 * What one end of the events port last packed (the worker) or unpacked (the job manager) of
 * each subtask's keyed cells. A memory backend hands an unchanged key the very cell object of
 * its last snapshot, so the worker sends a full snapshot's cells only the first time: after
 * that, a flag per cell says "the same as last time" and only the others are packed, and the
 * manager takes those from the snapshot it rebuilt before. Cells are values nobody changes
 * once snapshotted (copy-on-write), so sharing them between two checkpoints is safe. Both ends
 * see every snapshot of an attempt in order, and `seq`/`base` check that they agree.
 */
export class KeyedTrail {
  private readonly last = new Map<string, Trail>();

  get(subtask: string): Trail | undefined {
    return this.last.get(subtask);
  }

  note(subtask: string, seq: number, groups: readonly number[], counts: Uint32Array, cells: SnapshotCell[]): void {
    const at = new Map<number, { start: number; count: number }>();
    let start = 0;
    groups.forEach((kg, i) => {
      at.set(kg, { start, count: counts[i] });
      start += counts[i];
    });
    this.last.set(subtask, { seq, cells, at });
  }

  forget(subtask: string): void {
    this.last.delete(subtask);
  }
}

/** The snapshot without its pending commits and keyed cells, and those encoded for the port. */
export function packSnapshot(snap: SubtaskSnapshot, transfer: Transferable[], trail?: KeyedTrail): { snap: SubtaskSnapshot; commits?: WireCommit[]; keyed?: WireKeyed } {
  const { pendingCommits, ...rest } = snap;
  const commits = pendingCommits?.length ? encodeCommits(pendingCommits, transfer) : undefined;
  const keyed = packKeyed(snap, transfer, trail);
  const out: SubtaskSnapshot = keyed ? { ...rest, keyed: { type: 'inline', snapshot: { maxParallelism: keyed.maxParallelism, keyGroups: {} } } } : pendingCommits ? rest : snap;
  return { snap: out, ...(commits ? { commits } : {}), ...(keyed ? { keyed } : {}) };
}

function packKeyed(snap: SubtaskSnapshot, transfer: Transferable[], trail: KeyedTrail | undefined): WireKeyed | null {
  if (snap.keyed.type !== 'inline') {
    trail?.forget(snap.subtask);
    return null;
  }
  const { maxParallelism, keyGroups } = snap.keyed.snapshot;
  const groups: number[] = [];
  const lists: SnapshotCell[][] = [];
  let total = 0;
  for (const kg in keyGroups) {
    groups.push(Number(kg));
    lists.push(keyGroups[kg]);
    total += keyGroups[kg].length;
  }
  if (total < PACK_CELLS_FROM) {
    trail?.forget(snap.subtask);
    return null;
  }
  const prev = trail?.get(snap.subtask);
  const counts = new Uint32Array(groups.length);
  const cells: SnapshotCell[] = new Array(total);
  const same = prev ? new Uint8Array(total) : undefined;
  const fresh: SnapshotCell[] = prev ? [] : cells;
  let at = 0;
  lists.forEach((l, i) => {
    counts[i] = l.length;
    const before = prev?.at.get(groups[i]);
    for (let j = 0; j < l.length; j++, at++) {
      const c = l[j];
      cells[at] = c;
      if (!prev) continue;
      if (before !== undefined && j < before.count && prev.cells[before.start + j] === c) same![at] = 1;
      else fresh.push(c);
    }
  });
  const seq = (prev?.seq ?? 0) + 1;
  trail?.note(snap.subtask, seq, groups, counts, cells);
  transfer.push(counts.buffer);
  if (same) transfer.push(same.buffer);
  const packed = packRows(fresh, transfer);
  return prev ? { maxParallelism, groups, counts, cells: packed, seq, base: prev.seq, same } : { maxParallelism, groups, counts, cells: packed, seq };
}

/** The snapshot as the runner took it. `trail` must be the one that saw every earlier snapshot of this attempt. */
export function unpackSnapshot(snap: SubtaskSnapshot, commits: WireCommit[] | undefined, keyed?: WireKeyed, trail?: KeyedTrail): SubtaskSnapshot {
  const out = commits ? { ...snap, pendingCommits: decodeCommits(commits) } : snap;
  if (!keyed) {
    trail?.forget(snap.subtask);
    return out;
  }
  const fresh = unpackRows(keyed.cells) as SnapshotCell[];
  let cells = fresh;
  if (keyed.base !== undefined) {
    const prev = trail?.get(snap.subtask);
    if (!prev || prev.seq !== keyed.base) throw new Error(`the keyed state of ${snap.subtask} came as the changes since its snapshot ${keyed.base}, which the job manager does not hold (it holds ${prev ? `snapshot ${prev.seq}` : 'none'})`);
    const same = keyed.same!;
    cells = new Array(same.length);
    let at = 0;
    let next = 0;
    keyed.groups.forEach((kg, i) => {
      const before = prev.at.get(kg);
      for (let j = 0; j < keyed.counts[i]; j++, at++) {
        if (same[at] !== 1) cells[at] = fresh[next++];
        else if (before !== undefined && j < before.count) cells[at] = prev.cells[before.start + j];
        else throw new Error(`the keyed state of ${snap.subtask} refers to a cell its snapshot ${keyed.base} did not have (key group ${kg}, cell ${j})`);
      }
    });
  }
  trail?.note(snap.subtask, keyed.seq, keyed.groups, keyed.counts, cells);
  const keyGroups: Record<number, SnapshotCell[]> = {};
  let at = 0;
  keyed.groups.forEach((kg, i) => {
    keyGroups[kg] = cells.slice(at, at + keyed.counts[i]);
    at += keyed.counts[i];
  });
  return { ...out, keyed: { type: 'inline', snapshot: { maxParallelism: keyed.maxParallelism, keyGroups } } };
}

/** A worker's view rows at the end of the job, each view's as columns. */
export function packViews(views: Record<string, Row[]>, transfer: Transferable[]): Record<string, PackedRows> {
  const out: Record<string, PackedRows> = {};
  for (const id in views) out[id] = packRows(views[id], transfer);
  return out;
}

export function unpackViews(views: Record<string, PackedRows>): Record<string, Row[]> {
  const out: Record<string, Row[]> = {};
  for (const id in views) out[id] = unpackRows(views[id]) as Row[];
  return out;
}
