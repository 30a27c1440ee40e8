/**
 * ROW_NUMBER() (RANK(), DENSE_RANK()) OVER (PARTITION BY … ORDER BY …) AS rn, kept by a WHERE rn <= N (or < N, = 1):
 * Top-N, or deduplication when N is 1, the order is a time attribute and rn is not selected
 * (as Flink's planner decides). The WHERE may sit in the query around the ranking subquery, or —
 * leniently — in the ranking query itself.
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { altOf, childOf, childrenOf, find, findAll, keywordsOf, kids, unquote } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Rel } from './model.ts';
import { fail, quoteName } from './model.ts';
import type { Env } from './env.ts';
import { nodeId, scopeOf } from './env.ts';
import { callName, columnRef, resolveColumn } from './expr.ts';
import type { FromRel } from './select.ts';
import { filter, project, projectPending, selectItems } from './select.ts';
import { conjuncts } from './join.ts';
import type { RankFunction } from '../../../pipeline/kinds/topN.ts';

const WINDOW_COLS = ['window_start', 'window_end', 'window_time'];

export interface PendingRank {
  /** The ranked rows: the SELECT list without the rank column. */
  input: Rel;
  rankName: string;
  rankFunction: RankFunction;
  /** The function as written, for messages. */
  fnName: string;
  partitionBy: string[];
  orderBy: { field: string; direction: 'asc' | 'desc' }[];
  /** Ordered by the input's time attribute (or processing time): dedup is possible. */
  byTime: 'eventTime' | 'arrival' | null;
  /** ORDER BY proctime DESC: keep the last arrival. */
  procDesc: boolean;
  /** Columns ranked by but not selected: carried through the ranking, dropped after it. */
  hidden: string[];
  at: Tree;
}

const RANK_FUNCTIONS: Record<string, RankFunction> = { ROW_NUMBER: 'rowNumber', RANK: 'rank', DENSE_RANK: 'denseRank' };

/** The ROW_NUMBER(), RANK() or DENSE_RANK() item of a SELECT list, if any. */
export function rankItem(sel: Tree): Tree | null {
  for (const w of findAll(childOf(sel, 'selectClause')!, 'overWindowItem')) {
    if (Object.hasOwn(RANK_FUNCTIONS, callName(kids(w)[0]) ?? '')) return w;
  }
  return null;
}

export const rankFunctionOf = (fnName: string): RankFunction => RANK_FUNCTIONS[fnName];

