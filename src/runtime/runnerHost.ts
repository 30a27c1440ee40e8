import type { DeadLetter, Element } from '../core/types.ts';
import type { Clock } from '../core/clock.ts';
import type { JobPlan, PlanNode } from '../pipeline/plan.ts';
import type { KeyedStateBackend, PersistResult, StateTime } from '../state/backend.ts';
import type { DeadLetterEpoch, PendingCommit, SubtaskSnapshot } from '../checkpoint/types.ts';
import type { ChannelSink } from './outputPartitioning.ts';
import type { InjectionLog } from './injectionLog.ts';
import type { SourceEnv, SourceReader } from '../core/source.ts';
import type { SubtaskRunner } from './subtaskRunner.ts';
import type { SourceRows } from './sourceRows.ts';

// The contract between a SubtaskRunner and whatever hosts it (the in-process cluster, a worker
// thread): what the host provides, what an observer may tap, and what a runner is built from.
// Kept apart from the runner so that hosts and observers read the interface, not the task.

/** What a runner needs from whoever hosts it: channels with credit, acks, published output. */
export interface RunnerHost extends ChannelSink {
  readonly clock: Clock;
  /**
   * The synchronous part of a snapshot is done. With a durable backend, `keyedWrite` is still
   * writing the keyed state; the host waits for it and puts its handle into `snap.keyed`.
   */
  snapshotTaken(checkpointId: number, snap: SubtaskSnapshot, timing: { alignMs: number; syncMs: number; buffered: number }, keyedWrite?: Promise<PersistResult>): void;
  declined(checkpointId: number, subtask: string, reason: string): void;
  /** Committed sink epochs and dead-letter epochs; the job master publishes each `origin@epoch` once. */
  publish(sinkId: string, commits: PendingCommit[]): void;
  publishDeadLetters(epochs: DeadLetterEpoch[]): void;
  /** Sink output that no checkpoint can roll back (see `RunnerDeps.finalOutput`), published as it arrives. */
  publishFinal?(sinkId: string, els: readonly Element[]): void;
  /**
   * A dead letter as it happens (live counts, failing on UDF errors). False: the host is failing
   * the job and the record must not be kept.
   */
  deadLetter(d: DeadLetter, subtask: string): boolean;
  /**
   * Sink input as it arrives, before its epoch is committed (the preview stream). `since`: the
   * last checkpoint this sink took before these changes (0: none in this attempt and no restore);
   * they become committed with the first checkpoint after it that completes, or vanish on a restore.
   */
  preview?(sinkId: string, origin: string, since: number, els: readonly Element[]): void;
}

/**
 * An observer's view into a subtask (the observatory's tap). Null when nobody observes, so
 * the hot path pays one null check per batch.
 */
export interface RunnerTap {
  /** Elements of an incoming batch to process one at a time and report: 'all', some indexes (ascending), or none. */
  pick(runner: SubtaskRunner, port: string, els: readonly Element[]): 'all' | readonly number[] | null;
  /** One picked element was processed: what it made the operator emit and whether it wrote state. */
  processed(runner: SubtaskRunner, port: string, el: Element, out: ReadonlyMap<string, readonly Element[]> | null, stateChanged: boolean): void;
  /** Everything the subtask emits (sources: each poll), before it is partitioned and sent. */
  output(runner: SubtaskRunner, out: ReadonlyMap<string, readonly Element[]>): void;
}

export interface RunnerDeps {
  plan: JobPlan;
  node: PlanNode;
  index: number;
  host: RunnerHost;
  backend?: (time: StateTime) => KeyedStateBackend;
  inputs?: Record<string, SourceEnv['input']>;
  /** The name (a file) of every source's input, when `inputs` holds only this host's: for messages that name a record's source line. */
  inputNames?: Record<string, string>;
  /** Readers that replace a source node's own (by node id): live inputs, benchmarks' ready records. */
  readers?: Record<string, GivenReader>;
  /** Rows the sources made on an earlier pass of this run (a replay of its history), by node: see SourceRows. */
  sourceRows?: SourceRows;
  /** Records injected into running sources; subtask 0 of each source reads its entries. */
  injections?: InjectionLog;
  /** Records per source read. */
  batchSize?: number;
  /** Durable backends: write only what changed since the previous checkpoint. */
  incremental?: boolean;
  /**
   * Sources: read at most this many records between two barriers, then wait for the next
   * checkpoint. Makes checkpoint positions depend on input progress, not on how fast the
   * thread runs (default: no limit).
   */
  maxRecordsPerCheckpoint?: number;
  /**
   * False when nobody consumes the published sink output (no changelog kept, no listener): sinks
   * then keep only their table and buffer no epochs. Default true.
   */
  publishOutput?: boolean;
  /** The plan is this runner's own copy (deployed to a worker), so sources need not copy what they read from it. */
  ownsPlan?: boolean;
  /**
   * Nothing can roll this run back (no checkpoints, no restarts: a plain run to the end): sinks
   * hand each batch to `host.publishFinal` as it arrives instead of buffering it into epochs.
   */
  finalOutput?: boolean;
}

/**
 * A reader handed to a source instead of its own: one object, read by the source's only subtask,
 * or one per subtask (each split reads its positions of a whole stream of its own).
 */
export type GivenReader = SourceReader | ((subtask: number) => SourceReader);
