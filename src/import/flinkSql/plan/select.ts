/**
 * Queries → nodes: WITH, UNION ALL, subqueries and tables in FROM, WHERE, the SELECT list
 * (`*`, `t.*`, aliases, expressions). Aggregation, joins and ROW_NUMBER() patterns have files of
 * their own. Each clause becomes one node; a SELECT list that passes its input through unchanged
 * adds none.
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { altOf, childOf, childrenOf, find, findAll, keywordsOf, kids, ruleOf, spanOf, textOf, unquote } from '../../../export/flinkSql/verify/parseTree.ts';
import { durationMs } from './settings.ts';
import type { Col, Rel } from './model.ts';
import { fail, requalify } from './model.ts';
import type { Env } from './env.ts';
import { nodeId, scopeOf } from './env.ts';
import { callArgs, callName, columnRef, resolveColumn, weirExpr } from './expr.ts';
import { exprType } from './exprForms.ts';
import { isAggregating, planAggregate } from './aggregate.ts';
import { planJoin, planWindowTvf } from './join.ts';
import { pendingRank, planRankFromOuter, rankItem } from './rank.ts';
import { pendingRankOverAggregate } from './rankAggregate.ts';
import { UNNAMED_OVER } from '../../../export/flinkSql/verify/overAlias.ts';
import { hasOverAggregates, planOver } from './over.ts';
import { liftedExpression } from './liftedText.ts';
import { udfStubs } from './udf.ts';
import { planWindowSemiJoins } from './windowSemiJoin.ts';
import { renamedColumns, unnamedCallOfUnknown } from './selectForms.ts';
import { planWhere } from './subquery.ts';
import { planScalarSelect, scalarSubqueries } from './scalarSubquery.ts';
import { carriedOrderKeys, orderCarry, planOrderLimit } from './orderLimit.ts';
import { combineSetOps, distinctRows, setOperandTypes } from './setOps.ts';
import { windowRows } from './windowRows.ts';
import type { SetLink } from './setOps.ts';
import { constantRows, planValues } from './values.ts';
import { pathName } from './tableNames.ts';

/** A relation plus what a FROM may leave for the SELECT above it to finish. */
export interface FromRel extends Rel {
  /** FROM TABLE(TUMBLE(…)): the window the GROUP BY must aggregate over. */
  tvf?: { type: string; params: Record<string, unknown>; at: Tree; partitionBy?: string[] };
  /** A subquery whose ROW_NUMBER() waits for the outer WHERE rn <= N. */
  rank?: import('./rank.ts').PendingRank;
}

export function planQuery(q: Tree, env: Env): FromRel {
  const ks = kids(q);
  const withClause = childOf(q, 'withClause');
  if (withClause) {
    const scope = new Map<string, () => Rel>();
    for (const item of childrenOf(withClause, 'withItem')) {
      const name = unquote(childOf(item, 'withItemName')!.getText());
      let planned: Rel | null = null;
      const body = childOf(item, 'queryStatement')!;
      scope.set(name, () => (planned ??= finish(planQuery(body, { ...env, base: name }), env, body)));
    }
    env.ctes.push(scope);
    try {
      return planQuery(childOf(q, 'queryStatement')!, env);
    } finally {
      env.ctes.pop();
    }
  }
  const order = childOf(q, 'orderByClause');
  const limit = childOf(q, 'limitClause');
  if (order || limit) {
    const carry = orderCarry(q, order);
    return planOrderLimit(q, order, limit, finish(planUnordered(q, carry ? { ...env, orderCarry: carry } : env), env, q), env);
  }
  return planUnordered(q, env);
}

/** A query without its ORDER BY / LIMIT. */
function planUnordered(q: Tree, env: Env): FromRel {
  const words = keywordsOf(q);
  if (setWord(q)) return planSetOp(q, env);
  const sel = childOf(q, 'selectStatement');
  if (sel) return planSelect(sel, env);
  // The grammar reads a SELECT without FROM as a bare select clause.
  if (childOf(q, 'selectClause')) return constantSelect(q, env);
  const inner = childOf(q, 'queryStatement');
  if (inner) return planQuery(inner, env);
  if (childOf(q, 'valuesCaluse') || find(q, 'valuesCaluse')) fail(q, 'VALUES', 'read inline rows as a FROM item: SELECT * FROM (VALUES (…), (…)) AS t(a, b)');
  fail(q, 'query', 'not a query the planner reads');
}

