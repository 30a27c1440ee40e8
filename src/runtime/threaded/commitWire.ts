import type { PendingCommit, SubtaskSnapshot } from '../../checkpoint/types.ts';
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
