import type { KindSpec } from '../kindSpec.ts';
import { inputOf } from './common.ts';
import type { InferProblem } from './common.ts';
import type { JoinKeyParams, JoinType } from './join.ts';
import { joinedStream, joinKeyProblems, joinKeySchema, joinOutputDoc, joinPorts, joinTypeSchema, needsAppendOnly, needsEventTime } from './join.ts';
import { joinLineage } from '../lineage/joinLineage.ts';

export interface IntervalJoinParams extends JoinKeyParams {
  type: JoinType;
  /** right.ts >= left.ts + lowerBoundMs (may be negative). */
  lowerBoundMs: number;
  /** right.ts <= left.ts + upperBoundMs (may be negative). */
  upperBoundMs: number;
}

const bound = (description: string) => ({ type: 'integer', description, 'x-weir-unit': 'ms' });

export const intervalJoinSpec: KindSpec<IntervalJoinParams> = {
  kind: 'intervalJoin',
  group: 'joins',
  title: 'Interval join',
  icon: '⟷',
  summary: 'Joins rows whose event times are close: right.ts BETWEEN left.ts + lower AND left.ts + upper.',
  semantics:
    'An event-time interval join on `leftKey = rightKey AND right.ts BETWEEN left.ts + lowerBoundMs AND left.ts + upperBoundMs` (both bounds inclusive; `ts` is each element\'s event time). Both inputs must be append-only and carry event time. ' +
    'Each side buffers its rows per join key and event time; each arriving row is joined with the other side\'s buffered rows inside its bound and emits +I per match. ' +
    'The watermark (minimum of both inputs) evicts rows: a left row once watermark > left.ts + upperBoundMs, a right row once watermark > right.ts − lowerBoundMs, because no later row of the other side can match them. ' +
    'A row that arrives when the watermark has already passed its own eviction time is late: it is dropped, sent to the dead-letter output with the reason and counted as `lateRecords`. A row behind the watermark but not yet past its eviction time is still joined with what is buffered. ' +
    'Outer joins (left, right, full) emit a preserved row NULL-padded when it is evicted without ever having matched, as Flink does, so the output stays append-only; such padded rows carry their own, older timestamp and may be late for event-time operators downstream. ' +
    joinOutputDoc +
    ' The output\'s event-time column is the left input\'s. Counters: `joinMatches`, `evictedRows`, `lateRecords`.',
  inputs: joinPorts,
  outputs: [{ name: 'out', doc: 'Joined rows, append-only.' }],
  params: {
    type: 'object',
    properties: {
      type: joinTypeSchema(['inner', 'left', 'right', 'full']),
      ...joinKeySchema,
      lowerBoundMs: bound('Lower bound: right.ts >= left.ts + lowerBoundMs. Negative values reach into the past.'),
      upperBoundMs: bound('Upper bound: right.ts <= left.ts + upperBoundMs. Must be >= lowerBoundMs.'),
    },
    required: ['type', 'leftKey', 'rightKey', 'lowerBoundMs', 'upperBoundMs'],
    additionalProperties: false,
  },
  defaults: { type: 'inner', leftKey: ['id'], rightKey: ['id'], lowerBoundMs: 0, upperBoundMs: 60_000 },
  example: { type: 'inner', leftKey: ['order_id'], rightKey: ['order_id'], lowerBoundMs: 0, upperBoundMs: 3_600_000 },
  stateful: true,
  lineage: ({ params, inputs, outputs }) => ({ out: joinLineage(params, inputs, outputs.out) }),
  infer: ({ params, inputs }) => {
    const problems: InferProblem[] = [
      ...joinKeyProblems(params, inputs),
      ...needsEventTime(inputs, 'left', 'An interval join'),
      ...needsEventTime(inputs, 'right', 'An interval join'),
      ...needsAppendOnly(inputs, 'left', 'An interval join'),
      ...needsAppendOnly(inputs, 'right', 'An interval join'),
    ];
    if (typeof params.lowerBoundMs === 'number' && typeof params.upperBoundMs === 'number' && params.lowerBoundMs > params.upperBoundMs) {
      problems.push({ field: 'params.upperBoundMs', message: `upperBoundMs (${params.upperBoundMs}) is below lowerBoundMs (${params.lowerBoundMs}); no row could ever match`, code: 'bad-param-value' });
    }
    return { outputs: { out: joinedStream(inputs, 'append', inputOf(inputs, 'left').eventTime) }, problems };
  },
};
