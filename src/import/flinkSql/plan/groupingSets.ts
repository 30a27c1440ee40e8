/**
 * GROUP BY GROUPING SETS (…), ROLLUP (…) and CUBE (…), as Flink plans them: the input is expanded,
 * one copy of each row per grouping set with NULL in the keys that set rolls up and the set's
 * grouping id beside them, and one aggregate groups by every key plus that id. Several items
 * combine as SQL says (GROUP BY x, ROLLUP (a, b) is the sets {x, a, b}, {x, a}, {x}). On an
 * updating input each copy retracts as its row does, so every set's totals stay right.
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { childOf, childrenOf, find, keywordsOf, kids, ruleOf } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Col, Rel } from './model.ts';
import { fail, quoteName } from './model.ts';
import type { Env } from './env.ts';
import { nodeId, scopeOf } from './env.ts';
import { callArgs, callName, columnRef, resolveColumn } from './expr.ts';
import type { FromRel } from './select.ts';

/** GROUP BY with a GROUPING SETS, ROLLUP or CUBE item. */
export const hasGroupingSets = (groupBy: Tree): boolean => childrenOf(groupBy, 'groupItemDefinition').some((i) => !!childOf(i, 'groupingSets') || !!childOf(i, 'groupingSetsNotationName'));

/** A key of a grouping set: a column (expressions are computed in a subquery first). */
function keyOf(t: Tree, rel: Rel, env: Env): Col {
  const ref = columnRef(t);
  if (!ref) fail(t, 'GROUPING SETS', 'group by columns here: compute an expression in a subquery first (SELECT …, expr AS k FROM …)');
  return resolveColumn(scopeOf(env, rel), ref.qual, ref.name, t);
}

/** Every subset of `keys`, the full set first (CUBE). */
const subsets = (keys: Col[]): Col[][] => keys.reduce<Col[][]>((acc, k) => acc.flatMap((s) => [[...s, k], s]), [[]]).sort((a, b) => b.length - a.length);

/** The grouping sets one GROUP BY item stands for. */
function setsOf(item: Tree, rel: Rel, env: Env): Col[][] {
  const exprs = (t: Tree) => kids(t).filter((k) => !k.symbol && ruleOf(k) !== 'groupingSetsNotationName' && ruleOf(k) !== 'groupingSets');
  const notation = childOf(item, 'groupingSetsNotationName');
  if (notation) {
    const keys = exprs(item).map((e) => keyOf(e, rel, env));
    if (keywordsOf(notation).includes('ROLLUP')) return keys.map((_, i) => keys.slice(0, keys.length - i)).concat([[]]);
    return subsets(keys);
  }
  if (childOf(item, 'groupingSets')) {
    // Each set is `(a, b)`, `a` or `()`; a nested ROLLUP/CUBE is its sets.
    return childrenOf(item, 'groupItemDefinition').flatMap((s) => (childOf(s, 'groupingSetsNotationName') ? setsOf(s, rel, env) : [exprs(s).map((e) => keyOf(e, rel, env))]));
  }
  if (childOf(item, 'groupWindowFunction') || find(item, 'functionCallExpression')) fail(item, 'GROUPING SETS', 'a window cannot be grouped with GROUPING SETS, ROLLUP or CUBE; aggregate the window first, then roll up its output in a query of its own');
  return [[keyOf(kids(item).find((k) => !k.symbol)!, rel, env)]];
}

/** The expanded input and the keys the aggregate groups by (the grouping id last). */
export interface Expanded {
  rel: Rel;
  keys: Col[];
  /** The grouping sets, each with its grouping id. */
  sets: { id: number; keys: Col[] }[];
  /** Over a window table function: the window columns grouped by (window_start, window_end). */
  windowCols: string[];
}

const WINDOW_COLS = ['window_start', 'window_end', 'window_time'];

/**
 * Over a window table function (GROUP BY window_start, window_end, GROUPING SETS (…)) the window
 * columns are not keys of any set: every set is cut by the same windows, which the window operator
 * after the expansion adds. The copies keep the event time, so each lands in its row's windows.
 */
