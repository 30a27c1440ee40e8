import type { SinkCommit } from './sinkCommits.ts';
import type { NodeMetrics } from '../engine/nodeTask.ts';
import type { Row, RowKind } from '../core/types.ts';
import type { PipelineDocument } from '../pipeline/document.ts';
import type { Problem } from '../pipeline/kindSpec.ts';
import type { FieldType } from '../core/streamInfo.ts';
import type { InjectParse } from '../runtime/injectValues.ts';
import type { Breakpoint, ObservationFrame, ObserveRequest, StateDiff } from '../runtime/observe/types.ts';
import type { FeedNodeStatus } from '../runtime/feeds/liveFeeds.ts';

export type RunStatus = 'idle' | 'ready' | 'running' | 'paused' | 'finished' | 'failed';

export interface LogLine {
  seq: number;
  level: 'info' | 'warn' | 'error';
  /** Simulated processing time of the job, ms. */
  at: number;
  node?: string;
  message: string;
  /** The record concerned, as JSON text. */
  record?: string;
}

/** One sink table as the UI needs it: a count and the rows of the window it shows. */
export interface SinkSample {
  total: number;
  offset: number;
  rows: Row[];
  columns: string[];
  /** Declared types of the columns, when the compiler knows them. */
  types: Record<string, FieldType> | null;
  /** The table's key columns (its primary key, or the unique key of its input), when known. */
  key?: string[] | null;
  /** Changes when `rows` were read again or the window moved; the same version, the same rows. */
  version?: number;
  /**
   * `rows` left out (empty): the page said it holds this version's rows (snapshotApplied), so they
   * do not cross again. Only a listener that acknowledges versions ever gets this.
   */
  rowsHeld?: true;
  /** Changelog rows received so far. */
  changes: number;
  /** The last changelog rows, newest last, for the log view of a sink. */
  recent: { kind: RowKind; row: Row }[];
  /** Which checkpoint committed the rows shown, and how many changes the sink took in since. */
  committed?: SinkCommit;
}

/**
 * How hard one operator (or one of its subtasks) works, over the last second of wall time.
 * busy + backpressured + idle = 1 for a subtask.
 */
export interface LoadFigures {
  /** Share of the time spent running it (0–1). All subtasks share the engine worker's thread. */
  busy: number;
  /** Share of the time it had input (a source: records) but a downstream queue was full (0–1). */
  backpressured: number;
  /** Records received per second (the rate of the node's "in" count). */
  inPerSec: number;
  /** Records sent per second (the rate of the node's "out" count). */
  outPerSec: number;
}

/** A node's load: busy and backpressured are its busiest subtask's (as in Flink), rates add up. */
export interface NodeLoad extends LoadFigures {
  subtasks: ({ id: string } & LoadFigures)[];
}

/** What the worker posts at most 20 times a second; never one message per record. */
export interface RunSnapshot {
  status: RunStatus;
  /** Source records read so far. */
  records: number;
  /** Records per second over the last second. */
  rate: number;
  clockMs: number;
  metrics: Record<string, NodeMetrics>;
  /** Per node, busy / backpressured / rates over the last second (the last measured while paused). */
  load?: Record<string, NodeLoad>;
  deadLetters: Record<string, number>;
  sinks: Record<string, SinkSample>;
  /** Log lines since the previous snapshot. */
  log: LogLine[];
  checkpoints: number;
  error: { message: string; node?: string } | null;
  /** Restarts after failures so far in this run. */
  restarts: number;
  /**
   * The checkpoint the current attempt restored (after a failure, a travel back or a resume), or
   * null when it ran from the start. Node counters are then the counts at that checkpoint, and on.
   */
  restoredFrom?: number | null;
  /** The observatory's sampled view; null until a job is loaded. */
  frame: ObservationFrame | null;
  /** Where the run is in its history, for stepping back and the scrubber; null until a job is loaded. */
  history?: HistoryView | null;
  /** The connection state of each live feed source, by node id. */
  feeds?: Record<string, FeedNodeStatus>;
  /**
   * Where the run executes: 'inProcess' (absent) is every subtask in the engine worker, where it
   * can be stepped, stepped back and inspected; 'workers' is one Web Worker per subtask slot.
   */
  runsOn?: RunsOn;
  /** On Web Workers: how many worker threads run the job's subtasks. */
  threads?: number;
}

export type RunsOn = 'inProcess' | 'workers';

