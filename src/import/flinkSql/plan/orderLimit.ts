/**
 * ORDER BY and LIMIT on a streaming query, as Flink's planner reads them:
 * - `ORDER BY c [DESC], … LIMIT n` is a global Top-N: Flink's Rank with no partition and no rank
 *   column in the output, an updating stream that always holds the first n rows by the order;
 * - `LIMIT n` alone keeps the first n rows that arrive (Flink's streaming limit): a Top-N over a
 *   constant order, where ties keep arrival order;
 * - `LIMIT n OFFSET m` / `OFFSET m ROWS FETCH NEXT n ROWS ONLY` (prepass.ts) ranks m + n rows and
 *   keeps ranks m + 1 … m + n, Flink's rank range;
 * - `ORDER BY <time attribute> [ASC]` alone is accepted on an append-only stream: its rows already
 *   arrive in time order up to the watermark's delay, and a final table is a bag, so no node is
 *   planned (a warning says so). Any other ORDER BY without LIMIT has no streaming meaning.
 * A key may be a column of the SELECT list by name or position (`ORDER BY 2`), or any column or
 * expression of the query's FROM (`ORDER BY ts`, `ORDER BY COUNT(*) DESC`): the SELECT list then
 * carries it as a hidden column that the rows lose after the ordering, as in Calcite's plan.
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { childOf, childrenOf, find, keywordsOf, kids, unquote } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Col, Rel } from './model.ts';
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

/** Hidden columns that carry ORDER BY keys through the SELECT list start so. */
const CARRIED = '__order_key_';
const isCarried = (c: Col) => c.field.startsWith(CARRIED);

/** The key an ORDER BY item orders by: a column name, a position, or an expression. */
const keyOf = (o: Tree): Tree => childOf(o, 'columnName') ?? kids(o)[0];
const ordinalOf = (key: Tree): number | null => (/^\d+$/.test(key.getText()) ? Number(key.getText()) : null);

/** The names a SELECT list outputs, read from its text; null when a `*` leaves them open. */
function outputNames(sel: Tree): Set<string> | null {
  const list = find(childOf(sel, 'selectClause')!, 'selectList');
  if (!list || /\*/.test(kids(list).filter((k) => k.symbol).map((k) => k.getText()).join('')) || childrenOf(list, 'columnProjectItem').some((i) => childOf(i, 'tableAllColumns') || i.getText() === '*')) return null;
  const names = new Set<string>();
  for (const item of childrenOf(list, 'columnProjectItem')) {
    const alias = find(item, 'columnAlias');
    const id = alias ? childOf(alias, 'identifier') : null;
    if (id) names.add(unquote(id.getText()));
    else {
      const ref = columnRef(kids(childOf(item, 'selectExpressionColumnName') ?? item).find((k) => !k.symbol) ?? item);
      if (ref) names.add(ref.name);
    }
  }
  return names;
}

/** The ORDER BY keys the query's SELECT list does not output, which it must carry; null if none. */
export function orderCarry(q: Tree, order: Tree | null): { sel: Tree; keys: Tree[] } | null {
  const sel = childOf(q, 'selectStatement');
  if (!order || !sel) return null;
  const names = outputNames(sel);
  const keys = childrenOf(order, 'orderItemDefinition').map(keyOf).filter((key) => {
    if (ordinalOf(key) !== null) return false;
    const ref = columnRef(key);
    return !ref || (names ? ref.qual !== null || !names.has(ref.name) : false);
  });
  if (!keys.length) return null;
  const quant = childOf(childOf(sel, 'selectClause')!, 'setQuantifier');
  if (quant && keywordsOf(quant).includes('DISTINCT')) fail(keys[0], 'ORDER BY', 'with SELECT DISTINCT, order by columns of the SELECT list: the distinct rows do not have other columns');
  return { sel, keys };
}

