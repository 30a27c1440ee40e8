import type { KindSpec } from '../kindSpec.ts';
import type { FieldType } from '../../core/streamInfo.ts';
import { FIELD_TYPES } from '../../core/streamInfo.ts';
import { exprParam, inputOf } from './common.ts';
import { exprProblems } from './exprCheck.ts';
import { exprDerivation, fromView, windowedView } from '../lineage/derive.ts';

export interface UnnestParams {
  /** The collection to expand: an array (one row per element) or a map object (one row per entry: key, value). */
  expr: string;
  /** The new columns, in order: one per element for scalars, one per field of a row element, key and value for a map. */
  as: string[];
  /** An element that is a row (an object): the fields `as` names, in the same order. Without it, the row's own field order. */
  elementFields?: string[];
  /** The type of each new column (default json). */
  types?: FieldType[];
  /** LEFT JOIN UNNEST(…) ON TRUE: a record whose collection is NULL or empty is kept once, the new columns NULL. */
  outer?: boolean;
}

export const unnestSpec: KindSpec<UnnestParams> = {
  kind: 'unnest',
  group: 'stateless',
  title: 'Unnest',
  icon: '⋮',
  summary: 'One record per element of an array or entry of a map, as CROSS JOIN UNNEST.',
  semantics:
    'For each record, evaluates `expr` (a SQL expression, usually a json field holding an array or a map) and emits one record per element: the input fields, then the columns named in `as`. A scalar element fills the one column; a row element (an object) fills the columns from its fields (`elementFields`, else its own field order) and an array element by position; a map gives one record per entry with its key and value. A NULL or empty collection gives no record, or with `outer` one record whose new columns are NULL (LEFT JOIN UNNEST … ON TRUE). Anything else (text, a number, an element that does not fit the columns) sends the record to the dead-letter output. The changelog kind and event time pass through, so a retraction retracts every record its row gave.',
  inputs: [{ name: 'in', doc: 'Any stream.' }],
  outputs: [{ name: 'out', doc: 'One record per element.' }],
  params: {
    type: 'object',
    properties: {
      expr: exprParam('The array or map to expand, e.g. `tags` (a json field holding an array).'),
      as: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, uniqueItems: true, description: 'Names of the new columns.' },
      elementFields: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, description: 'For an array of rows: the element fields that fill the new columns, in order.' },
      types: { type: 'array', items: { enum: FIELD_TYPES }, description: 'Type of each new column (default json).' },
      outer: { type: 'boolean', description: 'Keep records whose collection is NULL or empty, with NULL columns (LEFT JOIN … ON TRUE).' },
    },
    required: ['expr', 'as'],
    additionalProperties: false,
  },
  defaults: { expr: 'tags', as: ['tag'] },
  example: { expr: 'items', as: ['sku', 'qty'], elementFields: ['sku', 'qty'], types: ['string', 'integer'] },
  stateful: false,
  lineage: ({ params, inputs, outputs }) => {
    const d = exprDerivation(params.expr ?? '');
    const own = Object.fromEntries((params.as ?? []).map((n) => [n, { how: 'expr' as const, from: d.from, expr: `UNNEST(${d.how === 'copy' ? d.from[0]?.column ?? '' : d.expr ?? ''})` }]));
    return { out: fromView(outputs.out, windowedView(undefined, inputs.in?.[0], 'in'), own) };
  },
  infer: ({ params, inputs }) => {
    const input = inputOf(inputs);
    const as = params.as ?? [];
    const problems = [...exprProblems(params.expr ?? '', input, 'params.expr')];
    as.forEach((n, i) => {
      if (input.fields && n in input.fields) problems.push({ field: `params.as[${i}]`, message: `"${n}" is already a field of the input; give the new column another name`, code: 'duplicate-field' });
    });
    if (params.types && params.types.length !== as.length) problems.push({ field: 'params.types', message: `${params.types.length} types for ${as.length} columns; give one type per column in \`as\``, code: 'arity' });
    if (params.elementFields && params.elementFields.length !== as.length) problems.push({ field: 'params.elementFields', message: `${params.elementFields.length} element fields for ${as.length} columns; name one element field per column in \`as\``, code: 'arity' });
    const added = Object.fromEntries(as.map((n, i) => [n, params.types?.[i] ?? 'json']));
    return {
      outputs: { out: { ...input, fields: input.fields ? { ...input.fields, ...added } : null, uniqueKey: null } },
      problems,
    };
  },
};
