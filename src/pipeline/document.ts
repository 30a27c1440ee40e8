import type { PipelineTest } from './tests/testSpec.ts';

/** The pipeline document: the only contract between canvas, runtime, CLI and exports. */
export const PIPELINE_FORMAT = 'weir/pipeline';
export const PIPELINE_VERSION = 1;

export interface PortRef {
  node: string;
  port: string;
}

export interface PipelineEdge {
  /** Optional in files; the loader names unnamed edges `from.port->to.port`. */
  id?: string;
  from: PortRef;
  to: PortRef;
}

export interface PipelineNode {
  id: string;
  kind: string;
  label?: string;
  params: Record<string, unknown>;
  position?: { x: number; y: number };
  /** Subtasks for this operator; the document's default applies when absent. */
  parallelism?: number;
  /** Where the node came from, when it was planned from a script: its span in the document's `origin.sql`. */
  origin?: NodeOrigin;
}

/** 1-based line and column of a text's first character and of the position just past its last one. */
export interface TextSpan {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface NodeOrigin {
  sql: TextSpan;
}

/** The script a document was planned from, so that its nodes' spans can be shown in it again. */
export interface DocumentOrigin {
  sql: string;
}

export interface CheckpointSettings {
  /** null: manual only. */
  intervalMs: number | null;
  retain?: number;
  incremental?: boolean;
  timeoutMs?: number;
}

export interface PipelineSettings {
  stateBackend?: 'memory' | 'indexeddb';
  checkpoint?: CheckpointSettings;
  parallelism?: number;
  maxParallelism?: number;
  seed?: number;
  /** Default idle timeout for sources, ms; a source silent this long stops holding back watermarks. */
  idleTimeoutMs?: number;
  /** Simulated processing-time pace for sources without a rate of their own. */
  defaultRatePerSec?: number;
  /** Limits on user code: time per batch of records, heap of the realm that runs it. */
  code?: CodeSettings;
  /**
   * Where the designer runs the job: 'inProcess' (default) puts every subtask in one worker, where
   * runs can be stepped, stepped back and inspected; 'workers' runs a job with a parallel node on
   * one Web Worker per subtask slot, in real parallel threads. The CLI chooses with --parallelism.
   */
  runtime?: 'inProcess' | 'workers';
}

export interface CodeSettings {
  timeoutMs?: number;
  memoryMb?: number;
}

export interface PipelineDocument {
  format: typeof PIPELINE_FORMAT;
  version: number;
  name: string;
  description?: string;
  settings?: PipelineSettings;
  nodes: PipelineNode[];
  edges: PipelineEdge[];
  /** Given rows on sources, what sinks must hold; run by `weir test` and the Tests panel. */
  tests?: PipelineTest[];
  /** Present when the document was planned from Flink SQL; its nodes' `origin.sql` spans point into this text. */
  origin?: DocumentOrigin;
}

export const edgeId = (e: PipelineEdge): string => e.id ?? `${e.from.node}.${e.from.port}->${e.to.node}.${e.to.port}`;
