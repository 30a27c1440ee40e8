import type { KindSpec } from '../kindSpec.ts';
import { fieldList, inputOf, missingFields } from './common.ts';

export interface ViewSinkParams {
  /** Fields that identify a row; defaults to the upstream's unique key. */
  primaryKey?: string[];
}
export interface LogSinkParams {
  /** Lines the log keeps for display; the CLI writes all of them. */
  maxLines?: number;
}
export type CollectSinkParams = Record<string, never>;

const sinkOutputs = { outputs: {} };

export const viewSinkSpec: KindSpec<ViewSinkParams> = {
  kind: 'viewSink',
  group: 'sinks',
  title: 'Materialized view',
  icon: '▦',
  summary: 'A table kept up to date by applying the changelog by primary key.',
  semantics:
    'Applies each changelog row to a table keyed by `primaryKey` (default: the unique key the upstream declares): +I and +U upsert the row, -U and -D delete the row with that key. When `primaryKey` is not the upstream\'s unique key (say the upstream has none), one key\'s changes may belong to different input rows, so the view keeps every live row of a key in arrival order and shows the latest (as Flink\'s SinkUpsertMaterializer): -U/-D remove only their own row, and a retraction of a row it does not hold goes to the dead-letter output. Without any primary key the table is a multiset: +I/+U add one copy of the row and -U/-D remove one copy. The table can be queried by key (pull query) and its changelog subscribed to (push query).',
  inputs: [{ name: 'in', doc: 'An append-only or updating stream.' }],
  outputs: [],
  params: {
    type: 'object',
    properties: { primaryKey: fieldList('Primary key fields of the view.') },
    additionalProperties: false,
  },
  defaults: {},
  example: { primaryKey: ['store_id'] },
  stateful: true,
  infer: ({ params, inputs }) => {
    const input = inputOf(inputs);
    const problems = missingFields(input, params.primaryKey ?? [], 'params.primaryKey');
    if (params.primaryKey && input.changelog === 'update' && input.uniqueKey && input.uniqueKey.some((k) => !params.primaryKey!.includes(k))) {
      problems.push({
        field: 'params.primaryKey',
        message: `the upstream updates rows by (${input.uniqueKey.join(', ')}); a view keyed by (${params.primaryKey.join(', ')}) would merge different rows. Include every upstream key field.`,
        code: 'key-mismatch',
      });
    }
    return { ...sinkOutputs, problems };
  },
};

export const logSinkSpec: KindSpec<LogSinkParams> = {
  kind: 'logSink',
  group: 'sinks',
  title: 'Log',
  icon: '☰',
  summary: 'Prints every changelog row, like Flink\'s print connector.',
  semantics: 'Records each changelog row as a line `+I {…}`. The designer shows the last `maxLines`; the CLI writes all of them. The rows are also kept as a multiset table.',
  inputs: [{ name: 'in', doc: 'Any stream.' }],
  outputs: [],
  params: {
    type: 'object',
    properties: { maxLines: { type: 'integer', minimum: 1, maximum: 100000, description: 'Lines kept for display.' } },
    additionalProperties: false,
  },
  defaults: {},
  example: { maxLines: 200 },
  stateful: false,
  infer: () => sinkOutputs,
};

export const collectSinkSpec: KindSpec<CollectSinkParams> = {
  kind: 'collectSink',
  group: 'sinks',
  title: 'Collect',
  icon: '⧉',
  summary: 'Collects every changelog row, for tests and inspection.',
  semantics: 'Keeps every changelog row in arrival order and the resulting multiset table.',
  inputs: [{ name: 'in', doc: 'Any stream.' }],
  outputs: [],
  params: { type: 'object', properties: {}, additionalProperties: false },
  defaults: {},
  example: {},
  stateful: false,
  infer: () => sinkOutputs,
};
