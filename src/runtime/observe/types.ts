import type { Key, Row, RowKind } from '../../core/types.ts';
import type { CheckpointRecord } from '../../checkpoint/types.ts';

/**
 * The observatory's contract: what the engine worker samples from a running LocalCluster
 * (10–30 Hz, small payloads) and what the UI panels draw. Pure data, structured-cloneable.
 * Producers: src/runtime/observe/collect*.ts. Consumers: src/ui/observatory/*, src/ui/lessons/*.
 */

/** What the UI currently looks at; the collector only pays for what is open. */
export interface ObserveRequest {
  /** Node whose state/buffers/panes are shown, or null. */
  node: string | null;
  /** Subtask index within that node, or null for all subtasks merged. */
  subtask: number | null;
  /** State table window (virtualized): rows [offset, offset + limit) after search and sort. */
  stateOffset: number;
  stateLimit: number;
  /** Substring match on the key's text. */
  search: string;
  sort: { column: 'key' | 'updated' | string; dir: 'asc' | 'desc' } | null;
  /** Pinned keys (their JSON text) always come first. */
  pinned: string[];
  /** Sink node whose pull query or push subscription is active. */
  query: { sink: string; key: Row | null; push: boolean } | null;
  /**
   * The bottom tab on screen ('none' when the panel is closed), or null/absent for "send everything".
   * Source scatter points and the trace (about 40% of a frame) go only to the tab that shows them.
   */
  panel?: string | null;
}

export const DEFAULT_REQUEST: ObserveRequest = { node: null, subtask: null, stateOffset: 0, stateLimit: 100, search: '', sort: null, pinned: [], query: null };

export interface EdgeObservation {
  edge: string;
  /** Records per second over the last second (simulated job time when stepping). */
  rate: number;
  /** Queued messages over capacity, 0..1, the worst channel of the edge. */
  fill: number;
  queued: number;
  capacity: number;
  /** Min watermark that crossed the edge so far (−Infinity → null). */
  watermark: number | null;
  /** Barriers currently travelling on the edge: checkpoint id and progress 0..1 along the edge. */
  barriers: { checkpointId: number; progress: number }[];
  /** Changelog kinds seen on the edge; an edge carrying updates shows them. */
  kinds: Partial<Record<RowKind, number>>;
  /** A few recent records (sampled), newest last. */
  sample: { kind: RowKind; row: Row }[];
}

export interface SubtaskObservation {
  id: string;
  index: number;
  keys: number;
  bytes: number;
  keyGroups: [number, number];
  watermark: number | null;
  /** Which inputs are blocked by barrier alignment, and records buffered meanwhile. */
  aligning: { checkpointId: number; blockedInputs: string[]; buffered: number } | null;
  /** Set for ~1 s after a snapshot: timings of the last one. */
  lastSnapshot: { checkpointId: number; syncMs: number; asyncMs: number | null; at: number } | null;
  alive: boolean;
}

export interface NodeObservation {
  node: string;
  recordsIn: number;
  recordsOut: number;
  deadLetters: number;
  lateRecords: number;
  watermark: number | null;
  keys: number;
  bytes: number;
  subtasks: SubtaskObservation[];
}

export interface StateRow {
  key: Key;
  /** JSON text of the key: stable identity for pinning and flashing. */
  keyText: string;
  /** One value per state descriptor name (lists and maps as arrays/objects). */
  states: Record<string, unknown>;
  /** Remaining TTL in ms, per descriptor, when TTL is set. */
  ttlMs: Record<string, number | null>;
  updatedAt: number | null;
  subtask: number;
  /** True when the row changed since the previous frame. */
  changed: boolean;
}

export interface StateTable {
  node: string;
  descriptors: string[];
  total: number;
  offset: number;
  rows: StateRow[];
}

export interface JoinBufferRow {
  side: 'left' | 'right';
  key: Key;
  row: Row;
  ts: number | null;
  matches: number;
  /** Interval joins: the other side's event-time range this row can still match, inclusive. */
  range: [number, number] | null;
  /** Interval joins: the watermark after which this row is evicted. */
  evictAfter: number | null;
}

export interface JoinObservation {
  node: string;
  joinType: string;
  left: JoinBufferRow[];
  right: JoinBufferRow[];
  evicted: { watermark: number; ttl: number };
  /** Pairs emitted since the previous frame (for the "pair flows to the output" animation). */
  recentMatches: { left: Row | null; right: Row | null; out: Row; kind: RowKind }[];
}

/** A window pane as the window operator reports it (src/engine/operators/window/panes.ts). */
export type PaneObservation = import('../../engine/operators/window/panes.ts').PaneView;

export interface WindowObservation {
  node: string;
  windowType: string;
  /** Finite watermark, or null when none has arrived yet or the input has ended (see watermarkEnded). */
  watermark: number | null;
  /** Every input has ended (the watermark is +∞). Carried apart because JSON cannot hold Infinity. */
  watermarkEnded: boolean;
  panes: PaneObservation[];
  merges: { key: Key; from: [number, number][]; into: [number, number] }[];
  lateRecords: number;
  recentLate: Row[];
}

/** Event time vs processing time per source: points for the out-of-orderness plot. */
export interface SourceTimeSeries {
  node: string;
  points: { processingTime: number; eventTime: number; watermark: number | null; late: boolean }[];
}

export interface TraceHop {
  node: string;
  subtask: number;
  /** What the record did there: emitted rows, state writes. */
  emitted: { port: string; kind: RowKind; row: Row }[];
  stateChanged: boolean;
}

export interface TraceEntry {
  seq: number;
  source: string;
  row: Row;
  hops: TraceHop[];
}

export interface QueryObservation {
  sink: string;
  /** Pull: the current row(s) for the key. */
  rows: Row[];
  /** Push: changelog rows since the subscription began, newest last (bounded). */
  changes: { kind: RowKind; row: Row; at: number }[];
  /** Set when the query cannot run (e.g. the sink is not in the job), saying what to do. */
  error?: string;
}

export interface StateDiff {
  from: number;
  to: number;
  operators: { node: string; added: StateRow[]; removed: StateRow[]; changed: { key: Key; before: Record<string, unknown>; after: Record<string, unknown> }[] }[];
}

export interface ObservationFrame {
  /** Simulated job time. */
  at: number;
  edges: EdgeObservation[];
  nodes: NodeObservation[];
  state: StateTable | null;
  join: JoinObservation | null;
  window: WindowObservation | null;
  sources: SourceTimeSeries[];
  checkpoints: CheckpointRecord[];
  inFlightCheckpoint: number | null;
  trace: TraceEntry[];
  query: QueryObservation | null;
  /** Set when a breakpoint paused the job. */
  breakpointHit: { node: string; row: Row } | null;
}

/** A breakpoint on a node: pause when a record reaches it (and `condition`, an expression, holds). */
export interface Breakpoint {
  node: string;
  condition?: string;
}

/** What the session asks of the collector; implemented by src/runtime/observe/observer.ts. */
export interface ClusterObserverApi {
  /** Feeds one cluster event (attach with cluster.onEvent). */
  onEvent(e: import('../localCluster.ts').ClusterEvent): void;
  /** A frame for the current request; cheap enough to call 20 times a second. */
  frame(req: ObserveRequest): ObservationFrame;
  /** Keys added, removed and changed per operator between two retained checkpoints. */
  diff(fromCheckpoint: number, toCheckpoint: number): Promise<StateDiff>;
  /** Breakpoints: the session pauses when `hit()` returns non-null after a step. */
  setBreakpoints(bps: Breakpoint[]): { node: string; message: string }[];
  hit(): { node: string; row: Row } | null;
}