/** Plans the ranked query up to the ranking; the outer WHERE decides N. */
export function pendingRank(sel: Tree, rel: Rel, cond: Tree | null, w: Tree, env: Env): FromRel {
  const spec = childOf(w, 'windowSpec')!;
  const all = selectItems(sel, rel, env);
  const rankAt = all.find((i) => i.expr === w)!;
  const others = all.filter((i) => i !== rankAt);
  let input = rel;
  // Conditions of the same WHERE that do not read the rank filter the rows before ranking.
  const rankConds: Tree[] = [];
  for (const c of cond ? conjuncts(cond) : []) {
    if (readsName(c, rankAt.name) && !rel.cols.some((x) => x.name === rankAt.name)) rankConds.push(c);
    else input = filter(input, c, env);
  }
  const scope = scopeOf(env, input);
  const resolve = (t: Tree) => {
    const ref = columnRef(t);
    if (!ref) fail(t, 'OVER (…)', 'PARTITION BY and ORDER BY take columns; compute expressions in a subquery first');
    return resolveColumn(scope, ref.qual, ref.name, t);
  };
  const part = childOf(spec, 'partitionByClause');
  const partitionCols = part ? childrenOf(part, 'columnName').map(resolve) : [];
  const order = childOf(spec, 'orderByClause');
  const fnName = callName(kids(w)[0])!;
  if (!order) fail(spec, `${fnName}() OVER (…)`, 'needs ORDER BY');
  if (find(spec, 'windowFrame') || keywordsOf(spec).includes('ROWS') || keywordsOf(spec).includes('RANGE')) fail(spec, 'OVER (… ROWS/RANGE …)', `a frame is not read for ${fnName}()`);
  const orderTrees = childrenOf(order, 'orderItemDefinition');
  const procRef = orderTrees.length === 1 ? columnRef(childOf(orderTrees[0], 'columnName') ?? kids(orderTrees[0])[0]) : null;
  const proc = !!procRef && input.procTime.includes(procRef.name);
  const orderItems = proc ? [] : orderTrees.map((o) => ({ col: resolve(childOf(o, 'columnName') ?? kids(o)[0]), desc: keywordsOf(o).includes('DESC'), at: o }));
  // The projection keeps every column the ranking reads; one the SELECT list leaves out is carried
  // through the ranking and dropped after it.
  const selected = new Set(others.map((o) => o.col?.field ?? (o.expr && columnRef(o.expr) ? resolveColumn(scope, columnRef(o.expr)!.qual, columnRef(o.expr)!.name, o.expr).field : null)));
  const names = new Set(others.map((o) => o.name));
  // Over a window table function the time attribute cuts the windows: carried if not selected.
  const timeCol = (input as FromRel).tvf ? input.cols.find((c) => c.field === input.eventTime) : undefined;
  const carried = [...partitionCols, ...orderItems.map((o) => o.col), ...(timeCol ? [timeCol] : [])].filter((c, i, all) => !selected.has(c.field) && all.findIndex((x) => x.field === c.field) === i && !['window_start', 'window_end', 'window_time'].includes(c.field));
  for (const c of carried) if (names.has(c.name)) fail(w, 'OVER (…)', `\`${c.name}\` is ranked by but the SELECT list names another column so; rename that one with AS`);
  const withCarried = [...others, ...carried.map((c) => ({ name: c.name, expr: null, col: c, at: w }))];
  const projected = (input as FromRel).tvf ? projectPending(input as FromRel, withCarried, env, sel) : project(input, withCarried, env, sel);
  const plainCols = (input as FromRel).tvf ? projected.cols.slice(0, -3) : projected.cols;
  // Over a window table function the window columns are always carried; those the SELECT list
  // leaves out go after the ranking too (Flink's result has only the columns selected).
  const unselectedWindow = (input as FromRel).tvf ? WINDOW_COLS.filter((w) => !selected.has(w)) : [];
  const hidden = [...(carried.length ? plainCols.slice(-carried.length).map((c) => c.field) : []), ...unselectedWindow];
  const toOut = (field: string, at: Tree): string => {
    const i = withCarried.findIndex((o) => (o.col?.field ?? (o.expr && columnRef(o.expr) ? resolveColumn(scope, columnRef(o.expr)!.qual, columnRef(o.expr)!.name, o.expr).field : null)) === field);
    if (i < 0) fail(at, 'OVER (…)', `\`${field}\` must be in the SELECT list of the ranking query`);
    if (!(input as FromRel).tvf) return projected.cols[i].field;
    // Over a window table function the window columns come last, after the projected others.
    if (WINDOW_COLS.includes(field)) return field;
    return plainCols[withCarried.slice(0, i).filter((o) => !WINDOW_COLS.includes(o.col?.field ?? (o.expr ? columnRef(o.expr)?.name ?? '' : ''))).length].field;
  };
  const byTime = proc ? 'arrival' : orderItems.length === 1 && orderItems[0].col.field === input.eventTime ? 'eventTime' : null;
  const pending: PendingRank = {
    input: projected,
    rankName: rankAt.name,
    rankFunction: rankFunctionOf(fnName),
    fnName,
    partitionBy: partitionCols.map((c) => toOut(c.field, part!)),
    orderBy: proc ? [] : orderItems.map((o) => ({ field: toOut(o.col.field, o.at), direction: o.desc ? 'desc' : 'asc' })),
    byTime,
    procDesc: proc && keywordsOf(orderTrees[0]).includes('DESC'),
    hidden,
    at: w,
  };
  if (rankConds.length) {
    // WHERE rn <= N in the ranking query itself.
    const done = planRank(pending, rankConds, true, env, sel);
    return done;
  }
  return { ...projected, cols: [...projected.cols, { field: rankAt.name, name: rankAt.name, quals: [], type: 'integer' }], rank: pending };
}

