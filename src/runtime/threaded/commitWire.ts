import type { PendingCommit, SubtaskSnapshot } from '../../checkpoint/types.ts';
import type { Element } from '../../core/types.ts';
import { decodeBatch, encodeBatch, type WireBatch } from './codec.ts';

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

/** The snapshot without its pending commits, and those commits encoded for the port. */
export function packSnapshot(snap: SubtaskSnapshot, transfer: Transferable[]): { snap: SubtaskSnapshot; commits?: WireCommit[] } {
  if (!snap.pendingCommits?.length) return { snap };
  const { pendingCommits, ...rest } = snap;
  return { snap: rest, commits: encodeCommits(pendingCommits, transfer) };
}

/** The snapshot as the runner took it. */
export function unpackSnapshot(snap: SubtaskSnapshot, commits: WireCommit[] | undefined): SubtaskSnapshot {
  return commits ? { ...snap, pendingCommits: decodeCommits(commits) } : snap;
}