/** Makes a FROM relation a plain one: a pending window or rank cannot stand alone. */
export function finish(r: FromRel, env: Env, at: Tree): Rel {
  // Not read by a window operator: the window table function's rows themselves.
  if (r.tvf) return windowRows(r, env);
  if (r.rank) return planRankFromOuter(r, null, env, at);
  return r;
}

/** As finish, but a window table function stays pending: a view of one may be a side of a window join. */
export function keepPending(r: FromRel, env: Env, at: Tree): FromRel {
  return r.tvf && !r.rank ? r : finish(r, env, at);
}

const SET_WORDS = ['UNION', 'INTERSECT', 'EXCEPT'] as const;
const setWord = (t: Tree) => SET_WORDS.find((w) => keywordsOf(t).includes(w)) ?? null;

/** The operands and operators of a chain of set operators; a parenthesized operand is one operand. */
function setChain(t: Tree, operands: Tree[], links: SetLink[], top: boolean, env: Env): void {
  let op = setWord(t);
  if (!op || (!top && (childOf(t, 'orderByClause') || childOf(t, 'limitClause')))) {
    operands.push(t);
    return;
  }
  const [l, r] = childrenOf(t, 'queryStatement');
  setChain(l, operands, links, false, env);
  const word = kids(t).find((k) => k.symbol?.text?.toUpperCase() === op)!;
  // MINUS reaches the grammar as UNION (see prepass.ts).
  if (env.prep.minuses.has(word.symbol!.start)) op = 'EXCEPT';
  links.push({ op, all: keywordsOf(t).includes('ALL'), at: t });
  setChain(r, operands, links, false, env);
}

function planSetOp(q: Tree, env: Env): Rel {
  const operands: Tree[] = [];
  const links: SetLink[] = [];
  setChain(q, operands, links, true, env);
  // One kind of UNION throughout is one union node; any other chain is combined pair by pair, in
  // SQL's order (the grammar nests a chain to the right: a UNION ALL (b UNION c)).
  if (links.every((l) => l.op === 'UNION' && l.all === links[0].all)) return planUnion(q, env);
  // The grammar hangs an ORDER BY / LIMIT after the last operand on that operand; SQL orders the result.
  const last = operands.at(-1)!;
  const hoisted = childOf(last, 'selectStatement') && (childOf(last, 'orderByClause') || childOf(last, 'limitClause')) ? last : null;
  const planned = operands.map((t) => finish(t === hoisted ? planUnordered(t, { ...env, unionBranch: true }) : planQuery(t, { ...env, unionBranch: true }), env, t));
  planned.forEach((r, i) => {
    if (r.cols.length !== planned[0].cols.length) fail(operands[i], links[i - 1].op, `operand ${i + 1} has ${r.cols.length} columns, the first has ${planned[0].cols.length}; set operators need the same number of columns on each side`);
  });
  const types = setOperandTypes(planned, operands, (i) => links[Math.max(i - 1, 0)].op);
  const rels = planned.map((r) => ({ ...r, cols: r.cols.map((c, k) => ({ ...c, type: types[k] ?? c.type })) }));
  const out = combineSetOps(rels, links, env, (branches, distinct, at) => unionOf(branches, distinct, env, at));
  return hoisted ? planOrderLimit(hoisted, childOf(hoisted, 'orderByClause'), childOf(hoisted, 'limitClause'), out, env) : out;
}

function planUnion(q: Tree, env: Env): Rel {
  const words = keywordsOf(q);
  // UNION is UNION ALL then distinct rows; a chain reaches here with every link alike, so it is one union.
  const distinct = !words.includes('ALL');
  const branches: Rel[] = [];
  const trees: Tree[] = [];
  const flattens = (t: Tree) => {
    const w = keywordsOf(t);
    return w.includes('UNION') && (w.includes('ALL') || distinct) && !childOf(t, 'orderByClause') && !childOf(t, 'limitClause');
  };
  // The grammar hangs an ORDER BY / LIMIT after the last branch on that branch; SQL orders the union.
  let last = q;
  while (flattens(last)) last = childrenOf(last, 'queryStatement').at(-1)!;
  const hoisted = last !== q && childOf(last, 'selectStatement') && (childOf(last, 'orderByClause') || childOf(last, 'limitClause')) ? last : null;
  const collect = (t: Tree) => {
    if (flattens(t)) childrenOf(t, 'queryStatement').forEach(collect);
    else {
      trees.push(t);
      branches.push(finish(t === hoisted ? planUnordered(t, { ...env, unionBranch: true }) : planQuery(t, { ...env, unionBranch: true }), env, t));
    }
  };
  collect(q);
  const out = unionOf(branches, distinct, env, q, trees);
  return hoisted ? planOrderLimit(hoisted, childOf(hoisted, 'orderByClause'), childOf(hoisted, 'limitClause'), out, env) : out;
}

