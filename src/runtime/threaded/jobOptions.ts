import type { DeadLetter, Element, Row } from '../../core/types.ts';
import type { NodeMetrics } from '../../engine/nodeTask.ts';
import type { CheckpointRecord, CheckpointStore, PendingCommit } from '../../checkpoint/types.ts';
import type { RestartStrategy } from '../restartStrategy.ts';
import type { TimerService } from '../jobMaster.ts';
import type { BatchEncoding } from './codec.ts';
import type { Spawn } from './spawn.ts';
import type { OwnWorker } from './assignment.ts';
import type { EdgeFill, JobInput } from './protocol.ts';
import type { DeadLetterEpoch } from '../../checkpoint/types.ts';
import type { PreviewChange } from './commitWire.ts';
import type { CodeLimits } from '../../engine/codeHost.ts';
import type { LiveFeeds } from '../feeds/liveFeeds.ts';

export interface JobOptions {
  spawn: Spawn;
  /** Called after each deployment with the worker count, e.g. WorkerPool.prewarm for fast restarts. */
  prewarm?: (workers: number) => void;
  jobId?: string;
  store?: CheckpointStore;
  /** Periodic checkpoints; null or absent: only the final one (when a store is given) and manual ones. */
  checkpointIntervalMs?: number | null;
  /**
   * Sources read at most this many records between two checkpoints and wait for the next one:
   * checkpoints then follow input progress whatever the speed of the machine (fault-injection
   * tests rely on it). Without an interval, checkpoints are triggered as soon as possible.
   */
  checkpointEveryRecords?: number;
  retain?: number;
  restart?: RestartStrategy;
  /**
   * Source records per second for the whole job, shared evenly by the source subtasks (null or
   * absent: as fast as they can; 0: the sources hold, as a paused run). Changed live with setPace.
   */
  pace?: number | null;
  /** Credit per channel, in messages (record batches, watermarks, barriers); default: about 1,024 records' worth (2 to 8 messages). */
  channelCapacity?: number;
  /** Records per source read. */
  batchSize?: number;
  encoding?: BatchEncoding;
  /** At most this many workers (default: the widest node's parallelism). */
  maxWorkers?: number;
  /**
   * Nodes taken out of slot sharing: each of their subtasks runs on a worker of its own (not counted
   * in maxWorkers). An entry that is a list of nodes is one group: subtask i of each shares the group's worker i.
   */
  ownWorker?: OwnWorker;
  heartbeatMs?: number;
  heartbeatTimeoutMs?: number;
  /**
   * Web Workers: the limits of user code (settings.code). A batch running longer than `timeoutMs`
   * is stopped by the watchdog of the thread that started the worker, and the job fails; a worker
   * busy in code sends no heartbeats, so the heartbeat timeout is raised above it.
   */
  codeLimits?: CodeLimits;
  deployTimeoutMs?: number;
  checkpointTimeoutMs?: number;
  state?: 'memory' | 'indexeddb';
  /**
   * Browser: keep the job's IndexedDB state in this Storage Bucket (`navigator.storageBuckets`)
   * instead of the origin's default storage, e.g. to give a job its own quota. The checkpoint
   * store must use the same bucket's `indexedDB`.
   */
  storageBucket?: string;
  /** Incremental checkpoints for durable backends (default true). */
  incremental?: boolean;
  inputs?: Record<string, JobInput>;
  /**
   * The connections of the job's live feed sources, opened (and started) by the caller on this
   * thread. Their logs stay here across restarts; workers read mirrors of them (feedRelay.ts).
   */
  feeds?: LiveFeeds;
  /** A UDF exception fails the job (and restarts it) instead of dead-lettering the record. */
  failOnUdfError?: boolean;
  /** Start from the latest completed checkpoint in the store instead of from scratch. */
  resume?: boolean;
  /** Kill `kills` seeded-random subtasks at seeded-random points of the run. */
  chaos?: { kills: number; seed: number };
  /** `origin@epoch` of sink epochs already published (by an earlier process), so they are not published twice. */
  published?: Iterable<string>;
  /** Each committed sink epoch, exactly once; called before the next checkpoint can complete. */
  onPublish?: (sinkId: string, commit: PendingCommit) => void;
  onDeadLetters?: (epoch: DeadLetterEpoch) => void;
  /**
   * The preview stream: each sink's changes as soon as the sink receives them, before their
   * checkpoint completes, tagged with the checkpoint they follow. Never part of the committed
   * output (`onPublish`, changelogs); after a failure, `onPreviewReset` says that what the failed
   * attempt previewed beyond the restored checkpoint will not be committed. Costs one more trip
   * of every sink change to this thread, so it is off unless set.
   */
  onPreview?: (sinkId: string, change: PreviewChange) => void;
  /** Chain an upsert view behind the GROUP BY feeding it where both subtasks share a worker (default true; see runtime/chaining.ts). */
  chain?: boolean;
  /**
   * An attempt restored checkpoint `checkpointId`: every sink's table as restored, before any
   * record is read. What was published up to that checkpoint is exactly these tables, so a
   * caller that shows committed output (after a resume in a new page, say) starts from them.
   */
  onRestoredViews?: (checkpointId: number, views: Record<string, Row[]>) => void;
  /** A new attempt starts from `restoredFrom` (null: from scratch): drop uncommitted preview changes of earlier attempts. */
  onPreviewReset?: (attempt: number, restoredFrom: number | null) => void;
  /**
   * Keep every sink's published changelog in memory for the result (default true). False with no
   * `onPublish` and no `onPreview`: nothing reads the committed output, so sinks buffer and send
   * no epochs at all and only their tables (the result's views) remain.
   */
  keepChangelog?: boolean;
  log?: (line: string) => void;
  /** Clock and timers of the job master (default: the wall clock and real timers). */
  timers?: TimerService;
}

export interface Recovery {
  reason: string;
  /** ms from detecting the failure to every worker running again (restart delay included). */
  recoveryMs: number;
  delayMs: number;
  restoredFrom: number | null;
}

export interface JobStats {
  workers: number;
  nodes: Record<string, NodeMetrics & { subtasks: number }>;
  edges: EdgeFill[];
  checkpoints: CheckpointRecord[];
  restarts: number;
  recoveries: Recovery[];
}

export interface JobResult {
  status: 'finished' | 'failed';
  reason?: string;
  restarts: number;
  recoveries: Recovery[];
  views: Record<string, Row[]>;
  changelogs: Record<string, Element[]>;
  deadLetters: DeadLetter[];
  checkpoints: CheckpointRecord[];
  elapsedMs: number;
  workers: number;
  /** Stats taken just before the workers stopped (queue high-water marks, metrics). */
  stats: JobStats | null;
}
