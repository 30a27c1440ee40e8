import type { KindSpec } from '../kindSpec.ts';
import type { FieldType } from '../../core/streamInfo.ts';
import { codeParam, inputOf, schemaParam } from './common.ts';
import { byUserCode } from '../lineage/derive.ts';

export interface FlatMapParams {
  code: string;
  outputSchema?: Record<string, FieldType>;
}

export const flatMapSpec: KindSpec<FlatMapParams> = {
  kind: 'flatMap',
  group: 'stateless',
  title: 'FlatMap',
  icon: '⋔',
  summary: 'Turns each record into zero, one or many records.',
  semantics:
    'Calls `code`, a JS/TS function `(row) => row[]`, for each record and emits every object in the returned array with the input\'s changelog kind and event time. Returning an empty array drops the record. A non-array result or a throw sends the record to the dead-letter output.',
  inputs: [{ name: 'in', doc: 'Any stream.' }],
  outputs: [{ name: 'out', doc: 'All records returned by the function.' }],
  params: {
    type: 'object',
    properties: { code: codeParam('JS/TS function `(row) => row[]`.'), outputSchema: schemaParam },
    required: ['code'],
    additionalProperties: false,
  },
  defaults: { code: '(row) => [row]' },
  example: { code: "(row) => String(row.items).split(',').map((item) => ({ order: row.order, item }))", outputSchema: { order: 'string', item: 'string' } },
  stateful: false,
  codeParams: ['code'],
  lineage: byUserCode,
  infer: ({ params, inputs }) => {
    const input = inputOf(inputs);
    return { outputs: { out: { ...input, fields: params.outputSchema ?? null, uniqueKey: null } } };
  },
};
