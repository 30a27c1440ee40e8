import type { NodeMetrics } from '../engine/nodeTask.ts';
import type { Row, RowKind } from '../engine/types.ts';
import type { PipelineDocument } from '../pipeline/document.ts';
import type { Problem } from '../pipeline/kindSpec.ts';
import type { FieldType } from '../pipeline/streamInfo.ts';

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
  /** Changelog rows received so far. */
  changes: number;
  /** The last changelog rows, newest last, for the log view of a sink. */
  recent: { kind: RowKind; row: Row }[];
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
  deadLetters: Record<string, number>;
  sinks: Record<string, SinkSample>;
  /** Log lines since the previous snapshot. */
  log: LogLine[];
  checkpoints: number;
  error: { message: string; node?: string } | null;
}

export interface LoadOptions {
  /** Records per second, or null for as fast as possible. */
  speed: number | null;
  checkpointIntervalMs: number | null;
}

export type LoadResult = { ok: true; sinks: string[] } | { ok: false; problems: Problem[]; message: string };

/** The control plane the UI drives through comlink; records never cross it one by one. */
export interface EngineApi {
  load(doc: PipelineDocument, opts: LoadOptions): Promise<LoadResult>;
  run(): void;
  pause(): void;
  step(): void;
  stop(): void;
  setSpeed(speed: number | null): void;
  setCheckpointInterval(ms: number | null): void;
  /** Fault injection: fail one operator and recover from the latest checkpoint. */
  killSubtask(nodeId: string): void;
  setSinkWindow(sinkId: string, offset: number, limit: number): void;
  onSnapshot(listener: (s: RunSnapshot) => void): void;
}