/** The run's history as the scrubber draws it: points are step counts of the deterministic schedule. */
export interface HistoryView {
  /** The point the run is at now. */
  at: number;
  /** The furthest point reached (later than `at` after stepping back). */
  end: number;
  /** Why the history cannot be replayed, or null: 'resumed', a run resumed from checkpoints an earlier page stored. */
  replayable: 'resumed' | null;
  /** Points at which a checkpoint completed, a subtask was killed, the run travelled to a checkpoint. */
  checkpoints: number[];
  kills: number[];
  restores: number[];
}

export type StepKind = 'record' | 'watermark' | 'barrier';

/** A completed checkpoint a reloaded page can resume from. */
export interface Resumable {
  jobId: string;
  checkpointId: number;
  /** Wall-clock time the checkpoint completed (ms since epoch). */
  completedAt: number;
  /** Source records read at that checkpoint. */
  records: number;
}

export interface LoadOptions {
  /** Records per second, or null for as fast as possible. */
  speed: number | null;
  checkpointIntervalMs: number | null;
  /** Where keyed state and checkpoints live; default: the document's settings.stateBackend. */
  backend?: 'memory' | 'indexeddb';
  /** Namespace of this job's state and checkpoints (the project id), so two tabs never share one. */
  jobId?: string;
  /** Resume from the latest retained checkpoint of `jobId` (after a page reload). */
  resume?: boolean;
  /** Start from an uploaded savepoint instead. */
  savepoint?: Uint8Array;
  /** Where to run: 'workers' runs a job with a parallel node on Web Workers; otherwise in one worker. */
  runtime?: RunsOn;
  /** Files the person gave to file sources (by node id); the worker reads them in blocks, never whole. */
  files?: Record<string, { name: string; blob: Blob }>;
}

export type LoadResult = { ok: true; sinks: string[] } | { ok: false; problems: Problem[]; message: string };

/** The control plane the UI drives through comlink; records never cross it one by one. */
export interface EngineApi {
  load(doc: PipelineDocument, opts: LoadOptions): Promise<LoadResult>;
  run(): void;
  pause(): void;
  /** Pause, then advance until one source record, watermark or barrier has been processed and settled. */
  step(kind?: StepKind): void;
  stop(): void;
  /** Back to the point one record, watermark or barrier earlier, exactly as the run first showed it. */
  stepBack(kind?: StepKind): Promise<void>;
  /** To any point of the run's history (a step count, up to the furthest reached): the scrubber. */
  seek(step: number): Promise<void>;
  setSpeed(speed: number | null): void;
  setCheckpointInterval(ms: number | null): void;
  /** Fault injection: fail subtask "node#i" (a bare node id means subtask 0); the job restarts from the latest checkpoint. */
  killSubtask(subtask: string): void;
  triggerCheckpoint(): void;
  /**
   * Appends a record (text per column, typed by the source's schema) to a running source's input;
   * it is checkpointed with the source's offsets, so kills and time travel keep it exactly once.
   */
  inject(source: string, values: Record<string, string>): Promise<InjectParse>;
  /** Time travel: state, views and source offsets go back to a retained checkpoint; the run continues from there. */
  restoreTo(checkpointId: number): Promise<void>;
  diffCheckpoints(from: number, to: number): Promise<StateDiff>;
  /** A retained checkpoint as a savepoint file (bytes of a JSON document). */
  exportSavepoint(checkpointId: number): Promise<Uint8Array>;
  resumable(jobId: string): Promise<Resumable | null>;
  setBreakpoints(bps: Breakpoint[]): Promise<{ node: string; message: string }[]>;
  /** What the observatory panels currently show; the next frames follow it. */
  observe(req: Partial<ObserveRequest>): void;
  setSinkWindow(sinkId: string, offset: number, limit: number): void;
  /** `credit`: running snapshots wait for snapshotApplied() after the previous one (at most 1 s). */
  onSnapshot(listener: (s: RunSnapshot) => void, opts?: { credit?: boolean }): void;
  /**
   * The UI has shown the last snapshot; the next running one may be produced. `heldRows`: per
   * sink, the version whose rows the UI keeps; later samples of that version leave the rows out.
   */
  snapshotApplied(heldRows?: Record<string, number>): void;
  /** A port on which the worker reports each batch of user code to the page's watchdog. */
  watchCode(port: MessagePort): void;
}
