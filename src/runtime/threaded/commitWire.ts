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
 */
export interface WireKeyed {
  maxParallelism: number;
  groups: number[];
  counts: Uint32Array;
  cells: PackedRows;
}

/** Fewer cells than this go as they are. */
const PACK_CELLS_FROM = 64;

/** The snapshot without its pending commits and keyed cells, and those encoded for the port. */
export function packSnapshot(snap: SubtaskSnapshot, transfer: Transferable[]): { snap: SubtaskSnapshot; commits?: WireCommit[]; keyed?: WireKeyed } {
  const { pendingCommits, ...rest } = snap;
  const commits = pendingCommits?.length ? encodeCommits(pendingCommits, transfer) : undefined;
  const keyed = packKeyed(snap, transfer);
  const out: SubtaskSnapshot = keyed ? { ...rest, keyed: { type: 'inline', snapshot: { maxParallelism: keyed.maxParallelism, keyGroups: {} } } } : pendingCommits ? rest : snap;
  return { snap: out, ...(commits ? { commits } : {}), ...(keyed ? { keyed } : {}) };
}

function packKeyed(snap: SubtaskSnapshot, transfer: Transferable[]): WireKeyed | null {
  if (snap.keyed.type !== 'inline') return null;
  const { maxParallelism, keyGroups } = snap.keyed.snapshot;
  const groups: number[] = [];
  const lists: SnapshotCell[][] = [];
  let total = 0;
  for (const kg in keyGroups) {
    groups.push(Number(kg));
    lists.push(keyGroups[kg]);
    total += keyGroups[kg].length;
  }
  if (total < PACK_CELLS_FROM) return null;
  const counts = new Uint32Array(groups.length);
  const cells: SnapshotCell[] = [];
  lists.forEach((l, i) => {
    counts[i] = l.length;
    for (const c of l) cells.push(c);
  });
  transfer.push(counts.buffer);
  return { maxParallelism, groups, counts, cells: packRows(cells, transfer) };
}

/** The snapshot as the runner took it. */
export function unpackSnapshot(snap: SubtaskSnapshot, commits: WireCommit[] | undefined, keyed?: WireKeyed): SubtaskSnapshot {
  const out = commits ? { ...snap, pendingCommits: decodeCommits(commits) } : snap;
  if (!keyed) return out;
  const cells = unpackRows(keyed.cells) as SnapshotCell[];
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