function readsName(t: Tree, name: string): boolean {
  const ref = columnRef(t);
  if (ref && !ref.qual && ref.name === name) return true;
  if (t.symbol) return unquote(t.symbol.text ?? '') === name && /^`/.test(t.symbol.text ?? '');
  return kids(t).some((k) => readsName(k, name));
}

/** What one condition on the rank keeps: `rn <= N`, `rn < N`, `rn = N`, `rn >= M`, `rn > M`, `N >= rn`, `rn BETWEEN M AND N`; null for any other. */
function rankBound(t: Tree, name: string): { lo?: number; hi?: number } | null {
  let x = t;
  while (kids(x).length === 1 && !kids(x)[0].symbol) x = kids(x)[0];
  const between = new RegExp(`^\`?${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`?BETWEEN(\\d+)AND(\\d+)$`, 'i').exec(x.getText());
  if (between) return { lo: Number(between[1]), hi: Number(between[2]) };
  if (altOf(x) !== 'Comparison') return null;
  const [a, op, b] = kids(x);
  const num = (v: Tree) => (/^\d+$/.test(v.getText()) ? Number(v.getText()) : null);
  const isRank = (v: Tree) => columnRef(v)?.name === name;
  // `N >= rn` reads as `rn <= N`.
  const flip: Record<string, string> = { '<=': '>=', '<': '>', '>=': '<=', '>': '<', '=': '=' };
  const [o, v] = isRank(a) && num(b) !== null ? [op.getText(), num(b)!] : isRank(b) && num(a) !== null ? [flip[op.getText()] ?? '', num(a)!] : ['', 0];
  switch (o) {
    case '<=': return { hi: v };
    case '<': return { hi: v - 1 };
    case '=': return { lo: v, hi: v };
    case '>=': return { lo: v };
    case '>': return { lo: v + 1 };
  }
  return null;
}

const RANK_FORMS = (name: string) => `the rank is kept with ${name} <= N, ${name} < N, ${name} = N, ${name} BETWEEN M AND N, or ${name} > M beside an upper bound`;

/** The rank range the conditions keep, Flink's rank range: [start, n]. */
function rankRangeOf(p: PendingRank, conds: Tree[]): { start: number; n: number } {
  let lo = 1;
  let hi: number | null = null;
  for (const c of conds) {
    const b = rankBound(c, p.rankName) ?? fail(c, `WHERE ${p.rankName}`, RANK_FORMS(p.rankName));
    if (b.lo !== undefined) lo = Math.max(lo, b.lo);
    if (b.hi !== undefined) hi = hi === null ? b.hi : Math.min(hi, b.hi);
  }
  if (hi === null || hi < 1) fail(p.at, `${p.fnName}() OVER (…)`, `keep the first rows with WHERE ${p.rankName} <= N around the ranking query (Top-N)`);
  if (lo > hi!) fail(conds[0], `WHERE ${p.rankName}`, `keeps no rank: ${p.rankName} from ${lo} to ${hi}`);
  return { start: lo, n: hi! };
}

/** Ranks below `start` kept out after the ranking (Flink's rank range starting above 1). */
function fromRank(rel: Rel, start: number, p: PendingRank, env: Env): Rel {
  if (start <= 1) return rel;
  const id = nodeId(env, 'rank_from');
  env.g.add({ id, kind: 'filter', params: { where: `${quoteName(p.rankName)} >= ${start}` }, inputs: [['in', rel.node]], at: p.at });
  return { ...rel, node: id };
}

/**
 * Window Top-N and window deduplication, as Flink's planner finds them: the ranking partitions by
 * window_start and window_end of a window table function, or of an input that carries them (a
 * window aggregate's output). The window columns leave the partition and become the windowing.
 */
function windowingOf(p: PendingRank): { window: Record<string, unknown>; partitionBy: string[] } | null {
  const input = p.input as FromRel;
  const byWindow = p.partitionBy.includes('window_start') && p.partitionBy.includes('window_end');
  if (input.tvf && !byWindow) fail(p.at, `${p.fnName}() OVER (PARTITION BY …)`, 'over a window table function, partition by window_start, window_end and then the keys (window Top-N)');
  const partitionBy = p.partitionBy.filter((f) => f !== 'window_start' && f !== 'window_end');
  if (input.tvf) return { window: { type: input.tvf.type, ...input.tvf.params }, partitionBy };
  if (byWindow && input.eventTime === 'window_time' && !input.updating) return { window: { type: 'columns' }, partitionBy };
  return null;
}

function planRank(p: PendingRank, conds: Tree[], rankSelected: boolean, env: Env, at: Tree): Rel {
  const ranked = rankNode(p, conds, rankSelected, env, at);
  if (!p.hidden.length) return ranked;
  const keep = ranked.cols.filter((c) => !p.hidden.includes(c.field));
  const id = nodeId(env, 'project');
  env.g.add({ id, kind: 'project', params: { fields: keep.map((c) => ({ name: c.field, expr: `\`${c.field}\`` })) }, inputs: [['in', ranked.node]], at: p.at });
  return { ...ranked, node: id, cols: keep, eventTime: ranked.eventTime && keep.some((c) => c.field === ranked.eventTime) ? ranked.eventTime : null };
}

