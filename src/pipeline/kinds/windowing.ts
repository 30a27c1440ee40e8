import type { JsonSchema } from '../kindSpec.ts';
import type { FieldType, StreamInfo } from '../../core/streamInfo.ts';
import { durationMs } from './common.ts';
import type { InferProblem } from './common.ts';
import { windowShapeProblems } from './window.ts';

/**
 * How a window join, window Top-N or window deduplication finds the window of each row,
 * as Flink's WindowingStrategy: either a window table function applied to the input's event
 * time (TimeAttributeWindowingStrategy) or window columns the input already carries, e.g. the
 * output of a Window aggregate (WindowAttachedWindowingStrategy).
 */
export interface Windowing {
  type: 'tumble' | 'hop' | 'cumulate' | 'columns';
  sizeMs?: number;
  slideMs?: number;
  stepMs?: number;
  offsetMs?: number;
}

export const WINDOWING_COLUMNS = ['window_start', 'window_end', 'window_time'] as const;

const shownFor = (types: Windowing['type'][], schema: JsonSchema): JsonSchema => ({ ...schema, 'x-weir-visible-when': { type: types } });

export const windowingSchema = (description: string): JsonSchema => ({
  type: 'object',
  description,
  properties: {
    type: {
      enum: ['tumble', 'hop', 'cumulate', 'columns'],
      description: 'TUMBLE, HOP or CUMULATE over the input\'s event time, or `columns`: the input already has window_start and window_end (e.g. a Window aggregate\'s output).',
    },
    sizeMs: shownFor(['tumble', 'hop', 'cumulate'], durationMs('Window size (the largest window for cumulate).')),
    slideMs: shownFor(['hop'], durationMs('How far consecutive hop windows are apart.')),
    stepMs: shownFor(['cumulate'], durationMs('How much each cumulate window grows.')),
    offsetMs: shownFor(['tumble', 'hop', 'cumulate'], { type: 'integer', description: 'Shifts window boundaries; for example −8 h aligns days to UTC+8.', 'x-weir-unit': 'ms' }),
  },
  required: ['type'],
  additionalProperties: false,
});

export const windowingDoc =
  '`window.type` tumble/hop/cumulate assigns each row to its windows by its event time exactly as the Window aggregate does (a hop or cumulate row belongs to several windows) and adds the columns window_start, window_end and window_time (= window_end − 1) to it; ' +
  '`columns` takes window_start and window_end (epoch ms) from the row itself. A window is complete when the watermark reaches window_end − 1: only then are its results emitted, all as +I (append-only), and its state is dropped. ' +
  'A row whose window is already complete when it arrives is late: it is dropped and counted as lateRecords, as Flink drops late rows of window operators.';

/** Problems of a windowing param against the input it reads. */
export function windowingProblems(w: Windowing | undefined, input: StreamInfo | undefined, path: string, port = 'in'): InferProblem[] {
  if (!w) return [];
  const out: InferProblem[] = [];
  const needs: Record<Windowing['type'], (keyof Windowing)[]> = { tumble: ['sizeMs'], hop: ['sizeMs', 'slideMs'], cumulate: ['sizeMs', 'stepMs'], columns: [] };
  // The window shape is checked exactly as the Window aggregate checks its own.
  if (w.type !== 'columns') out.push(...windowShapeProblems({ ...w, type: w.type, groupBy: [], aggregates: [] }).map((p) => ({ ...p, field: p.field.replace(/^params\./, `${path}.`) })));
  if (w.type !== 'columns') {
    for (const f of ['sizeMs', 'slideMs', 'stepMs', 'offsetMs'] as const) {
      if (w[f] !== undefined && !needs[w.type].includes(f) && f !== 'offsetMs') out.push({ field: `${path}.${f}`, message: `${f} does not apply to a ${w.type} window; remove it`, code: 'bad-param-value' });
    }
  } else {
    for (const f of ['sizeMs', 'slideMs', 'stepMs', 'offsetMs'] as const) {
      if (w[f] !== undefined) out.push({ field: `${path}.${f}`, message: `${f} does not apply when the windows come from the input's columns; remove it`, code: 'bad-param-value' });
    }
  }
  if (!input) return out;
  if (w.type === 'columns') {
    if (input.fields) {
      for (const c of ['window_start', 'window_end']) {
        if (!(c in input.fields)) out.push({ field: `${path}.type`, message: `the ${port} input has no "${c}" column; put a Window aggregate before this node or choose tumble, hop or cumulate`, code: 'unknown-field' });
      }
    }
  } else if (input.eventTime === null) {
    out.push({ field: `inputs.${port}`, message: `a ${w.type} window needs event time on the ${port} input: set eventTime on the source`, code: 'no-event-time' });
  } else if (input.fields) {
    for (const c of WINDOWING_COLUMNS) {
      if (c in input.fields) out.push({ field: `${path}.type`, message: `the ${port} input already has a "${c}" column; use window type "columns" to take its windows, or rename the column`, code: 'duplicate-column' });
    }
  }
  if (input.changelog !== 'append') out.push({ field: `inputs.${port}`, message: `window operators take only inserts, but the ${port} input is updating; window it with a Window aggregate first or use the non-window kind`, code: 'needs-append-only' });
  return out;
}

/** The input's fields as the operator sees them: with the window columns a window TVF adds. */
export function windowedFields(w: Windowing, fields: Record<string, FieldType> | null): Record<string, FieldType> | null {
  if (!fields || w.type === 'columns') return fields;
  return { ...fields, window_start: 'timestamp', window_end: 'timestamp', window_time: 'timestamp' };
}

/** The windowed view of an input stream. */
export function windowedStream(w: Windowing, input: StreamInfo): StreamInfo {
  return { ...input, fields: windowedFields(w, input.fields), eventTime: w.type === 'columns' ? input.eventTime : 'window_time' };
}