/** UNION ALL of the branches lined up by position under the first one's names, then distinct rows unless ALL. */
function unionOf(branches: Rel[], distinct: boolean, env: Env, q: Tree, trees: Tree[] = branches.map(() => q)): Rel {
  const used = new Set<string>();
  const names = branches[0].cols.map((c) => c.name);
  const op = distinct ? 'UNION' : 'UNION ALL';
  branches.forEach((b, i) => {
    if (b.cols.length !== names.length) fail(trees[i], op, `branch ${i + 1} has ${b.cols.length} columns, the first has ${names.length}; set operators need the same number of columns on each side`);
  });
  const types = setOperandTypes(branches, trees, () => op);
  const inputs = branches.map((b) => {
    // Branches line up by position; a branch whose fields are named otherwise is renamed to the first's names.
    const same = b.cols.every((c, j) => c.field === names[j]);
    // A relation read twice (v UNION ALL v) gets a second edge through a project of its own.
    if (same && !used.has(b.node)) {
      used.add(b.node);
      return b.node;
    }
    const id = nodeId(env, 'union_in');
    env.g.add({ id, kind: 'project', params: { fields: b.cols.map((c, j) => ({ name: names[j], expr: `\`${c.field}\`` })) }, inputs: [['in', b.node]], at: q });
    return id;
  });
  const id = nodeId(env, 'union');
  env.g.add({ id, kind: 'union', params: {}, inputs: inputs.map((n) => ['in', n]), at: q });
  const all: Rel = { node: id, cols: names.map((n, j) => ({ field: n, name: n, quals: [], type: types[j] })), eventTime: branches.every((b) => b.eventTime === branches[0].eventTime) ? branches[0].eventTime : null, procTime: [], updating: branches.some((b) => b.updating) };
  return distinct ? distinctRows(all, env, q) : all;
}

/**
 * The SELECT list over a window table function that waits for its operator: the window columns
 * stay (the operator adds them); the other columns, picked or reordered, are projected before it.
 * A list that computes expressions or leaves out the time attribute cannot feed a window operator
 * (it cuts the windows by that time): it reads the window table function's rows themselves.
 */
export function projectPending(rel: FromRel, items: { name: string; expr: Tree | null; col: Col | null; at: Tree }[], env: Env, at: Tree): FromRel {
  const windowCols = ['window_start', 'window_end', 'window_time'];
  const plain = items.filter((it) => !windowCols.includes(it.col?.field ?? (it.expr ? columnRef(it.expr)?.name ?? '' : '')));
  const scope = scopeOf(env, rel);
  const fieldOf = (it: (typeof items)[number]) => it.col?.field ?? (it.expr && columnRef(it.expr) ? resolveColumn(scope, columnRef(it.expr)!.qual, columnRef(it.expr)!.name, it.expr).field : null);
  const pendable = plain.every((it) => fieldOf(it) !== null) && (!rel.eventTime || plain.some((it) => fieldOf(it) === rel.eventTime));
  if (!pendable) return project(windowRows(rel, env), items, env, at);
  const base: Rel = { ...rel, cols: rel.cols.filter((c) => !windowCols.includes(c.field)) };
  const inner = project(base, plain, env, at);
  if (rel.eventTime && inner.eventTime !== rel.eventTime) fail(at, 'SELECT list', `keep the time attribute \`${rel.eventTime}\` in the SELECT list: the window is cut by it`);
  return { ...inner, cols: [...inner.cols, ...rel.cols.filter((c) => windowCols.includes(c.field))], tvf: rel.tvf };
}

