import type { JsonSchema, KindSpec } from '../kindSpec.ts';
import type { FieldType } from '../../core/streamInfo.ts';
import type { AggregateCall } from './aggregateCall.ts';
import { aggregateCallSchema, durationMs, fieldList, inputOf } from './common.ts';
import type { InferProblem } from './common.ts';
import { aggregateColumns } from './aggregate.ts';
import { aggregateLineage } from './aggregate.ts';
import { fromView, windowedView } from '../lineage/derive.ts';

export type WindowType = 'tumble' | 'hop' | 'session' | 'cumulate';

export interface WindowParams {
  type: WindowType;
  /** tumble, hop; for cumulate the largest window. */
  sizeMs?: number;
  /** hop */
  slideMs?: number;
  /** session */
  gapMs?: number;
  /** cumulate */
  stepMs?: number;
  /** Shifts window boundaries of tumble, hop and cumulate (default 0). */
  offsetMs?: number;
  groupBy: string[];
  aggregates: AggregateCall[];
  allowedLatenessMs?: number;
}

export const WINDOW_COLUMNS = ['window_start', 'window_end', 'window_time'] as const;

/** Editor hint (ignored by validation): the field applies only to these window types, so forms hide it for the others. */
const shownFor = (types: WindowType[], schema: JsonSchema): JsonSchema => ({ ...schema, 'x-weir-visible-when': { type: types } });

const NEEDS: Record<WindowType, (keyof WindowParams)[]> = {
  tumble: ['sizeMs'],
  hop: ['sizeMs', 'slideMs'],
  session: ['gapMs'],
  cumulate: ['sizeMs', 'stepMs'],
};

/** The longest window (and slide, step, session gap, allowed lateness) weir accepts: 100 years, far inside exact double arithmetic. */
export const MAX_WINDOW_MS = 100 * 365.25 * 86_400_000;
/** A hop or cumulate window shape may place one record in at most this many windows. */
export const MAX_WINDOWS_PER_RECORD = 1000;

/** Problems of the window shape itself; the JSON schema has already checked types. */
export function windowShapeProblems(p: WindowParams): InferProblem[] {
  const out: InferProblem[] = [];
  const needs = NEEDS[p.type];
  if (!needs) return out;
  for (const f of needs) {
    if (p[f] === undefined) out.push({ field: `params.${f}`, message: `a ${p.type} window needs ${f}`, code: 'missing-param' });
  }
  // A session gap or a lateness this long would push window_end and window_time past exact integers too.
  for (const f of ['sizeMs', 'slideMs', 'stepMs', 'offsetMs', 'gapMs', 'allowedLatenessMs'] as const) {
    const v = p[f];
    if (typeof v === 'number' && Math.abs(v) > MAX_WINDOW_MS) out.push({ field: `params.${f}`, message: `${v} ms is longer than 100 years (${MAX_WINDOW_MS} ms), the longest a window, slide, step, gap or lateness may be`, code: 'bad-param-value' });
  }
  if (out.length) return out;
  const per = p.type === 'hop' && p.sizeMs && p.slideMs ? Math.ceil(p.sizeMs / p.slideMs) : p.type === 'cumulate' && p.sizeMs && p.stepMs ? Math.ceil(p.sizeMs / p.stepMs) : 0;
  if (per > MAX_WINDOWS_PER_RECORD) {
    const field = p.type === 'hop' ? 'slideMs' : 'stepMs';
    out.push({ field: `params.${field}`, message: `size ${p.sizeMs} ms with ${field === 'slideMs' ? 'slide' : 'step'} ${p[field]} ms puts every record in ${per} windows; at most ${MAX_WINDOWS_PER_RECORD} are allowed: make the ${field === 'slideMs' ? 'slide' : 'step'} larger or the size smaller`, code: 'bad-param-value' });
  }
  if (p.type === 'hop' && p.sizeMs !== undefined && p.slideMs !== undefined && p.slideMs > p.sizeMs) {
    out.push({ field: 'params.slideMs', message: `slide (${p.slideMs} ms) is larger than size (${p.sizeMs} ms): records between windows would belong to none`, code: 'bad-param-value' });
  }
  if (p.type === 'cumulate' && p.sizeMs !== undefined && p.stepMs !== undefined && p.sizeMs % p.stepMs !== 0) {
    out.push({ field: 'params.sizeMs', message: `size (${p.sizeMs} ms) must be a whole multiple of step (${p.stepMs} ms)`, code: 'bad-param-value' });
  }
  return out;
}

