import type { JsonSchema, KindSpec } from '../kindSpec.ts';
import type { OverCall } from './aggregateCall.ts';
import type { FieldType } from '../../core/streamInfo.ts';
import { aggregateCallSchema, fieldList, inputOf, missingFields } from './common.ts';
import type { InferProblem } from './common.ts';
import { aggregateColumns } from './aggregate.ts';
import { aggregateDerivation, durationText, fromView, windowedView } from '../lineage/derive.ts';

export interface OverAggregateParams {
  /** PARTITION BY fields (may be empty). */
  partitionBy: string[];
  /** ROWS counts rows, RANGE measures event time. */
  frame: 'rows' | 'range';
  /** ROWS BETWEEN precedingRows PRECEDING AND CURRENT ROW; absent = UNBOUNDED PRECEDING. */
  precedingRows?: number;
  /** RANGE BETWEEN INTERVAL precedingMs PRECEDING AND CURRENT ROW; absent = UNBOUNDED PRECEDING. */
  precedingMs?: number;
  /** Aggregates over the frame (or LAG), appended to each row. */
  aggregates: OverCall[];
}

const callProps = aggregateCallSchema.properties as Record<string, JsonSchema>;

/** An aggregate call, or LAG with its offset and default: what an OVER window computes per row. */
const overCallSchema: JsonSchema = {
  ...aggregateCallSchema,
  properties: {
    ...callProps,
    fn: { ...callProps.fn, enum: [...(callProps.fn.enum as string[]), 'lag'] },
    offset: { type: 'integer', minimum: 0, description: 'For lag: how many rows back (0 is the row itself); default 1.', 'x-weir-visible-when': { fn: ['lag'] } },
    default: { type: ['string', 'number', 'boolean', 'null'], description: 'For lag: the value when the partition has fewer rows before this one; default NULL.', 'x-weir-visible-when': { fn: ['lag'] } },
  },
};

/** Flink wants LAG's default in the value's own type, and so does the column it fills. */
function lagDefaultProblem(d: OverCall['default'], type: FieldType | undefined, field: string | undefined): string | null {
  if (d === undefined || d === null || type === undefined || type === 'json') return null;
  const fits = type === 'integer' ? Number.isInteger(d) : type === 'number' || type === 'timestamp' ? typeof d === 'number' : type === 'string' ? typeof d === 'string' : typeof d === 'boolean';
  return fits ? null : `the default ${JSON.stringify(d)} is not a${type === 'integer' ? 'n' : ''} ${type} like "${field}"; give one of that type (Flink's LAG refuses a default of another type)`;
}

/** True when the frame is the one Flink gives LAG: RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW. */
const lagFrame = (p: Partial<OverAggregateParams>): boolean => p.frame === 'range' && p.precedingMs === undefined;