/** One FROM item: a table, view or CTE (optionally FOR SYSTEM_TIME AS OF), a subquery, a window TVF, or a join. */
export function planFromItem(t: Tree, env: Env): FromRel {
  const rule = ruleOf(t);
  if (rule === 'fromClause') {
    const ks = kids(t).filter((k) => !k.symbol);
    return planFromItem(ks[0], env);
  }
  if (rule === 'tableExpression') {
    const sub = kids(t).filter((k) => ruleOf(k) === 'tableExpression');
    if (sub.length === 2) return planJoin(t, sub[0], sub[1], env);
    if (sub.length > 2) fail(t, 'FROM', 'write the joins one after another: a JOIN b ON … JOIN c ON …');
    const parts = kids(t).filter((k) => !k.symbol);
    if (parts.length !== 1) fail(t, 'FROM a, b', parts.length > 2 ? 'write the joins one after another: a JOIN b ON … JOIN c ON …' : 'a comma join needs its key equalities in WHERE');
    return planFromItem(parts[0], env);
  }
  if (rule === 'windowTVFClause') return planWindowTvf(t, env);
  if (rule === 'inlineDataValueClause') return planValues(childOf(t, 'valuesDefinition')!, env, childOf(t, 'tableAlias'));
  if (rule === 'tableReference') {
    const alias = childOf(t, 'tableAlias');
    const primary = childOf(t, 'tablePrimary')!;
    const aliasName = alias ? unquote(childrenOf(alias, 'identifier')[0].getText()) : null;
    const r = planFromItem(primary, env);
    const out = aliasName ? { ...requalify(r, aliasName), tvf: r.tvf, rank: r.rank } : r;
    const list = alias ? find(alias, 'identifierList') : null;
    return list ? renamedColumns(out, list, alias!) : out;
  }
  if (rule === 'tablePrimary') {
    const path = childOf(t, 'tablePath');
    if (path) {
      const name = pathName(path);
      if (find(t, 'systemTimePeriod') || keywordsOf(t).includes('SYSTEM_TIME')) fail(t, 'FOR SYSTEM_TIME AS OF', 'a temporal join reads a versioned table as the right side of a JOIN … ON');
      if (childOf(t, 'sqlHint') || find(t, 'sqlHint')) env.warn(t, `the hint on \`${name}\` is ignored`);
      return requalify(env.relation(name, path), name);
    }
    if (keywordsOf(t).includes('UNNEST') || keywordsOf(childOf(t, 'atomExpressionTable') ?? t).includes('UNNEST')) fail(t, 'UNNEST', 'expands a column of a table beside it: FROM t CROSS JOIN UNNEST(t.items) AS u (item), or LEFT JOIN UNNEST(…) AS u (item) ON TRUE; for constant rows on their own, use (VALUES (…), (…)) AS v (x)');
    if (keywordsOf(t).includes('LATERAL') || find(t, 'functionName')) fail(t, 'LATERAL TABLE', 'table functions are not supported; use a flatMap node with code');
    const atom = childOf(t, 'atomExpressionTable') ?? find(t, 'queryStatement');
    const q = atom && (ruleOf(atom) === 'queryStatement' ? atom : find(atom, 'queryStatement'));
    if (q) return planQuery(q, { ...env, unionBranch: false });
    const inner = kids(t).find((k) => !k.symbol);
    if (inner) return planFromItem(inner, env);
  }
  if (keywordsOf(t).includes('LATERAL') || /^LATERAL\b/i.test(t.getText())) fail(t, 'LATERAL TABLE', 'table functions are not supported; use a flatMap node with code');
  fail(t, 'FROM', 'not a FROM item the planner reads (tables, views, subqueries, joins, window table functions)');
}

/** The columns `*` stands for: a USING join lists its merged keys, not the sides' copies. */
const starCols = (rel: Rel): Col[] => rel.cols.filter((c) => !c.usingSide);

/** A SELECT item the grammar split in two, read again whole at its own offsets (liftedText.ts). */
function wholeItem(sel: Tree, item: Tree, env: Env): Tree {
  const l = { at: (item.start as { start: number }).start, end: (item.stop as { stop: number }).stop + 1 };
  return liftedExpression(env.sql, (sel.start as { start: number }).start, l) ?? fail(item, 'SELECT list', `could not read ${item.getText()} as one expression; name it with AS`);
}

