import type { Row } from '../../core/types.ts';
import type { SourceEnv } from '../../core/source.ts';
import type { FileInput } from '../../core/lineSource.ts';
import type { FeedBacklog } from '../../engine/feedLog.ts';
import type { NodeMetrics } from '../../engine/nodeTask.ts';
import type { CodeLimits } from '../../engine/codeHost.ts';
import type { DeadLetterEpoch, PendingCommit, SubtaskSnapshot } from '../../checkpoint/types.ts';
import type { KeyedStateHandle } from '../../state/snapshotHandles.ts';
import type { BatchEncoding, PackedRows, WireBatch } from './codec.ts';
import type { PortablePlan } from './portablePlan.ts';
import type { OwnWorker } from './assignment.ts';
import type { WireCommit, WireKeyed, WirePreview } from './commitWire.ts';

/**
 * The small protocol between the job manager and its workers. Control calls (deploy, trigger,
 * stats, faults) go through comlink; everything a worker reports (snapshots, acks, sink output,
 * heartbeats) travels on one events port, in order, never as a comlink call per barrier.
 */


export interface UdfThrow {
  node: string;
  index: number;
  n: number;
}

/**
 * A file the browser gave (a Blob, which crosses to a worker by reference): the worker running the
 * source reads it in blocks, as a path in Node.
 */
export interface BlobInput {
  name: string;
  blob: Blob;
}

/** What a worker opens itself (WorkerPlatform.openFile): a file by path (Node) or a Blob (the browser). */
export type OpenableInput = FileInput | BlobInput;

/**
 * A source's input as a job is given it: lines or bytes the source reads here, or a file by path
 * or Blob that the worker running the source opens itself (WorkerPlatform.openFile), so a large
 * file is neither copied to the worker nor held whole.
 */
export type JobInput = NonNullable<SourceEnv['input']> | OpenableInput;

export interface DeploySpec {
  jobId: string;
  attempt: number;
  plan: PortablePlan;
  worker: number;
  workers: number;
  /** Nodes (or groups of nodes) whose subtasks run on workers of their own (JobOptions.ownWorker). */
  ownWorker: OwnWorker;
  inputs: Record<string, JobInput>;
  /** The name (a file) of every source's input, also of sources on other workers: messages name where a record came from. */
  inputNames: Record<string, string>;
  /** Live feed sources on this worker: what their logs hold on the job manager's thread (see feedRelay.ts). */
  feeds: Record<string, FeedBacklog>;
  /** node id → every old subtask's snapshot of that node (all of them, so key groups can move). */
  restore: Record<string, SubtaskSnapshot[]> | null;
  /** Credit of a channel that carries whole batches, in messages. */
  channelCapacity: number;
  /** channelCapacity is the default, a budget in records: channels of a split edge get more, smaller messages (see channelCredit). */
  creditByRecords: boolean;
  batchSize: number;
  encoding: BatchEncoding;
  heartbeatMs: number;
  /** The limits of user code the worker's code host and watchdog enforce (browser workers). */
  codeLimits: CodeLimits;
  state: 'memory' | 'indexeddb';
  /** Browser: the Storage Bucket holding the job's IndexedDB state (null: the origin's default storage). */
  storageBucket: string | null;
  /** Durable backends write only what changed since the previous checkpoint. */
  incremental: boolean;
  /** Sources read at most this many records between two barriers (null: no limit). */
  maxRecordsPerCheckpoint: number | null;
  /** UDF exceptions fail the job instead of dead-lettering the record. */
  failOnUdfError: boolean;
  /** Send sink input as it arrives (the preview stream), besides committing it. */
  preview: boolean;
  /**
   * False when the job manager has no reader of the committed sink output (no changelog kept,
   * no `onPublish`, no preview): sinks then keep only their table and buffer, pack and send no
   * epochs (RunnerDeps.publishOutput, as the in-process cluster does).
   */
  publishOutput: boolean;
  /** Records per second each source subtask may read (null: as fast as it can; 0: held, a paused run). */
  sourcePace?: number | null;
  /** Chain upsert views behind their GROUP BY where both run on this worker (runtime/chaining.ts). */
  chain: boolean;
  /** Pending fault injections: throw in the operator of subtask `node#index` at its n-th record. */
  udfThrows: UdfThrow[];
}

