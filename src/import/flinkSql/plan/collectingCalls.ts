/**
 * The arguments of Flink's collecting aggregates as dt-sql-parser reads them:
 * - `ARRAY_AGG(v [RESPECT | IGNORE NULLS])`: the grammar takes the NULLS clause for two more values;
 * - `JSON_ARRAYAGG(v [NULL | ABSENT ON NULL])`;
 * - `JSON_OBJECTAGG([KEY] k VALUE v [NULL | ABSENT ON NULL])`;
 * - `LISTAGG([DISTINCT] v [, separator])`.
 * A value written as a JSON_OBJECT or JSON_ARRAY call is JSON, nested as JSON, not as a string.
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { find, kids, ruleOf, textOf } from '../../../export/flinkSql/verify/parseTree.ts';
import type { AggregateCall } from '../../../pipeline/kinds/aggregateCall.ts';
import { fail } from './model.ts';
import type { Scope } from './expr.ts';
import { callArgs, callName, constantValue, weirExpr } from './expr.ts';
import { exprType } from './exprForms.ts';

export const COLLECTING: Readonly<Record<string, AggregateCall['fn']>> = { ARRAY_AGG: 'arrayAgg', JSON_ARRAYAGG: 'jsonArrayAgg', JSON_OBJECTAGG: 'jsonObjectAgg' };

export interface CollectingArgs {
  value: Tree;
  key: Tree | null;
  nulls?: 'keep' | 'skip';
  jsonValues: boolean;
}

const values = (params: Tree): Tree[] => kids(params).filter((k) => !k.symbol && ruleOf(k) !== 'uid');

/** The innermost tree of a one-child chain: the call under an expression's wrappers. */
function core(t: Tree): Tree {
  let x = t;
  while (kids(x).length === 1 && !kids(x)[0].symbol && ruleOf(x) !== 'functionCallExpression') x = kids(x)[0];
  return x;
}

export function collectingArgs(c: Tree, fn: string, sql: string): CollectingArgs {
  const text = textOf(sql, c).replace(/\s+/g, ' ');
  const { distinct, star } = callArgs(c);
  if (star) fail(c, `${fn}(*)`, 'only COUNT takes *');
  if (distinct) fail(c, `${fn}(DISTINCT …)`, `not supported; the nearest supported form is ${fn} over a SELECT DISTINCT subquery`);
  if (/\bORDER\s+BY\b/i.test(text)) fail(c, `${fn}(… ORDER BY …)`, 'Flink does not order the values of an aggregate; the values come in arrival order');
  const nullWord = /\b(NULL|ABSENT)\s+ON\s+NULL\s*\)$/i.exec(text)?.[1]?.toUpperCase() ?? null;
  const respect = /\b(RESPECT|IGNORE)\s+NULLS\s*\)$/i.exec(text)?.[1]?.toUpperCase() ?? null;
  let value: Tree;
  let key: Tree | null = null;
  if (fn === 'JSON_OBJECTAGG') {
    const params = find(c, 'jsonObjectParams');
    const parts = params ? values(params) : [];
    if (parts.length < 2) fail(c, 'JSON_OBJECTAGG(…)', 'takes JSON_OBJECTAGG(KEY key VALUE value [NULL | ABSENT ON NULL])');
    [key, value] = parts;
  } else {
    const params = find(c, 'jsonArrayParams');
    const parts = params ? values(params) : callArgs(c).args;
    // ARRAY_AGG(v IGNORE NULLS) parses as three values, the last two the clause's words.
    const count = respect ? parts.length - 2 : parts.length;
    if (count !== 1) fail(c, `${fn}(…)`, fn === 'ARRAY_AGG' ? 'takes ARRAY_AGG(value [RESPECT NULLS | IGNORE NULLS])' : 'takes JSON_ARRAYAGG(value [NULL | ABSENT ON NULL])');
    value = parts[0];
  }
  if (fn === 'ARRAY_AGG' && nullWord) fail(c, 'ARRAY_AGG(… ON NULL)', 'ARRAY_AGG takes RESPECT NULLS or IGNORE NULLS');
  if (fn !== 'ARRAY_AGG' && respect) fail(c, `${fn}(… ${respect} NULLS)`, `${fn} takes NULL ON NULL or ABSENT ON NULL`);
  const nulls = respect ? (respect === 'IGNORE' ? 'skip' : 'keep') : nullWord ? (nullWord === 'ABSENT' ? 'skip' : 'keep') : undefined;
  const inner = callName(core(value));
  const jsonValues = fn !== 'ARRAY_AGG' && (inner === 'JSON_OBJECT' || inner === 'JSON_ARRAY');
  return { value, key, ...(nulls ? { nulls } : {}), jsonValues };
}

/**
 * LISTAGG(value [, separator]) as Flink types it: the value is text (Flink refuses LISTAGG of a
 * number), the separator a text constant, ',' when left out (then not written into the call).
 */
export function listAggArgs(c: Tree, args: Tree[], star: boolean, scope: Scope, windowType: string | null): { args: Tree[]; separator?: string } {
  if (star || args.length < 1 || args.length > 2) fail(c, 'LISTAGG(…)', "takes LISTAGG(value [, separator]), the separator a text constant such as ', '");
  // Merging two sessions would lose the arrival order the list keeps.
  if (windowType === 'session') fail(c, 'LISTAGG(…) in a SESSION window', 'not supported: merging sessions loses the arrival order of the values; the nearest supported form is a TUMBLE, HOP or CUMULATE window, or LISTAGG in a GROUP BY over the session window\'s rows');
  const value = kids(args[0]).find((k) => !k.symbol) ?? args[0];
  const type = exprType(weirExpr(value, scope, 'LISTAGG(…)'), scope.cols);
  if (type && type !== 'string' && type !== 'json') fail(value, 'LISTAGG(…)', `LISTAGG joins text, and \`${textOf(scope.sql, value)}\` is ${type === 'integer' ? 'an integer' : `a ${type}`}: write LISTAGG(CAST(${textOf(scope.sql, value)} AS STRING))`);
  if (!args[1]) return { args: [args[0]] };
  const sep = constantValue(args[1], scope, 'LISTAGG(…, separator)');
  if (typeof sep !== 'string') fail(args[1], 'LISTAGG(…, separator)', `the separator is a text constant such as ', ', found ${textOf(scope.sql, args[1])}`);
  return sep === ',' ? { args: [args[0]] } : { args: [args[0]], separator: sep };
}
