import type { DeadLetter, Element, Row } from '../core/types.ts';
import type { PlanNode } from '../pipeline/plan.ts';
import type { KeyedStateBackend, StateTime } from '../state/backend.ts';
import type { CheckpointRecord, CheckpointStore } from '../checkpoint/types.ts';
import type { ChannelMessage } from './messages.ts';
import type { RestartStrategy } from './restartStrategy.ts';
import type { SourceEnv } from '../core/source.ts';
import type { GivenReader, RunnerTap } from './runnerHost.ts';
import type { SourceRows } from './sourceRows.ts';
import type { SchedulePolicy } from './inProcessSchedule.ts';

// What the in-process cluster (localCluster.ts) is asked to do and what it reports: its options,
// planned kills, result, events and stepping answers. Kept apart so the designer, the CLI and
// tests that only configure or read a run depend on these shapes, not on the cluster itself.

/** When and how to fail a subtask on purpose. */
export interface Kill {
  atStep: number;
  /** Wait until this also holds: some subtask is aligning barriers, or a snapshot write is in flight. */
  when?: 'any' | 'aligning' | 'writing';
  /** Subtask id to kill; a seeded random live one when absent. */
  subtask?: string;
}

export interface ClusterOptions {
  jobId?: string;
  /** Seeds the scheduler's interleaving; the job's own seed stays in the plan. */
  scheduleSeed?: number;
  /** How the in-process scheduler picks the next subtask (see SchedulePolicy); default 'seeded'. */
  schedule?: SchedulePolicy;
  checkpointIntervalMs?: number | null;
  store?: CheckpointStore;
  retain?: number;
  restart?: RestartStrategy;
  channelCapacity?: number;
  inputs?: Record<string, SourceEnv['input']>;
  /** Readers that replace a source node's own (by node id), such as live inputs: one per source, or one per subtask. */
  readers?: Record<string, GivenReader>;
  /** Rows the sources made on an earlier pass of this run: a replay of its history reads them again (see SourceRows). */
  sourceRows?: SourceRows;
  kills?: Kill[];
  onPublish?: (sinkId: string, els: readonly Element[]) => void;
  /** Every dead letter as it happens (a replay after a restart included); `result().deadLetters` has each once. */
  onDeadLetter?: (d: DeadLetter) => void;
  /**
   * Keep every sink's published changelog for the result (default true). A long-running job
   * that consumes `onPublish` (the designer) turns it off, or the log grows without bound.
   */
  keepChangelog?: boolean;
  maxSteps?: number;
  /** Records per source read (smaller batches interleave more finely). */
  batchSize?: number;
  /**
   * Measures busy and backpressured time per subtask on this clock (the designer: wall time).
   * Without it nothing is measured and a step pays nothing for it.
   */
  loadClock?: () => number;
  /**
   * Chain an upsert view behind the GROUP BY that feeds it (default true; see chaining.ts). The
   * designer turns it off: its observatory shows and steps every operator on its own.
   */
  chain?: boolean;
  /** Keyed state backend per subtask (default: memory). A durable one persists its own chunks at checkpoints. */
  backend?: (node: PlanNode, subtask: number, time: StateTime, attempt: number) => KeyedStateBackend | Promise<KeyedStateBackend>;
}

export interface ClusterResult {
  status: 'finished' | 'failed';
  reason?: string;
  restarts: number;
  steps: number;
  views: Record<string, Row[]>;
  changelogs: Record<string, Element[]>;
  checkpoints: CheckpointRecord[];
  deadLetters: DeadLetter[];
}

/** What the cluster reports while it runs, for the observatory and for traces. */
export type ClusterEvent =
  | { type: 'message'; edge: string; from: string; to: string; kind: ChannelMessage['t']; records?: number; watermark?: number; checkpointId?: number }
  | { type: 'snapshot'; subtask: string; checkpointId: number; alignMs: number; syncMs: number; buffered: number }
  | { type: 'checkpoint'; checkpointId: number; status: 'triggered' | 'completed' | 'aborted'; reason?: string }
  | { type: 'failure'; reason: string; attempt: number }
  | { type: 'restored'; checkpointId: number | null; attempt: number }
  | { type: 'finished' }
  | { type: 'failed'; reason: string };

export type ClusterPhase = 'created' | 'running' | 'finished' | 'failed';

/** The observatory's tap: the runner tap plus every batch put on a channel. */
export interface ClusterTap extends RunnerTap {
  sent(edge: number, from: number, to: number, els: readonly Element[]): void;
}

export type StepTarget = 'record' | 'watermark' | 'barrier';

/** What `stepUntil` did: whether a source emitted the target, and what sources emitted meanwhile. */
export interface StepUntilResult {
  reached: boolean;
  steps: number;
  phase: ClusterPhase;
  /** Records, watermarks and barriers the sources put on their channels during these steps. */
  sourceRecords: number;
  sourceWatermarks: number;
  sourceBarriers: number;
}

