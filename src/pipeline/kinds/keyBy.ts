import type { KindSpec } from '../kindSpec.ts';
import { fieldList, inputOf, missingFields } from './common.ts';

export interface KeyByParams {
  key: string[];
}

export const keyBySpec: KindSpec<KeyByParams> = {
  kind: 'keyBy',
  group: 'keyed',
  title: 'Key by',
  icon: '⚷',
  summary: 'Partitions the stream by key, so downstream state is per key.',
  semantics:
    'Passes records through unchanged and marks the stream as keyed by `key`. Operators downstream that keep keyed state (process functions, dedup) see one key at a time, and with parallelism the records of one key always reach the same subtask: the key is hashed into one of maxParallelism key groups, and each subtask owns a range of key groups.',
  inputs: [{ name: 'in', doc: 'Any stream.' }],
  outputs: [{ name: 'out', doc: 'The same records, keyed.' }],
  params: {
    type: 'object',
    properties: { key: fieldList('Fields that form the key.') },
    required: ['key'],
    additionalProperties: false,
  },
  defaults: { key: ['id'] },
  example: { key: ['customer_id'] },
  stateful: false,
  infer: ({ params, inputs }) => {
    const input = inputOf(inputs);
    return { outputs: { out: { ...input, keyedBy: params.key ?? null } }, problems: missingFields(input, params.key ?? [], 'params.key') };
  },
};
