import type { Row, RowKind } from '../../core/types.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';
import type { NodeObservation, ObservationFrame } from '../../runtime/observe/types.ts';
import type { RunSnapshot, RunStatus, SinkSample } from '../../worker/protocol.ts';
import { NO_EVENTS, type CheckInput, type LessonEvents } from './types.ts';

/** Hand-made snapshots and frames for the check tests: only what a check reads is filled in. */

export const sink = (rows: Row[], recent: { kind: RowKind; row: Row }[] = [], changes = rows.length): SinkSample => ({
  total: rows.length, offset: 0, rows, columns: Object.keys(rows[0] ?? {}), types: null, changes, recent,
});

export const snapshot = (o: Partial<RunSnapshot> & { status?: RunStatus } = {}): RunSnapshot => ({
  status: 'running', records: 10, rate: 0, clockMs: 0, metrics: {}, deadLetters: {}, sinks: {}, log: [], checkpoints: 0, error: null, restarts: 0, frame: null, ...o,
});

export const nodeObs = (node: string, keys: number, subtaskKeys: number[] = [keys], o: Partial<NodeObservation> = {}): NodeObservation => ({
  node, recordsIn: 0, recordsOut: 0, deadLetters: 0, lateRecords: 0, watermark: null, keys, bytes: 0,
  subtasks: subtaskKeys.map((k, index) => ({ id: `${node}#${index}`, index, keys: k, bytes: 0, keyGroups: [0, 127], watermark: null, aligning: null, lastSnapshot: null, alive: true })),
  ...o,
});

export const frame = (o: Partial<ObservationFrame> = {}): ObservationFrame => ({
  at: 0, edges: [], nodes: [], state: null, join: null, window: null, sources: [], checkpoints: [], inFlightCheckpoint: null, trace: [], query: null, breakpointHit: null, ...o,
});

export const docWith = (nodes: PipelineDocument['nodes'], o: Partial<PipelineDocument> = {}): PipelineDocument => ({ format: 'weir/pipeline', version: 1, name: 't', nodes, edges: [], ...o });

export type InputOverrides = Omit<Partial<CheckInput>, 'events'> & { events?: Partial<LessonEvents> };

export const input = (o: InputOverrides = {}): CheckInput => ({
  doc: docWith([]), snapshot: null, frame: null, answer: '', ...o, events: { ...NO_EVENTS, ...o.events },
});