/** Calls whose result depends on the order values arrived in. */
const ARRIVAL_ORDERED = new Set(['listAgg', 'listAggDistinct', 'arrayAgg', 'jsonArrayAgg', 'jsonObjectAgg']);

export const windowSpec: KindSpec<WindowParams> = {
  kind: 'window',
  group: 'windows',
  title: 'Window aggregate',
  icon: '⧗',
  summary: 'Event-time TUMBLE, HOP, SESSION or CUMULATE windows with count, sum, avg, min, max or your own aggregate.',
  semantics: [
    'Flink\'s window table functions followed by GROUP BY window_start, window_end and `groupBy`.',
    '',
    '- **tumble**: each record falls in [start, start + size) with start = ts − ((ts − offset) mod size) (a true modulo, so negative times work).',
    '- **hop**: each record falls in every [start, start + size) with start ≡ offset (mod slide) that contains it (size / slide windows when slide divides size).',
    '- **cumulate**: with S the tumble start for `sizeMs`, a record falls in [S, S + k·step) for every k ≤ size / step whose window contains it; all windows of one cycle share window_start.',
    '- **session**: per group, a record opens [ts, ts + gap); windows that overlap or touch merge into one session and their accumulators are merged (a record arriving between two sessions bridges them). Retractions are taken from the session that contains their time; sessions never split.',
    '',
    'A window fires when the watermark reaches window_end − 1 and emits one +I row per group with a result: the `groupBy` fields, window_start, window_end, window_time (= window_end − 1, the row\'s event time, so results can feed another window or an interval join), then the aggregates. Windows left with no rows after retractions emit nothing.',
    '',
    'A record is late when window_end − 1 + allowedLateness ≤ the current watermark for every window it belongs to: it goes unchanged to the `late` output and is counted as lateRecords. A hop record late for only some of its windows is added to the others. With allowed lateness, a record for a window that already fired updates it and emits -U (old row) then +U (new row), or -D if the window emptied; a session merged into another after it fired is withdrawn with -D. Window state is dropped at window_end − 1 + allowedLateness.',
    '',
    'Input may be an updating stream with event time (an upsert or changelog source, Deduplicate keeping the last row by event time, Top N), as Flink\'s group window aggregate on a retract stream: a -U/-D row is assigned to windows by its own event-time column, so it retracts its contribution from the windows its +I/+U went to. A retraction reaching a window that already fired (within allowed lateness) updates its result with -U/+U, or -D when the window emptied. A retraction for a window whose state is gone (after window_end − 1 + allowedLateness) is late like any other row. A retraction for a still-open window that does not hold its row goes to the dead-letter output.',
    '',
    'The aggregates are those of the Group by; firstValue / lastValue (the first / last non-NULL value in arrival order) are refused in session windows, whose merges would need each value\'s arrival across both sessions (Flink\'s FIRST_VALUE / LAST_VALUE cannot merge either).',
  ].join('\n'),
  inputs: [{ name: 'in', doc: 'A stream with event time (set `eventTime` on the source); append-only or updating.' }],
  outputs: [
    { name: 'out', doc: 'One row per group and window; append-only unless allowed lateness lets fired windows change.' },
    { name: 'late', doc: 'Records that arrived after all their windows closed, unchanged.' },
  ],
  params: {
    type: 'object',
    properties: {
      type: { enum: ['tumble', 'hop', 'session', 'cumulate'], description: 'Window table function: TUMBLE, HOP, SESSION or CUMULATE.' },
      sizeMs: shownFor(['tumble', 'hop', 'cumulate'], durationMs('Window size (tumble, hop; the largest window for cumulate).')),
      slideMs: shownFor(['hop'], durationMs('How far consecutive hop windows are apart.')),
      gapMs: shownFor(['session'], durationMs('Session gap: a group\'s session ends after this long without records.')),
      stepMs: shownFor(['cumulate'], durationMs('How much each cumulate window grows.')),
      offsetMs: shownFor(['tumble', 'hop', 'cumulate'], { type: 'integer', description: 'Shifts window boundaries (tumble, hop, cumulate); for example −8 h aligns days to UTC+8.', 'x-weir-unit': 'ms' }),
      groupBy: fieldList('Fields grouped by within each window (may be empty).', 0),
      aggregates: { type: 'array', items: aggregateCallSchema, minItems: 1 },
      allowedLatenessMs: durationMs('How long after firing a window still accepts records and updates its result.', 0),
    },
    required: ['type', 'groupBy', 'aggregates'],
    additionalProperties: false,
  },
  defaults: { type: 'tumble', sizeMs: 60_000, groupBy: [], aggregates: [{ fn: 'count', as: 'cnt' }] },
  example: {
    type: 'hop',
    sizeMs: 600_000,
    slideMs: 300_000,
    groupBy: ['store_id'],
    aggregates: [
      { fn: 'count', as: 'orders' },
      { fn: 'sum', field: 'amount', as: 'revenue' },
    ],
    allowedLatenessMs: 0,
  },
  stateful: true,
  codeParams: [],
  lineage: ({ params, inputs, outputs }) => {
    const input = inputs.in?.[0];
    const view = windowedView(params, input, 'in');
    return { out: fromView(outputs.out, view, aggregateLineage(params.groupBy ?? [], params.aggregates ?? [])), late: fromView(outputs.late, windowedView(undefined, input, 'in')) };
  },
  infer: ({ params, inputs }) => {
    const input = inputOf(inputs);
    const groupBy = params.groupBy ?? [];
    const calls = params.aggregates ?? [];
    const { fields: columns, problems } = aggregateColumns(input, groupBy, calls);
    problems.push(...windowShapeProblems(params));
    // An unconnected input is reported by the compiler already; only a real stream can lack event time.
    if (inputs.in && inputs.in.eventTime === null) {
      problems.push(
        inputs.in.changelog === 'update'
          ? {
              field: 'inputs.in',
              message:
                'the input is an updating result without event time: a Group by or regular join drops the time attribute (as in Flink), so its rows have no time to be windowed by. Window the rows before aggregating them (put the Group by\'s fields into this window\'s groupBy), or keep the time column by deduplicating by event time instead',
              code: 'updating-input-without-event-time',
            }
          : {
              field: 'inputs.in',
              message: 'the input has no event time, so windows could never fire; set `eventTime` (field and maxOutOfOrdernessMs) on the source',
              code: 'no-event-time',
            },
      );
    }
    const reserved = new Set<string>(WINDOW_COLUMNS);
    groupBy.forEach((f, i) => {
      if (reserved.has(f)) problems.push({ field: `params.groupBy[${i}]`, message: `"${f}" is a window column; rename the field before the window`, code: 'duplicate-column' });
    });
    calls.forEach((c, i) => {
      if (reserved.has(c.as)) problems.push({ field: `params.aggregates[${i}].as`, message: `"${c.as}" is a window column; choose another name`, code: 'duplicate-column' });
      // Merging two sessions would need each value's arrival across both; Flink's FIRST_VALUE/LAST_VALUE have no merge either.
      if (params.type === 'session' && (c.fn === 'firstValue' || c.fn === 'lastValue')) problems.push({ field: `params.aggregates[${i}].fn`, message: `${c.fn} cannot merge sessions (Flink's FIRST_VALUE/LAST_VALUE cannot either); use a tumble, hop or cumulate window, or min/max of a value that grows with time`, code: 'bad-param-value' });
      // Its values are in arrival order, which a merge of two sessions does not keep.
      if (params.type === 'session' && ARRIVAL_ORDERED.has(c.fn)) problems.push({ field: `params.aggregates[${i}].fn`, message: `${c.fn} keeps its values in arrival order, which merging two sessions loses; use a tumble, hop or cumulate window, or aggregate the session's rows with ${c.fn} in a group by after it`, code: 'bad-param-value' });
    });
    let fields: Record<string, FieldType> | null = null;
    if (columns) {
      fields = {};
      for (const f of groupBy) if (f in columns) fields[f] = columns[f];
      for (const w of WINDOW_COLUMNS) fields[w] = 'timestamp';
      for (const c of calls) fields[c.as] = columns[c.as];
    }
    const lateness = params.allowedLatenessMs ?? 0;
    return {
      outputs: {
        out: { fields, eventTime: 'window_time', keyedBy: null, changelog: lateness > 0 ? 'update' : 'append', uniqueKey: [...groupBy, 'window_start', 'window_end'] },
        late: { ...input },
      },
      problems,
    };
  },
};