/** The SELECT list as named expressions; `*` and `t.*` expand to the columns in scope. */
export function selectItems(sel: Tree, rel: Rel, env: Env): { name: string; expr: Tree | null; col: Col | null; at: Tree }[] {
  const list = find(childOf(sel, 'selectClause')!, 'selectList')!;
  const out: { name: string; expr: Tree | null; col: Col | null; at: Tree }[] = [];
  const items = childrenOf(list, 'columnProjectItem');
  if (!items.length && list.getText().trim() === '*') {
    for (const c of starCols(rel)) out.push({ name: c.name, expr: null, col: c, at: list });
    return uniqueNames(out);
  }
  if (kids(list).some((k) => k.symbol?.text === '*')) for (const c of starCols(rel)) out.push({ name: c.name, expr: null, col: c, at: list });
  items.forEach((item, i) => {
    const all = childOf(item, 'tableAllColumns');
    if (all && !findAll(all, 'identifier').length) {
      for (const c of starCols(rel)) out.push({ name: c.name, expr: null, col: c, at: all });
      return;
    }
    if (all) {
      const q = unquote(findAll(all, 'identifier')[0].getText());
      const cols = rel.cols.filter((c) => c.quals.includes(q));
      if (!cols.length) fail(all, `${q}.*`, `\`${q}\` is not a table or alias in FROM`);
      for (const c of cols) out.push({ name: c.name, expr: null, col: c, at: all });
      return;
    }
    if (item.getText() === '*') {
      for (const c of starCols(rel)) out.push({ name: c.name, expr: null, col: c, at: item });
      return;
    }
    const alias = find(item, 'columnAlias');
    const window = childOf(item, 'selectWindowItemColumnName');
    const expr = window ? find(window, 'overWindowItem')! : (childOf(item, 'selectExpressionColumnName') ?? childOf(item, 'selectLiteralColumnName'))!;
    let body = ruleOf(expr) === 'selectExpressionColumnName' || ruleOf(expr) === 'selectLiteralColumnName' ? kids(expr).find((k) => ruleOf(k) !== 'columnAlias' && !k.symbol)! : expr;
    // dt-sql-parser reads an unnamed `a - b` as the column `a` beside an expression `- b`: read the item whole.
    const split = !alias && ruleOf(expr) === 'selectLiteralColumnName' && !!childOf(item, 'expression');
    if (split) body = wholeItem(sel, item, env);
    let name: string | null = alias ? unquote(childOf(alias, 'identifier')!.getText()) : null;
    unnamedCallOfUnknown(item, alias, env);
    if (window && !name) {
      const ids = childrenOf(expr, 'identifier');
      name = ids.length ? unquote(ids[ids.length - 1].getText()) : null;
    }
    // An OVER item written without a name is named as Flink names it (see overAlias.ts).
    if (name === UNNAMED_OVER) name = `EXPR$${i}`;
    name ??= (split ? null : columnRef(body)?.name) ?? `EXPR$${i}`;
    out.push({ name, expr: body, col: null, at: item });
  });
  if (env.orderCarry?.sel === sel) out.push(...carriedOrderKeys(env.orderCarry.keys, out));
  return uniqueNames(out);
}

/**
 * A SELECT list gives each column one name: a repeated one takes the first free `name0`, `name1`, …
 * as Calcite's validator does, so `SELECT *` over a join whose sides share a column reads as in Flink.
 */
function uniqueNames<T extends { name: string }>(items: T[]): T[] {
  const used = new Set(items.map((it) => it.name));
  const seen = new Set<string>();
  return items.map((it) => {
    if (!seen.has(it.name)) {
      seen.add(it.name);
      return it;
    }
    let k = 0;
    while (used.has(`${it.name}${k}`)) k++;
    const name = `${it.name}${k}`;
    used.add(name);
    seen.add(name);
    return { ...it, name };
  });
}

