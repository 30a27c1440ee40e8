import type { KindSpec } from '../kindSpec.ts';
import { fieldList, inputOf, missingFields } from './common.ts';
import type { InferProblem } from './common.ts';
import { windowedStream, windowingDoc, windowingProblems, windowingSchema } from './windowing.ts';
import type { Windowing } from './windowing.ts';
import { fromView, windowedView } from '../lineage/derive.ts';

export interface DedupParams {
  key: string[];
  keep: 'first' | 'last';
  /** What "first" and "last" mean: arrival order (Flink's proctime) or event time (rowtime). */
  order?: 'arrival' | 'eventTime';
  /** Window deduplication: one row per key and window, emitted when the window closes (Flink's WindowDeduplicate). */
  window?: Windowing;
}

export const dedupSpec: KindSpec<DedupParams> = {
  kind: 'dedup',
  group: 'keyed',
  title: 'Deduplicate',
  icon: '⧖',
  summary: 'Keeps one row per key: the first or the last, by arrival or by event time.',
  semantics:
    'Flink SQL deduplication, `ROW_NUMBER() OVER (PARTITION BY key ORDER BY time ASC|DESC) = 1`. Keeps one row per `key` in keyed state. ' +
    '`keep: first` with `order: arrival` emits +I for the first row of each key and drops later ones, so the output is append-only. ' +
    '`keep: last` with `order: arrival` emits +I for the first row, then -U (previous row) and +U (new row) for each later one. ' +
    'With `order: eventTime` (the input needs event time), `keep: first` keeps the row with the smallest event time and `keep: last` the row with the largest; ' +
    'a row that beats the kept one replaces it with -U/+U, a row that does not is dropped. On equal event times the earlier arrival wins for first and the later arrival for last. ' +
    'Every row after the first of its key counts once as `duplicatesDropped` (either it or the row it displaced was dropped). The input must be insert-only; any other row kind goes to the dead-letter output. ' +
    'Except for first-by-arrival the output is an updating stream whose unique key is `key`.\n\n' +
    '**Window deduplication** (`window` set; Flink\'s WindowDeduplicate, `ROW_NUMBER() OVER (PARTITION BY window_start, window_end, key ORDER BY <event time> ASC|DESC) = 1`): one row per key and window, ordered by event time (`order` must be eventTime or left out). ' +
    windowingDoc +
    ' When its window closes each key emits its first (smallest event time, earlier arrival on ties) or last (largest event time, later arrival on ties) row once as +I. The output is append-only, its unique key `key` + window_start + window_end.',
  inputs: [{ name: 'in', doc: 'An insert-only stream.' }],
  outputs: [{ name: 'out', doc: 'One row per key (a changelog unless keeping the first by arrival).' }],
  params: {
    type: 'object',
    properties: {
      key: fieldList('Fields that identify duplicates.'),
      keep: { enum: ['first', 'last'], description: 'Which row of each key to keep.' },
      order: { enum: ['arrival', 'eventTime'], description: 'Order that decides first and last: arrival (processing order, default) or event time.' },
      window: windowingSchema('Window deduplication: keep one row per key and window, emitted when the window closes. Leave out for continuous deduplication.'),
    },
    required: ['key', 'keep'],
    additionalProperties: false,
  },
  defaults: { key: ['id'], keep: 'first' },
  example: { key: ['order_id'], keep: 'last', order: 'eventTime' },
  stateful: true,
  codeParams: [],
  lineage: ({ params, inputs, outputs }) => ({ out: fromView(outputs.out, windowedView(params.window, inputs.in?.[0], 'in')) }),
  infer: ({ params, inputs }) => {
    const w = params.window;
    const input = w && inputs.in ? windowedStream(w, inputs.in) : inputOf(inputs);
    const key = params.key ?? [];
    const order = params.order ?? (w ? 'eventTime' : 'arrival');
    const problems: InferProblem[] = missingFields(input, key, 'params.key');
    if (w && params.order === 'arrival') {
      problems.push({ field: 'params.order', message: 'window deduplication orders rows by event time (as Flink\'s); set order to "eventTime" or leave it out', code: 'bad-param-value' });
    }
    problems.push(...windowingProblems(w, inputs.in, 'params.window').filter((p) => p.code !== 'needs-append-only'));
    if (input.changelog !== 'append') {
      problems.push({ field: 'inputs.in', message: 'Deduplicate needs an insert-only input; this one carries updates or deletes', code: 'needs-append-only' });
    }
    // An unconnected input is reported on its own; only a connected one can lack event time.
    if (order === 'eventTime' && inputs.in && !input.eventTime) {
      problems.push({ field: 'params.order', message: 'ordering by event time needs an input with event time; set eventTime on the source or use order "arrival"', code: 'no-event-time' });
    }
    const appendOnly = Boolean(w) || (params.keep === 'first' && order === 'arrival');
    return {
      outputs: { out: { fields: input.fields, eventTime: input.eventTime, keyedBy: null, changelog: appendOnly ? 'append' : 'update', uniqueKey: w ? [...key, 'window_start', 'window_end'] : key } },
      problems,
    };
  },
};
