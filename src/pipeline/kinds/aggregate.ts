import type { KindSpec } from '../kindSpec.ts';
import type { FieldType, StreamInfo } from '../../core/streamInfo.ts';
import { aggregateCallSchema, aggregateOutputType, fieldList, inputOf, missingField, missingFields, pick } from './common.ts';
import type { AggregateCall, OverCall } from './aggregateCall.ts';
import type { InferProblem } from './common.ts';
import { aggregateDerivation, copyOf, fromView } from '../lineage/derive.ts';
import type { PortLineage } from '../lineage/types.ts';

export interface AggregateParams {
  groupBy: string[];
  aggregates: AggregateCall[];
  /** Flink's mini-batch: one change per group per input batch instead of one per record. */
  miniBatch?: boolean;
}

/** Output fields and problems shared by GROUP BY and window aggregates. */
export function aggregateColumns(input: StreamInfo, groupBy: string[], calls: readonly (AggregateCall | OverCall)[]): { fields: Record<string, FieldType> | null; problems: InferProblem[] } {
  const problems: InferProblem[] = [...missingFields(input, groupBy, 'params.groupBy')];
  const seen = new Set(groupBy);
  calls.forEach((c, i) => {
    problems.push(...missingField(input, c.field, `params.aggregates[${i}].field`));
    if (c.fn !== 'count' && c.fn !== 'udaf' && c.field === undefined) problems.push({ field: `params.aggregates[${i}].field`, message: `${c.fn} needs a field`, code: 'missing-param' });
    const t = c.field && input.fields ? input.fields[c.field] : undefined;
    if ((c.fn === 'sum' || c.fn === 'avg') && (t === 'string' || t === 'boolean' || t === 'timestamp')) problems.push({ field: `params.aggregates[${i}].field`, message: `${c.fn} needs a number, but "${c.field}" is a ${t}: declare it as number or integer in the source's schema, or use count, min or max`, code: 'bad-param-value' });
    if ((c.fn === 'listAgg' || c.fn === 'listAggDistinct') && t !== undefined && t !== 'string') problems.push({ field: `params.aggregates[${i}].field`, message: `listAgg joins strings, but "${c.field}" is a ${t}: cast it to a string in a map before (Flink's LISTAGG takes STRING only)`, code: 'bad-param-value' });
    if (c.separator !== undefined && c.fn !== 'listAgg' && c.fn !== 'listAggDistinct') problems.push({ field: `params.aggregates[${i}].separator`, message: `separator belongs to listAgg, not ${c.fn}; remove it or set fn to "listAgg"`, code: 'bad-param-value' });
    const collecting = c.fn === 'arrayAgg' || c.fn === 'jsonArrayAgg' || c.fn === 'jsonObjectAgg';
    if (c.fn === 'jsonObjectAgg') problems.push(...(c.keyField === undefined ? [{ field: `params.aggregates[${i}].keyField`, message: 'jsonObjectAgg needs keyField: the field that names each member', code: 'missing-param' as const }] : missingField(input, c.keyField, `params.aggregates[${i}].keyField`)));
    else if (c.keyField !== undefined) problems.push({ field: `params.aggregates[${i}].keyField`, message: `keyField belongs to jsonObjectAgg, not ${c.fn}; remove it`, code: 'bad-param-value' });
    if (!collecting && c.nulls !== undefined) problems.push({ field: `params.aggregates[${i}].nulls`, message: `nulls belongs to arrayAgg, jsonArrayAgg and jsonObjectAgg, not ${c.fn}; remove it (${c.fn} ignores NULLs as SQL does)`, code: 'bad-param-value' });
    if (c.jsonValues !== undefined && c.fn !== 'jsonArrayAgg' && c.fn !== 'jsonObjectAgg') problems.push({ field: `params.aggregates[${i}].jsonValues`, message: `jsonValues belongs to jsonArrayAgg and jsonObjectAgg, not ${c.fn}; remove it`, code: 'bad-param-value' });
    if (c.fn === 'udaf' && !c.code) problems.push({ field: `params.aggregates[${i}].code`, message: 'udaf needs code: ({ create, add, retract, get })', code: 'missing-param' });
    if (seen.has(c.as)) problems.push({ field: `params.aggregates[${i}].as`, message: `output column "${c.as}" is defined twice`, code: 'duplicate-column' });
    seen.add(c.as);
  });
  let fields: Record<string, FieldType> | null = null;
  if (input.fields) {
    fields = { ...pick(input.fields, groupBy) };
    for (const c of calls) fields[c.as] = aggregateOutputType(c.fn, c.field ? input.fields[c.field] : undefined) ?? 'json';
  }
  return { fields, problems };
}