/** A project node for the SELECT list, or nothing when it passes the input through. */
export function project(rel0: Rel, all0: { name: string; expr: Tree | null; col: Col | null; at: Tree }[], env: Env, at: Tree, render0?: (e: Tree) => string): Rel {
  const { rel, items: all } = udfStubs(rel0, all0, env);
  const render = render0 ?? ((e: Tree) => weirExpr(e, scopeOf(env, rel), 'SELECT list'));
  // `PROCTIME() AS pt` adds a processing-time attribute: an ordering (arrival), not a field.
  const procTime = all.filter((it) => it.expr && isProctime(it.expr)).map((it) => it.name);
  const items = all.filter((it) => !(it.expr && isProctime(it.expr)));
  const seen = new Set<string>();
  const fields = items.map((it) => {
    if (seen.has(it.name)) fail(it.at, 'SELECT list', `two columns are named \`${it.name}\`; give one another name with AS`);
    seen.add(it.name);
    return { name: it.name, expr: it.col ? `\`${it.col.field}\`` : render(it.expr!) };
  });
  const identity = fields.length === rel.cols.length && fields.every((f, i) => f.name === rel.cols[i].field && f.expr === `\`${rel.cols[i].field}\``);
  const types = items.map((it, i) => it.col?.type ?? (it.expr ? (rel.cols.find((c) => columnRef(it.expr!) && c.field === fields[items.indexOf(it)].expr.slice(1, -1))?.type ?? exprType(fields[i].expr, rel.cols)) : null));
  const collectionAt = (i: number) => items[i].col?.collection ?? (items[i].expr && columnRef(items[i].expr!) ? rel.cols.find((c) => `\`${c.field}\`` === fields[i].expr)?.collection : undefined);
  const cols: Col[] = fields.map((f, i) => {
    const collection = collectionAt(i);
    return { field: f.name, name: f.name, quals: [], type: types[i], ...(collection ? { collection } : {}) };
  });
  const timeField = fields.find((f) => rel.eventTime && f.expr === `\`${rel.eventTime}\``)?.name ?? null;
  if (identity) return { ...rel, cols, procTime };
  // A union lines records up by field name: a branch that only reorders its columns needs no node.
  const reorder = env.unionBranch && fields.length === rel.cols.length && fields.every((f) => f.expr === `\`${f.name}\`` && rel.cols.some((c) => c.field === f.name));
  if (reorder) return { ...rel, cols, procTime };
  if (env.annotation?.kind === 'map' && rel.cols.every((c, i) => fields[i]?.name === c.field)) {
    // Weir's export writes a map as a SELECT of every input column, some recomputed, then the new ones.
    const set = fields.filter((f, i) => i >= rel.cols.length || f.expr !== `\`${rel.cols[i].field}\``);
    const id = nodeId(env, 'map');
    env.g.add({ id, kind: 'map', params: { set }, inputs: [['in', rel.node]], at });
    return { node: id, cols, eventTime: rel.eventTime, procTime, updating: rel.updating };
  }
  const id = nodeId(env, 'project');
  env.g.add({ id, kind: 'project', params: { fields }, inputs: [['in', rel.node]], at });
  return { node: id, cols, eventTime: timeField, procTime, updating: rel.updating };
}

/** `PROCTIME()`. */
function isProctime(t: Tree): boolean {
  let x = t;
  while (kids(x).length === 1 && !kids(x)[0].symbol && altOf(x) !== 'FunctionCall') x = kids(x)[0];
  return callName(x) === 'PROCTIME' && callArgs(x).args.length === 0;
}

export function filter(rel: Rel, cond: Tree, env: Env, construct = 'WHERE', render = (e: Tree) => weirExpr(e, scopeOf(env, rel), construct)): Rel {
  const id = nodeId(env, construct === 'HAVING' ? 'having' : 'filter');
  env.g.add({ id, kind: 'filter', params: { where: render(cond) }, inputs: [['in', rel.node]], at: cond });
  return { ...rel, node: id };
}

/**
 * WHERE over a window table function: as Flink's planner pushes it below the window, the rows are
 * filtered before they are windowed. The window columns do not exist there yet.
 */
function filterBeforeWindow(rel: FromRel, cond: Tree, env: Env): FromRel {
  const windowCols = ['window_start', 'window_end', 'window_time'];
  const before: Rel = { ...rel, cols: rel.cols.filter((c) => !windowCols.includes(c.field)) };
  const named = windowCols.find((w) => new RegExp(`\\b${w}\\b`, 'i').test(textOf(env.sql, cond)) && !before.cols.some((c) => c.name === w));
  if (named) fail(cond, `WHERE … ${named}`, `the window columns exist only after the window operator: filter on ${named} in the query above it (SELECT … FROM (SELECT … GROUP BY window_start, window_end) WHERE …)`);
  return { ...filter(before, cond, env), cols: rel.cols, tvf: rel.tvf, rank: rel.rank };
}

