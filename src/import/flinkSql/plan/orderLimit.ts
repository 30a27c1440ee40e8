/**
 * ORDER BY and LIMIT on a streaming query, as Flink's planner reads them:
 * - `ORDER BY c [DESC], … LIMIT n` is a global Top-N: Flink's Rank with no partition and no rank
 *   column in the output, an updating stream that always holds the first n rows by the order;
 * - `LIMIT n` alone keeps the first n rows that arrive (Flink's streaming limit): a Top-N over a
 *   constant order, where ties keep arrival order;
 * - `ORDER BY <time attribute> [ASC]` alone is accepted on an append-only stream: its rows already
 *   arrive in time order up to the watermark's delay, and a final table is a bag, so no node is
 *   planned (a warning says so). Any other ORDER BY without LIMIT has no streaming meaning.
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { childOf, childrenOf, keywordsOf, kids } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Rel } from './model.ts';
import { fail } from './model.ts';
import type { Env } from './env.ts';
import { nodeId } from './env.ts';
import { columnRef } from './expr.ts';

/** A field name the relation does not use yet. */
const fresh = (rel: Rel, base: string): string => {
  let name = base;
  for (let i = 2; rel.cols.some((c) => c.field === name || c.name === name); i++) name = `${base}_${i}`;
  return name;
};

/** The count of `LIMIT n`: a positive integer literal. */
function limitOf(limit: Tree, env: Env): number {
  const text = kids(limit).filter((k) => !k.symbol).map((k) => k.getText()).join('');
  if (!/^\d+$/.test(text) || Number(text) < 1) fail(limit, 'LIMIT', `expected LIMIT <positive whole number>, found LIMIT ${text || '?'}`);
  if (keywordsOf(limit).includes('ALL')) fail(limit, 'LIMIT ALL', 'drop LIMIT ALL: it keeps every row');
  void env;
  return Number(text);
}

/** Plans the query's ORDER BY / LIMIT over `rel`, the query planned without them. */
export function planOrderLimit(q: Tree, order: Tree | null, limit: Tree | null, rel: Rel, env: Env): Rel {
  const items = order ? childrenOf(order, 'orderItemDefinition') : [];
  const orderBy = items.map((o) => {
    const target = childOf(o, 'columnName') ?? kids(o)[0];
    const ref = columnRef(target);
    const col = ref ? rel.cols.find((c) => c.name === ref.name && (!ref.qual || c.quals.includes(ref.qual))) : null;
    if (!col) fail(o, 'ORDER BY', `order by a column of the SELECT list (${rel.cols.map((c) => c.name).join(', ')}); compute an expression there with AS and order by its name`);
    if (keywordsOf(o).includes('NULLS')) fail(o, 'ORDER BY … NULLS FIRST/LAST', 'Weir sorts NULL lowest (first ascending, last descending); drop NULLS FIRST/LAST');
    return { field: col.field, direction: keywordsOf(o).includes('DESC') ? ('desc' as const) : ('asc' as const) };
  });
  if (!limit) {
    const byTime = orderBy.length === 1 && orderBy[0].field === rel.eventTime && orderBy[0].direction === 'asc';
    if (!byTime || rel.updating) {
      fail(order, 'ORDER BY', `a streaming query is ordered only by its time attribute, ascending${rel.eventTime && !rel.updating ? ` (ORDER BY ${rel.cols.find((c) => c.field === rel.eventTime)?.name ?? rel.eventTime})` : ''}; keep the first rows with ORDER BY … LIMIT n (Top-N), or rank with ROW_NUMBER() OVER (PARTITION BY … ORDER BY …) and WHERE rn <= n`);
    }
    env.warn(order!, 'ORDER BY the time attribute: the rows already arrive in time order up to the watermark delay, and the final table is the same; no node is planned');
    return rel;
  }
  const n = limitOf(limit, env);
  let input = rel;
  let sort = orderBy;
  if (!sort.length) {
    // The first n arrivals: a constant order, whose ties the ranking keeps in arrival order.
    const arrival = fresh(rel, 'arrival_order');
    const id = nodeId(env, 'limit_order');
    env.g.add({ id, kind: 'project', params: { fields: [...rel.cols.map((c) => ({ name: c.field, expr: `\`${c.field}\`` })), { name: arrival, expr: '0' }] }, inputs: [['in', rel.node]], at: limit });
    input = { ...rel, node: id, cols: [...rel.cols, { field: arrival, name: arrival, quals: [], type: 'integer' }] };
    sort = [{ field: arrival, direction: 'asc' }];
  }
  const rankField = fresh(input, 'rownum');
  const top = nodeId(env, 'top_n');
  env.g.add({ id: top, kind: 'topN', params: { partitionBy: [], orderBy: sort, n, rankField }, inputs: [['in', input.node]], at: order ?? limit });
  // Flink's Rank under ORDER BY … LIMIT outputs the rows without their rank.
  const out = nodeId(env, 'project');
  env.g.add({ id: out, kind: 'project', params: { fields: rel.cols.map((c) => ({ name: c.field, expr: `\`${c.field}\`` })) }, inputs: [['in', top]], at: q });
  return { ...rel, node: out, eventTime: null, updating: true, procTime: [] };
}