export function expandGroupingSets(groupBy: Tree, from: FromRel, env: Env): Expanded {
  const windowItems = new Set<string>();
  let sets: Col[][] = [[]];
  for (const item of childrenOf(groupBy, 'groupItemDefinition')) {
    const plain = !childOf(item, 'groupingSets') && !childOf(item, 'groupingSetsNotationName') ? columnRef(kids(item).find((k) => !k.symbol) ?? item) : null;
    if (from.tvf && plain && WINDOW_COLS.includes(plain.name)) {
      windowItems.add(plain.name);
      continue;
    }
    const mine = setsOf(item, from, env);
    sets = sets.flatMap((s) => mine.map((m) => [...s, ...m.filter((c) => !s.includes(c))]));
  }
  const keys = [...new Set(sets.flat())];
  const keyOrder = (s: Col[]) => keys.filter((k) => s.includes(k));
  sets = sets.map(keyOrder);
  let gid = '_grouping_id';
  for (let i = 2; from.cols.some((c) => c.field === gid); i++) gid = `_grouping_id_${i}`;
  // Flink's grouping id: one bit per key, set when the grouping set rolls that key up.
  const idOf = (s: Col[]) => keys.reduce((acc, k) => acc * 2 + (s.includes(k) ? 0 : 1), 0);
  if (from.tvf && (!windowItems.has('window_start') || !windowItems.has('window_end'))) fail(groupBy, 'GROUP BY', `a ${from.tvf.type.toUpperCase()} window table function is aggregated with GROUP BY window_start, window_end, GROUPING SETS (…)`);
  const physical = from.tvf ? from.cols.filter((c) => !WINDOW_COLS.includes(c.field)) : from.cols;
  const copies = sets.map((s) => {
    const id = nodeId(env, 'grouping_set');
    const fields = [
      ...physical.map((c) => ({ name: c.field, expr: keys.includes(c) && !s.includes(c) ? nullOf(c) : quoteName(c.field) })),
      { name: gid, expr: String(idOf(s)) },
    ];
    env.g.add({ id, kind: 'project', params: { fields }, inputs: [['in', from.node]], at: groupBy });
    return id;
  });
  const union = nodeId(env, 'grouping_sets');
  env.g.add({ id: union, kind: 'union', params: {}, inputs: copies.map((c) => ['in', c]), at: groupBy });
  const idCol: Col = { field: gid, name: gid, quals: [], type: 'integer' };
  // Each copy keeps its row's time: over a window it must, and a plain aggregate has none after it.
  const eventTime = from.tvf ? from.eventTime : null;
  return { rel: { ...from, node: union, cols: [...from.cols, idCol], eventTime, procTime: [] }, keys: [...keys, idCol], sets: sets.map((k) => ({ id: idOf(k), keys: k })), windowCols: [...windowItems] };
}

/** A NULL of the column's type, so that every copy has the same fields and types. */
function nullOf(c: Col): string {
  const sql: Record<string, string> = { string: 'STRING', integer: 'BIGINT', number: 'DOUBLE', boolean: 'BOOLEAN', timestamp: 'TIMESTAMP(3)', date: 'DATE' };
  return c.type && sql[c.type] ? `CAST(NULL AS ${sql[c.type]})` : 'NULL';
}

/**
 * `GROUPING(a, …)` / `GROUPING_ID(a, …)` in the SELECT list or HAVING: per grouping set, one bit per
 * argument (the first the highest), set when the set rolls that key up; as a CASE of the grouping id.
 */
export function groupingCall(t: Tree, g: Expanded, env: Env): string | null {
  const name = callName(t);
  if (name !== 'GROUPING' && name !== 'GROUPING_ID') return null;
  const args = callArgs(t).args.map((a) => {
    const inner = kids(a).find((k) => !k.symbol) ?? a;
    const col = keyOf(inner, g.rel, env);
    if (!g.keys.includes(col)) fail(a, `${name}(…)`, `\`${col.name}\` is not a key of the grouping sets`);
    return col;
  });
  if (!args.length) fail(t, `${name}()`, 'name the keys: GROUPING(a) or GROUPING_ID(a, b)');
  const gid = quoteName(g.keys[g.keys.length - 1].field);
  const value = (set: Col[]) => args.reduce((acc, k) => acc * 2 + (set.includes(k) ? 0 : 1), 0);
  return `CASE ${g.sets.map((s) => `WHEN ${gid} = ${s.id} THEN ${value(s.keys)}`).join(' ')} END`;
}