export const overAggregateSpec: KindSpec<OverAggregateParams> = {
  kind: 'overAggregate',
  group: 'windows',
  title: 'Over aggregate',
  icon: '⩫',
  summary: 'OVER (PARTITION BY … ORDER BY event time ROWS/RANGE BETWEEN … PRECEDING AND CURRENT ROW) aggregates on every row, and LAG, FIRST_VALUE and LAST_VALUE.',
  semantics: [
    'Flink SQL `agg(x) OVER (PARTITION BY partitionBy ORDER BY <event time> frame BETWEEN … PRECEDING AND CURRENT ROW)`, as Flink\'s row-time OverAggregate. Rows are ordered by the input\'s event time.',
    '',
    'Each row is buffered in keyed state until the watermark reaches its event time; then the buffered rows of that time are emitted in event-time order (equal times in arrival order), each as +I of the input row plus one column per aggregate computed over its frame:',
    '',
    '- **rows**: the row itself and the `precedingRows` rows before it in the partition (all earlier rows when `precedingRows` is left out: ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW).',
    '- **range**: every row of the partition whose event time is within `precedingMs` before the row\'s, up to and including the row\'s own time, so rows with equal times see each other (all earlier rows when `precedingMs` is left out: RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW).',
    '',
    'Besides count, sum, avg, min and max, a call can be **firstValue** / **lastValue** (Flink\'s FIRST_VALUE / LAST_VALUE: the first or last non-NULL value of the frame in event-time order, equal times in arrival order) or **lag** (Flink\'s LAG(field, offset, default): the value of `field` `offset` rows back, default 1, NULLs included; `default`, else NULL, when the partition has fewer rows before). As in Flink, LAG takes no frame of its own, so it needs frame `range` with no `precedingMs` (the window of `OVER (PARTITION BY … ORDER BY time)`); there, rows with equal times see each other, so every one of them gets the value `offset` rows before the last of them in arrival order. LEAD is not offered: Flink\'s streaming planner refuses it, since it needs rows that have not arrived.',
    '',
    'A row whose event time is at or below the watermark when it arrives is late: as in Flink it is dropped and counted as lateRecords. Rows that left every future frame are removed from state when the watermark passes; with an unbounded frame only the accumulators are kept (for lag, the last `offset` + 1 values of the partition). NULL inputs are ignored by the aggregates as in SQL. The input must be insert-only (Flink\'s OVER aggregation takes no updates); the output is append-only and keeps the input\'s event time.',
  ].join('\n'),
  inputs: [{ name: 'in', doc: 'An insert-only stream with event time.' }],
  outputs: [{ name: 'out', doc: 'Every on-time input row with its aggregates, in event-time order per partition.' }],
  params: {
    type: 'object',
    properties: {
      partitionBy: fieldList('PARTITION BY fields (may be empty for one partition).', 0),
      frame: { enum: ['rows', 'range'], description: 'ROWS counts preceding rows; RANGE takes the rows within an event-time interval.' },
      precedingRows: { type: 'integer', minimum: 0, description: 'ROWS frame: how many preceding rows it spans; leave out for UNBOUNDED PRECEDING.', 'x-weir-visible-when': { frame: ['rows'] } },
      precedingMs: { type: 'integer', minimum: 0, description: 'RANGE frame: how far back in event time it reaches; leave out for UNBOUNDED PRECEDING.', 'x-weir-unit': 'ms', 'x-weir-visible-when': { frame: ['range'] } },
      aggregates: { type: 'array', items: overCallSchema, minItems: 1 },
    },
    required: ['partitionBy', 'frame', 'aggregates'],
    additionalProperties: false,
  },
  defaults: { partitionBy: [], frame: 'rows', precedingRows: 2, aggregates: [{ fn: 'sum', field: 'amount', as: 'total' }] },
  example: {
    partitionBy: ['product'],
    frame: 'range',
    precedingMs: 3_600_000,
    aggregates: [
      { fn: 'sum', field: 'amount', as: 'amount_last_hour' },
      { fn: 'count', as: 'orders_last_hour' },
    ],
  },
  stateful: true,
  codeParams: [],
  lineage: ({ params, inputs, outputs }) => {
    const input = inputs.in?.[0];
    const partitionBy = params.partitionBy ?? [];
    const frame =
      params.frame === 'range'
        ? `RANGE ${params.precedingMs === undefined ? 'UNBOUNDED' : `INTERVAL ${durationText(params.precedingMs)}`} PRECEDING`
        : `ROWS ${params.precedingRows === undefined ? 'UNBOUNDED' : params.precedingRows} PRECEDING`;
    const over = `${partitionBy.length ? `PARTITION BY ${partitionBy.join(', ')} ` : ''}ORDER BY ${input?.eventTime ?? '?'} ${frame}`;
    const own = Object.fromEntries((params.aggregates ?? []).map((c) => [c.as, aggregateDerivation(c, 'in', over)]));
    return { out: fromView(outputs.out, windowedView(undefined, input, 'in'), own) };
  },
  infer: ({ params, inputs }) => {
    const input = inputOf(inputs);
    const partitionBy = params.partitionBy ?? [];
    const calls = params.aggregates ?? [];
    const { fields: columns, problems: aggProblems } = aggregateColumns(input, [], calls);
    const problems: InferProblem[] = [...missingFields(input, partitionBy, 'params.partitionBy'), ...aggProblems];
    if (params.frame === 'rows' && params.precedingMs !== undefined) {
      problems.push({ field: 'params.precedingMs', message: 'precedingMs belongs to a RANGE frame; use precedingRows for ROWS, or set frame to "range"', code: 'bad-param-value' });
    }
    if (params.frame === 'range' && params.precedingRows !== undefined) {
      problems.push({ field: 'params.precedingRows', message: 'precedingRows belongs to a ROWS frame; use precedingMs for RANGE, or set frame to "rows"', code: 'bad-param-value' });
    }
    calls.forEach((c, i) => {
      if (c.fn === 'lag' && !lagFrame(params)) problems.push({ field: `params.aggregates[${i}].fn`, message: 'LAG takes no frame of its own (Flink refuses ROWS/RANGE with LAG): set frame to "range" and leave precedingMs out, or compute the LAG in an over aggregate of its own', code: 'bad-param-value' });
      const defaultProblem = c.fn === 'lag' ? lagDefaultProblem(c.default, c.field && input.fields ? input.fields[c.field] : undefined, c.field) : null;
      if (defaultProblem) problems.push({ field: `params.aggregates[${i}].default`, message: defaultProblem, code: 'bad-param-value' });
      if (c.fn !== 'lag' && (c.offset !== undefined || c.default !== undefined)) problems.push({ field: `params.aggregates[${i}].${c.offset !== undefined ? 'offset' : 'default'}`, message: `offset and default belong to lag, not ${c.fn}; remove them or set fn to "lag"`, code: 'bad-param-value' });
      if (input.fields && c.as in input.fields) problems.push({ field: `params.aggregates[${i}].as`, message: `the input already has a field "${c.as}"; choose another output name`, code: 'duplicate-column' });
    });
    if (inputs.in && inputs.in.eventTime === null) {
      problems.push({ field: 'inputs.in', message: 'OVER aggregation orders rows by event time, and this input has none; set `eventTime` on the source', code: 'no-event-time' });
    }
    if (inputs.in && inputs.in.changelog !== 'append') {
      problems.push({ field: 'inputs.in', message: 'OVER aggregation takes only inserts (as in Flink), but this input is updating; aggregate with a Group by instead, or deduplicate to first rows before', code: 'needs-append-only' });
    }
    const fields = input.fields && columns ? { ...input.fields, ...Object.fromEntries(calls.map((c) => [c.as, columns[c.as]])) } : null;
    return { outputs: { out: { fields, eventTime: input.eventTime, keyedBy: null, changelog: 'append', uniqueKey: null } }, problems };
  },
};
