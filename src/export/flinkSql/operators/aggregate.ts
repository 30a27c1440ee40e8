/** GROUP BY aggregates, and the aggregate calls window aggregates share. */
import type { AggregateCall } from '../../../pipeline/kinds/aggregateCall.ts';
import type { AggregateParams } from '../../../pipeline/kinds/aggregate.ts';
import type { Relation } from '../context.ts';
import { ident, identList, str } from '../sqlText.ts';
import type { OperatorArgs, OperatorExport } from './shared.ts';
import { describe, needInput, view, paramsOf } from './shared.ts';
import { udafStub } from './userCode.ts';

/** One aggregate call as SQL. avg is computed in floating point in Weir, hence the CAST. */
export function aggregateCall(a: OperatorArgs, call: AggregateCall, input: Relation): string {
  const f = call.field === undefined ? null : ident(call.field);
  switch (call.fn) {
    case 'count':
      return `COUNT(${f ?? '*'})`;
    case 'sum':
      return `SUM(${f})`;
    case 'avg':
      return `AVG(CAST(${f} AS DOUBLE))`;
    case 'min':
      return `MIN(${f})`;
    case 'max':
      return `MAX(${f})`;
    case 'countDistinct':
      return `COUNT(DISTINCT ${f})`;
    case 'sumDistinct':
      return `SUM(DISTINCT ${f})`;
    case 'avgDistinct':
      return `AVG(DISTINCT CAST(${f} AS DOUBLE))`;
    case 'firstValue':
      return `FIRST_VALUE(${f})`;
    case 'lastValue':
      return `LAST_VALUE(${f})`;
    case 'listAgg':
    case 'listAggDistinct': {
      const d = call.fn === 'listAggDistinct' ? 'DISTINCT ' : '';
      return call.separator === undefined ? `LISTAGG(${d}${f})` : `LISTAGG(${d}${f}, ${str(call.separator)})`;
    }
    case 'arrayAgg':
      return `ARRAY_AGG(${f}${call.nulls === 'skip' ? ' IGNORE NULLS' : ''})`;
    case 'jsonArrayAgg':
      return `JSON_ARRAYAGG(${f}${call.nulls === 'keep' ? ' NULL ON NULL' : ''})`;
    case 'jsonObjectAgg':
      return `JSON_OBJECTAGG(KEY ${ident(call.keyField!)} VALUE ${f}${call.nulls === 'skip' ? ' ABSENT ON NULL' : ''})`;
    case 'udaf':
      // Without a field the Weir function receives the whole row: pass every column.
      return `${ident(udafStub(a, call, input))}(${f ?? identList(input.columns)})`;
  }
}

export const aggregateCalls = (a: OperatorArgs, calls: readonly AggregateCall[], input: Relation): string[] =>
  calls.map((c) => `${aggregateCall(a, c, input)} AS ${ident(c.as)}`);

export const aggregateExport: OperatorExport = (a) => {
  const p = paramsOf<AggregateParams>(a.node);
  const input = needInput(a);
  if (!input) return null;
  const items = [...p.groupBy.map(ident), ...aggregateCalls(a, p.aggregates, input)];
  let sql = `SELECT ${items.join(', ')}\nFROM ${ident(input.name)}`;
  if (p.groupBy.length) sql += `\nGROUP BY ${identList(p.groupBy)}`;
  const what = p.groupBy.length ? `GROUP BY ${p.groupBy.join(', ')}` : 'one global group';
  return [view(a.node.id, [`aggregate ${describe(a.node)}: ${what}; emits a changelog keyed by its groups`], sql)];
};
