import type { ChunkRef, KeyedStateHandle } from '../state/snapshotHandles.ts';
import type { OperatorStateSnapshot } from '../state/operatorState.ts';
import type { Timer } from '../engine/time/timers.ts';
import type { SourceTaskSnapshot } from '../engine/sourceTask.ts';


/** `node#index`: one parallel instance of one operator. */
export type SubtaskId = string;
export const subtaskId = (node: string, index: number): SubtaskId => `${node}#${index}`;
export function parseSubtaskId(id: SubtaskId): { node: string; index: number } {
  const at = id.lastIndexOf('#');
  return { node: id.slice(0, at), index: Number(id.slice(at + 1)) };
}

/** Everything one subtask contributes to a checkpoint. */
export interface SubtaskSnapshot {
  subtask: SubtaskId;
  parallelism: number;
  keyed: KeyedStateHandle;
  operator: OperatorStateSnapshot;
  timers: Timer[];
  watermark: number;
  counters: Record<string, number>;
  /**
   * Records the subtask had taken in and sent out when it snapshotted: a restore counts on from
   * there, so the node counters agree with the restored state (absent in older checkpoints: 0).
   */
  records?: { in: number; out: number };
  source?: SourceTaskSnapshot;
  /** Per input channel watermarks, so that lateness decisions replay exactly after a restore. */
  channels?: { wm: number; idle: boolean; ended: boolean }[];
  /** Sink output pre-committed with this checkpoint but perhaps not yet published. */
  pendingCommits?: PendingCommit[];
  /** Dead letters closed with this checkpoint but perhaps not yet published (two-phase, like sink output). */
  deadLetterEpochs?: DeadLetterEpoch[];
  /** The subtask had finished all its input when it was snapshotted. */
  finished?: boolean;
  /**
   * A view chained behind this node (an aggregate) read its arrangement and kept no rows, so
   * `keyed` is empty: a restore rebuilds the view from that node's snapshot of the same checkpoint.
   */
  derivedFrom?: string;
}

export interface PendingCommit {
  /** The subtask that buffered it, so a restored job publishes each epoch once. */
  origin: string;
  /** The checkpoint whose barrier closed this epoch; Infinity for the tail after the last barrier. */
  epoch: number;
  els: import('../core/types.ts').Element[];
}

/** What one subtask produced between two barriers (dead letters, sink output), published once. */
export interface Epoch<T> {
  /** The subtask that produced it. */
  origin: string;
  /** The checkpoint whose barrier closed this epoch; Infinity for the tail after the last barrier. */
  epoch: number;
  items: T[];
}

/** Dead letters of one subtask between two barriers, published once like a sink epoch. */
export type DeadLetterEpoch = Epoch<import('../core/types.ts').DeadLetter>;

export interface OperatorCheckpointStats {
  subtask: SubtaskId;
  alignMs: number;
  syncMs: number;
  asyncMs: number;
  stateBytes: number;
  /** Bytes this checkpoint actually wrote for the subtask (all of it for a full one). */
  writtenBytes: number;
  bufferedDuringAlignment: number;
}

export type CheckpointStatus = 'pending' | 'completed' | 'aborted';

/** The committed description of a checkpoint; its existence is what makes the checkpoint visible. */
export interface CheckpointManifest {
  jobId: string;
  checkpointId: number;
  triggeredAt: number;
  completedAt: number;
  /** subtask id → where its snapshot is stored. */
  subtasks: Record<SubtaskId, string>;
  parallelism: Record<string, number>;
  stats: OperatorCheckpointStats[];
  fullBytes: number;
  incrementalBytes: number;
}

export interface CheckpointRecord {
  checkpointId: number;
  status: CheckpointStatus;
  triggeredAt: number;
  completedAt: number | null;
  reason?: string;
  stats: OperatorCheckpointStats[];
  fullBytes: number;
  incrementalBytes: number;
}

/**
 * Durable storage of checkpoints. A checkpoint becomes visible only through `commit`,
 * which must be atomic and durable (IndexedDB: one `durability: 'strict'` transaction;
 * files: write a temp file, fsync, rename).
 */
export interface CheckpointStore {
  /** Writes one subtask's snapshot for a pending checkpoint; returns a reference and its size in bytes. */
  writeSubtask(jobId: string, checkpointId: number, snap: SubtaskSnapshot): Promise<{ ref: string; bytes: number }>;
  commit(manifest: CheckpointManifest): Promise<void>;
  latest(jobId: string): Promise<CheckpointManifest | null>;
  list(jobId: string): Promise<CheckpointManifest[]>;
  readSubtask(ref: string): Promise<SubtaskSnapshot>;
  /** Removes a checkpoint's manifest and any subtask data no retained checkpoint refers to. */
  discard(jobId: string, checkpointId: number): Promise<void>;
  /** Removes data written for a checkpoint that never committed (aborted or torn). */
  abort(jobId: string, checkpointId: number): Promise<void>;
  /**
   * Where a checkpoint lives, for messages that must say which file or store to look at:
   * its manifest and, given a subtask's ref, that snapshot. Absent when there is nothing to name.
   */
  locate?(jobId: string, checkpointId: number, ref?: string): { manifest: string; snapshot?: string } | undefined;
}
