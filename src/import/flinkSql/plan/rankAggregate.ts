/**
 * ROW_NUMBER() (RANK(), DENSE_RANK()) OVER (…) in the same SELECT as a GROUP BY, as Flink's docs write window Top-N
 * after a window aggregate:
 *
 *   SELECT * FROM (
 *     SELECT window_start, window_end, supplier_id, SUM(price) AS price,
 *       ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY SUM(price) DESC) AS rownum
 *     FROM TABLE(TUMBLE(…)) GROUP BY window_start, window_end, supplier_id
 *   ) WHERE rownum <= 3
 *
 * SQL evaluates the OVER after the grouping, so the ranking reads the aggregated rows: group keys
 * and aggregate expressions. It is planned as the nested form: the aggregate (with whatever the
 * ranking reads that is not selected, carried as hidden columns), then the pending rank that the
 * outer WHERE bounds.
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { childOf, childrenOf, find, keywordsOf, kids, ruleOf } from '../../../export/flinkSql/verify/parseTree.ts';
import { fail } from './model.ts';
import type { Env } from './env.ts';
import { callName, columnRef } from './expr.ts';
import { normal, planAggregate } from './aggregate.ts';
import type { PendingRank } from './rank.ts';
import { rankFunctionOf } from './rank.ts';
import type { FromRel } from './select.ts';
import { selectItems } from './select.ts';

export function pendingRankOverAggregate(sel: Tree, rel: FromRel, w: Tree, env: Env): FromRel {
  const spec = childOf(w, 'windowSpec')!;
  const order = childOf(spec, 'orderByClause');
  const fnName = callName(kids(w)[0])!;
  if (!order) fail(spec, `${fnName}() OVER (…)`, 'needs ORDER BY');
  if (find(spec, 'windowFrame') || keywordsOf(spec).includes('ROWS') || keywordsOf(spec).includes('RANGE')) fail(spec, 'OVER (… ROWS/RANGE …)', `a frame is not read for ${fnName}()`);
  const all = selectItems(sel, rel, env);
  const rankName = all.find((i) => i.expr === w)!.name;
  const visible = all.filter((i) => i.expr !== w);
  const hidden: { name: string; expr: Tree }[] = [];
  const taken = new Set(all.map((i) => i.name));
  // A column the ranking reads: a selected item written the same way, else a hidden one.
  const output = (e: Tree): string => {
    const ref = columnRef(e);
    const text = normal(env.sql, e);
    const same = visible.find((it) => (it.expr ? normal(env.sql, it.expr) === text : !!ref && !ref.qual && it.col?.name === ref.name));
    if (same) return same.name;
    const known = hidden.find((h) => normal(env.sql, h.expr) === text);
    if (known) return known.name;
    let name = `_rank_by${hidden.length + 1}`;
    while (taken.has(name)) name = `_${name}`;
    taken.add(name);
    hidden.push({ name, expr: e });
    return name;
  };
  const part = childOf(spec, 'partitionByClause');
  const partitionBy = (part ? childrenOf(part, 'columnName') : []).map(output);
  const orderBy = childrenOf(order, 'orderItemDefinition').map((o) => {
    const e = kids(o).find((k) => !k.symbol && ruleOf(k) !== 'ordering')!;
    return { field: output(e), direction: keywordsOf(o).includes('DESC') ? ('desc' as const) : ('asc' as const) };
  });
  const input = planAggregate(sel, rel, env, { skip: w, hidden });
  const pending: PendingRank = {
    input,
    rankName,
    rankFunction: rankFunctionOf(fnName),
    fnName,
    partitionBy,
    orderBy,
    byTime: null,
    procDesc: false,
    hidden: hidden.map((h) => h.name),
    at: w,
  };
  return { ...input, cols: [...input.cols, { field: rankName, name: rankName, quals: [], type: 'integer' }], rank: pending };
}