/** Group keys are copied from the input; each aggregate is computed from its field. */
export function aggregateLineage(groupBy: string[], calls: AggregateCall[]): PortLineage {
  const own: PortLineage = {};
  for (const g of groupBy) own[g] = { ...copyOf('in', g), role: 'groupKey' };
  for (const c of calls) own[c.as] = aggregateDerivation(c);
  return own;
}

export const aggregateSpec: KindSpec<AggregateParams> = {
  kind: 'aggregate',
  group: 'keyed',
  title: 'Group by',
  icon: 'Σ',
  summary: 'GROUP BY with count, sum, avg, min, max, count distinct, first or last value, a list of values, or your own function; emits a changelog.',
  semantics:
    'Keeps one accumulator per group (the values of `groupBy`). Each +I/+U input adds to it and each -U/-D input retracts from it. After each input, if the group\'s result row changed, it emits +I for a new group, -U (old row) then +U (new row) for a changed one, and -D when the last row of a group is retracted. NULL inputs are ignored as in SQL; sum/avg/min/max of no values is NULL; avg is computed in floating point. firstValue / lastValue are Flink\'s FIRST_VALUE / LAST_VALUE: the first or last non-NULL value in arrival order (a retraction takes back the earliest copy of its value, as Flink\'s FirstValueWithRetractAggFunction), NULL when there is none. listAgg is Flink\'s LISTAGG: the non-NULL values in arrival order joined by `separator` (default `,`), NULL when there are none; a retraction takes back the earliest copy of its value, as Flink\'s ListAggWithRetractAggFunction. The output is an updating stream whose unique key is `groupBy`.',
  inputs: [{ name: 'in', doc: 'Any stream, append-only or updating.' }],
  outputs: [{ name: 'out', doc: 'Changelog of the result table, keyed by the group fields.' }],
  params: {
    type: 'object',
    properties: {
      groupBy: fieldList('GROUP BY fields (may be empty for a global aggregate).', 0),
      aggregates: { type: 'array', items: aggregateCallSchema, minItems: 1 },
      miniBatch: {
        type: 'boolean',
        description:
          "Flink's mini-batch (table.exec.mini-batch.enabled): fold all records of a group within one input batch and emit one change per group per batch instead of one per record. The final table is the same and the changelog stays consistent (each -U is the row last emitted); intermediate updates within a batch are not emitted. Default false.",
      },
    },
    required: ['groupBy', 'aggregates'],
    additionalProperties: false,
  },
  defaults: { groupBy: [], aggregates: [{ fn: 'count', as: 'cnt' }] },
  example: {
    groupBy: ['store_id'],
    aggregates: [
      { fn: 'count', as: 'transactions' },
      { fn: 'sum', field: 'amount', as: 'revenue' },
    ],
  },
  stateful: true,
  codeParams: [],
  lineage: ({ params, outputs }) => ({ out: fromView(outputs.out, {}, aggregateLineage(params.groupBy ?? [], params.aggregates ?? [])) }),
  infer: ({ params, inputs }) => {
    const input = inputOf(inputs);
    const { fields, problems } = aggregateColumns(input, params.groupBy ?? [], params.aggregates ?? []);
    return {
      outputs: { out: { fields, eventTime: null, keyedBy: null, changelog: 'update', uniqueKey: params.groupBy ?? [] } },
      problems,
    };
  },
};