export function planSelect(sel: Tree, env: Env): FromRel {
  const from = childOf(sel, 'fromClause');
  if (!from) return constantSelect(sel, env);
  const where = childOf(sel, 'whereClause');
  let cond: Tree | null = where ? kids(where).find((k) => !k.symbol)! : null;
  const top = kids(from).find((k) => ruleOf(k) === 'tableExpression');
  const sides = top ? kids(top).filter((k) => !k.symbol && ruleOf(k) !== 'joinCondition') : [];
  let rel: FromRel;
  // A hint is a comment to the grammar: `SELECT /*+ STATE_TTL('l' = '1 h', …) */` is read from the text.
  const hint = /^SELECT\s*\/\*\+\s*STATE_TTL\s*\(\s*'[^']*'\s*=\s*'([^']*)'/i.exec(textOf(env.sql, childOf(sel, 'selectClause')!));
  const fromEnv = hint ? { ...env, stateTtlMs: durationMs(hint[1]) } : env;
  if (top && sides.length === 2 && kids(top).some((k) => k.symbol?.text === ',')) {
    // FROM a, b WHERE …: the WHERE is the join's condition (keys, time bounds, the rest filters).
    rel = planJoin(top, sides[0], sides[1], fromEnv, cond);
    cond = null;
  } else rel = planFromItem(from, fromEnv);
  const items = childOf(sel, 'selectClause')!;
  if (rel.rank) {
    const done = planRankFromOuter(rel, cond, env, sel);
    rel = done;
    cond = (done as FromRel & { rest?: Tree | null }).rest ?? null;
  }
  if (rel.tvf && cond) {
    const semi = planWindowSemiJoins(rel, cond, env);
    if (semi) rel = semi.rest.reduce((r: FromRel, c) => filter(r, c, env), semi.rel as FromRel);
    else rel = filterBeforeWindow(rel, cond, env);
    cond = null;
  }
  if (scalarSubqueries(items).length && !rel.tvf && !rel.rank) return planScalarSelect(sel, cond ? planWhere(rel, cond, env) : rel, env);
  if (isAggregating(sel, env)) {
    if (cond) rel = planWhere(rel, cond, env);
    const ranked = rankItem(sel);
    return ranked ? pendingRankOverAggregate(sel, rel, ranked, env) : planAggregate(sel, rel, env);
  }
  const rankAt = rankItem(sel);
  if (hasOverAggregates(sel, env)) {
    if (rankAt) fail(rankAt, 'ROW_NUMBER() OVER (…)', 'rank in a query of its own, apart from the OVER aggregates');
    if (rel.tvf) finish(rel, env, sel);
    return planOver(sel, cond ? filter(rel, cond, env) : rel, env);
  }
  if (rankAt) return pendingRank(sel, rel, cond, rankAt, env);
  if (rel.tvf) {
    // SELECT … FROM TABLE(TUMBLE(…)) without GROUP BY: the windowed rows, for a window join, Top-N or dedup above.
    return projectPending(rel, selectItems(sel, rel, env), env, items);
  }
  if (cond) rel = planWhere(rel, cond, env);
  if (childOf(items, 'setQuantifier') && keywordsOf(childOf(items, 'setQuantifier')!).includes('DISTINCT')) return planAggregate(sel, rel, env);
  return project(rel, selectItems(sel, rel, env), env, items);
}

/** `SELECT 'a', 1 + 1`: one row of constants, as Flink's planner makes it a values source. */
function constantSelect(sel: Tree, env: Env): Rel {
  for (const clause of ['whereClause', 'groupByClause', 'havingClause']) {
    const at = childOf(sel, clause);
    if (at) fail(at, 'SELECT … without FROM', 'is one row of constants; filter or group it in a query around it: SELECT … FROM (SELECT …) WHERE …');
  }
  const items = selectItems(sel, { node: '', cols: [], eventTime: null, procTime: [], updating: false }, env);
  if (items.some((it) => !it.expr)) fail(sel, 'SELECT * without FROM', 'there are no columns to expand; name the constants');
  return constantRows([items.map((it) => it.expr!)], items.map((it) => it.name), null, sel, env, 'SELECT without FROM');
}

export const spanAt = spanOf;
export const altName = altOf;