export interface EdgeFill {
  edge: string;
  queued: number;
  capacity: number;
  /** Messages sent on the edge's cross-worker channels and not yet consumed. */
  inFlight: number;
  /** Highest number of messages ever queued on one of its channels. */
  maxQueued: number;
  maxInFlight: number;
}

export interface WorkerStats {
  worker: number;
  nodes: Record<string, NodeMetrics & { subtasks: number }>;
  edges: EdgeFill[];
  sourceOffsets: Record<string, number>;
  steps: number;
  busyMs: number;
  messagesSent: number;
  messagesReceived: number;
}

export type WorkerEvent =
  | { t: 'snapshot'; attempt: number; id: number; snap: SubtaskSnapshot; commits?: WireCommit[]; keyed?: WireKeyed; timing: { alignMs: number; syncMs: number; buffered: number }; keyedBytes?: { full: number; written: number } }
  | { t: 'declined'; attempt: number; id: number; subtask: string; reason: string }
  | { t: 'publish'; attempt: number; sinkId: string; commits: WireCommit[] }
  | { t: 'preview'; attempt: number; changes: WirePreview[] }
  | { t: 'deadLetters'; attempt: number; epochs: DeadLetterEpoch[] }
  | { t: 'udfError'; attempt: number; subtask: string; reason: string }
  | { t: 'injectedFired'; attempt: number; node: string; index: number }
  | { t: 'heartbeat'; attempt: number; worker: number; sourceOffsets: Record<string, number> }
  | { t: 'finished'; attempt: number; worker: number }
  /** `views`: each view's rows as columns (commitWire.ts packViews). */
  | { t: 'final'; attempt: number; worker: number; views: Record<string, PackedRows> }
  | { t: 'failed'; attempt: number; worker: number; reason: string; fatal?: boolean };

/** What a worker exposes to the job manager (through comlink). */
export interface WorkerApi {
  deploy(spec: DeploySpec, peers: (MessagePort | null)[], events: MessagePort): Promise<void>;
  start(): void;
  trigger(checkpointId: number): void;
  completed(checkpointId: number): void;
  /**
   * The keyed-state handles (per node, every subtask) of the checkpoints still retained: durable
   * backends compact long chunk chains and delete chunks none of them refers to.
   */
  retainOnly(handles: Record<string, KeyedStateHandle[]>): Promise<void>;
  /**
   * At recovery, after deploy and before start (nothing writes chunks yet): deletes every chunk
   * of the job's namespace that `handles` (all retained checkpoints) do not refer to, such as
   * those a killed attempt was writing. Returns how many were deleted.
   */
  sweepChunks(handles: KeyedStateHandle[]): Promise<number>;
  /** New entries of a live feed's log on the job manager's thread (a worker without that feed ignores them). */
  feed(node: string, entries: (string | number)[], ended: boolean): void;
  /** This worker's part of every sink's table, as it is now (after a restore: as of the checkpoint). */
  views(): Record<string, Row[]>;
  /** The job is done: sinks publish their tails, then the worker sends `final` with its views. */
  finishJob(): void;
  stats(): WorkerStats;
  /** Records per second each source subtask here may read from now on (null: unpaced, 0: hold them). */
  pace(perSubtask: number | null): void;
  throwInUdfAt(t: UdfThrow): void;
  /** Blocks the worker's thread for `ms` (a stuck UDF), for heartbeat tests. */
  freeze(ms: number): void;
  stop(): void;
}

/** Frames on the port between two workers: data for a channel, or credit coming back. */
export type PeerFrame =
  | { k: number; m: WireMessage }
  | { k: number; credit: number };

export type WireMessage =
  | { t: 'batch'; b: WireBatch }
  | { t: 'wm'; wm: number }
  | { t: 'idle'; idle: boolean }
  | { t: 'barrier'; id: number }
  | { t: 'end' };

/** One number per channel: edge, upstream subtask, downstream subtask (parallelism is at most 8). */
export const channelKey = (edge: number, from: number, to: number): number => edge * 256 + from * 16 + to;
