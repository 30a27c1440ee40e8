import type { KindSpec } from '../kindSpec.ts';
import { codeParam, exprParam, inputOf } from './common.ts';
import { exprProblems } from './exprCheck.ts';

export interface FilterParams {
  where?: string;
  code?: string;
}

export const filterSpec: KindSpec<FilterParams> = {
  kind: 'filter',
  group: 'stateless',
  title: 'Filter',
  icon: '⊘',
  summary: 'Keeps the records for which a condition holds; remembers nothing.',
  semantics:
    'For each record, evaluates `where` (a SQL expression; NULL counts as false) or calls `code` (a JS/TS function `(row) => boolean`). Kept records pass on unchanged with their changelog kind; the others are dropped. Stateless: the outcome for one record never depends on another.',
  inputs: [{ name: 'in', doc: 'Any stream.' }],
  outputs: [{ name: 'out', doc: 'The records that passed.' }],
  params: {
    type: 'object',
    properties: {
      where: exprParam('SQL condition, e.g. `amount > 100 AND status = \'PAID\'`.'),
      code: codeParam('JS/TS predicate `(row) => boolean`.'),
    },
    oneOf: [{ required: ['where'] }, { required: ['code'] }],
    additionalProperties: false,
  },
  defaults: { where: 'true' },
  example: { where: "amount > 100 AND status = 'PAID'" },
  stateful: false,
  codeParams: ['code'],
  infer: ({ params, inputs }) => {
    const input = inputOf(inputs);
    const out = input.changelog === 'update' ? { ...input, unpairedUpdates: true as const } : input;
    return { outputs: { out }, problems: params.where !== undefined ? exprProblems(params.where, input, 'params.where') : [] };
  },
};