/** The SELECT list items that carry the keys, named apart from the list's own names. */
export function carriedOrderKeys(keys: readonly Tree[], items: readonly { name: string }[]): { name: string; expr: Tree; col: null; at: Tree }[] {
  const taken = new Set(items.map((i) => i.name));
  return keys.map((expr, i) => {
    let name = `${CARRIED}${i + 1}`;
    while (taken.has(name)) name += '_';
    return { name, expr, col: null, at: expr };
  });
}

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
  const visible = rel.cols.filter((c) => !isCarried(c));
  const carried = rel.cols.filter(isCarried);
  const carriedKeys = orderCarry(q, order)?.keys ?? [];
  const orderBy = items.map((o) => {
    const target = keyOf(o);
    const ref = columnRef(target);
    const ordinal = ordinalOf(target);
    if (ordinal !== null && (ordinal < 1 || ordinal > visible.length)) fail(o, `ORDER BY ${ordinal}`, `the SELECT list has ${visible.length} column${visible.length === 1 ? '' : 's'}; order by a position from 1 to ${visible.length}, or by a name`);
    const k = carriedKeys.indexOf(target);
    const col = ordinal !== null ? visible[ordinal - 1] : k >= 0 ? carried[k] : ref ? visible.find((c) => c.name === ref.name && (!ref.qual || c.quals.includes(ref.qual))) : null;
    if (!col) fail(o, 'ORDER BY', `order by a column of the SELECT list (${visible.map((c) => c.name).join(', ')}), by its position, or by a column of the tables the query reads`);
    if (keywordsOf(o).includes('NULLS')) fail(o, 'ORDER BY … NULLS FIRST/LAST', 'Weir sorts NULL lowest (first ascending, last descending); drop NULLS FIRST/LAST');
    return { field: col.field, direction: keywordsOf(o).includes('DESC') ? ('desc' as const) : ('asc' as const) };
  });
  if (!limit) {
    const byTime = orderBy.length === 1 && orderBy[0].field === rel.eventTime && orderBy[0].direction === 'asc';
    if (!byTime || rel.updating) {
      fail(order, 'ORDER BY', `a streaming query is ordered only by its time attribute, ascending${rel.eventTime && !rel.updating ? ` (ORDER BY ${rel.cols.find((c) => c.field === rel.eventTime)?.name ?? rel.eventTime})` : ''}; keep the first rows with ORDER BY … LIMIT n (Top-N), or rank with ROW_NUMBER() OVER (PARTITION BY … ORDER BY …) and WHERE rn <= n`);
    }
    env.warn(order!, 'ORDER BY the time attribute: the rows already arrive in time order up to the watermark delay, and the final table is the same; no node is planned');
    return carried.length ? dropCarried(rel, visible, env, q) : rel;
  }
  const fetch = limitOf(limit, env);
  const skip = env.prep.limitOffsets.get((limit as { start?: { start: number } }).start?.start ?? -1) ?? 0;
  const n = fetch + skip;
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
  let ranked = top;
  if (skip) {
    // OFFSET m: Flink's rank range starts at m + 1; the ranks before it are kept out.
    ranked = nodeId(env, 'offset');
    env.g.add({ id: ranked, kind: 'filter', params: { where: `\`${rankField}\` > ${skip}` }, inputs: [['in', top]], at: limit });
  }
  // Flink's Rank under ORDER BY … LIMIT outputs the rows without their rank (and the carried keys).
  return { ...dropCarried({ ...rel, node: ranked }, visible, env, q), eventTime: null, updating: true, procTime: [] };
}

/** A project to the visible columns. */
function dropCarried(rel: Rel, visible: Col[], env: Env, at: Tree): Rel {
  const out = nodeId(env, 'project');
  env.g.add({ id: out, kind: 'project', params: { fields: visible.map((c) => ({ name: c.field, expr: `\`${c.field}\`` })) }, inputs: [['in', rel.node]], at });
  return { ...rel, node: out, cols: visible, eventTime: visible.some((c) => c.field === rel.eventTime) ? rel.eventTime : null };
}