function rankNode(p: PendingRank, conds: Tree[], rankSelected: boolean, env: Env, at: Tree): Rel {
  const w = windowingOf(p);
  if (w) return planWindowRank(p, conds, rankSelected, w, env);
  if (!conds.length) fail(p.at, `${p.fnName}() OVER (…)`, `keep the first rows with WHERE ${p.rankName} <= N around the ranking query (Top-N); Flink runs ${p.fnName}() only as Top-N in a streaming query`);
  const { start, n } = rankRangeOf(p, conds);
  if (n === 1 && p.byTime && !rankSelected && p.rankFunction === 'rowNumber') {
    const desc = p.orderBy[0]?.direction === 'desc' || p.procDesc;
    const id = nodeId(env, 'dedup');
    env.g.add({ id, kind: 'dedup', params: { key: p.partitionBy, keep: desc ? 'last' : 'first', order: p.byTime }, inputs: [['in', p.input.node]], at: p.at });
    return { ...p.input, node: id, updating: desc || p.byTime === 'eventTime', cols: p.input.cols };
  }
  if (!p.orderBy.length) fail(p.at, 'ORDER BY PROCTIME()', 'ordering by processing time keeps the first or last row only: WHERE rn = 1');
  const id = nodeId(env, 'top_n');
  env.g.add({ id, kind: 'topN', params: { partitionBy: p.partitionBy, orderBy: p.orderBy, n, ...rankFunctionParam(p), rankField: p.rankName }, inputs: [['in', p.input.node]], at: p.at });
  return fromRank({ ...p.input, node: id, updating: true, eventTime: null, cols: [...p.input.cols, { field: p.rankName, name: p.rankName, quals: [], type: 'integer' }] }, start, p, env);
}

function planWindowRank(p: PendingRank, conds: Tree[], rankSelected: boolean, w: { window: Record<string, unknown>; partitionBy: string[] }, env: Env): Rel {
  const { start, n } = rankRangeOf(p, conds);
  const input = { ...p.input, tvf: undefined } as Rel;
  const eventTime = w.window.type === 'columns' ? input.eventTime : 'window_time';
  if (n === 1 && p.byTime === 'eventTime' && !rankSelected && p.rankFunction === 'rowNumber') {
    const id = nodeId(env, 'dedup');
    env.g.add({ id, kind: 'dedup', params: { key: w.partitionBy, keep: p.orderBy[0]?.direction === 'desc' ? 'last' : 'first', window: w.window }, inputs: [['in', input.node]], at: p.at });
    return { ...input, node: id, eventTime, updating: false };
  }
  if (p.byTime === 'arrival') fail(p.at, 'ORDER BY PROCTIME()', 'a window ranks by event time or by columns, not by arrival');
  const id = nodeId(env, 'top_n');
  env.g.add({ id, kind: 'topN', params: { partitionBy: w.partitionBy, orderBy: p.orderBy, n, ...rankFunctionParam(p), rankField: p.rankName, window: w.window }, inputs: [['in', input.node]], at: p.at });
  return fromRank({ ...input, node: id, eventTime, updating: false, cols: [...input.cols, { field: p.rankName, name: p.rankName, quals: [], type: 'integer' }] }, start, p, env);
}

/**
 * The outer query of a ranking subquery: its WHERE's rank conditions pick N; the rest is returned
 * as `rest` for the caller to filter with. Without an outer query (cond null) the rank is unbounded.
 */
export function planRankFromOuter(r: FromRel, cond: Tree | null, env: Env, at: Tree): Rel & { rest?: Tree | null } {
  const p = r.rank!;
  const all = cond ? conjuncts(cond) : [];
  const mine = all.filter((c) => readsName(c, p.rankName));
  const rest = all.filter((c) => !mine.includes(c));
  const sel = at;
  const ownList = childOf(sel, 'selectClause') ? find(childOf(sel, 'selectClause')!, 'selectList') : null;
  const outerSelectsRank = !!ownList && (readsName(ownList, p.rankName) || /(^|,|\.)\*/.test(ownList.getText()));
  const planned = planRank(p, mine, outerSelectsRank, env, at);
  const quals = r.cols[0]?.quals ?? [];
  const withQuals = { ...planned, cols: planned.cols.map((c) => ({ ...c, quals })) };
  if (!rest.length) return { ...withQuals, rest: null };
  let out: Rel = withQuals;
  for (const c of rest) out = filter(out, c, env);
  return { ...out, rest: null };
}

/** ROW_NUMBER is the topN node's default, so only RANK and DENSE_RANK are written. */
const rankFunctionParam = (p: PendingRank): { rankFunction?: RankFunction } => (p.rankFunction === 'rowNumber' ? {} : { rankFunction: p.rankFunction });
