/**
 * Subqueries in WHERE, as Flink's planner rewrites them: `x IN (SELECT k …)` and `EXISTS (SELECT …
 * WHERE inner.k = outer.k …)` become a semi join, `NOT IN` a null-aware anti join and `NOT EXISTS`
 * an anti join (the semiJoin kind). Each is a conjunct of WHERE; the other conjuncts stay one filter.
 * Correlation is read from the subquery's WHERE: `inner = outer` equalities are the join key, other
 * conditions that read the outer row are the join's residual condition.
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { altOf, childOf, find, findAll, keywordsOf, kids, ruleOf, unquote, isQuoted } from '../../../export/flinkSql/verify/parseTree.ts';
import { renameRight } from '../../../pipeline/kinds/joinColumns.ts';
import { compileExpr } from '../../../expr/index.ts';
import type { Col, Rel } from './model.ts';
import { fail, quoteName } from './model.ts';
import type { Env } from './env.ts';
import { nodeId, scopeOf } from './env.ts';
import { columnRef, weirExpr } from './expr.ts';
import { conjuncts } from './join.ts';
import { isAggregating } from './aggregate.ts';
import { filter, finish, planFromItem, planQuery } from './select.ts';
import { planScalarConjuncts, scalarSubqueries } from './scalarSubquery.ts';
import { pathName } from './tableNames.ts';

export const NEAREST = 'the nearest supported forms are x [NOT] IN (SELECT k FROM …) and [NOT] EXISTS (SELECT … FROM … WHERE inner.k = outer.k [AND …]) as conjuncts of WHERE';

export interface SubqueryPredicate {
  query: Tree;
  exists: boolean;
  negated: boolean;
  /** The value before IN. */
  lhs: Tree | null;
  at: Tree;
}

/** Strips wrappers that leave the meaning alone: one-child rules and parentheses. */
function unwrap(t: Tree): Tree {
  let x = t;
  for (;;) {
    const ks = kids(x).filter((k) => !k.symbol);
    if (altOf(x) === 'ParenthesizedExpression' && ks.length === 1) x = ks[0];
    else if (kids(x).length === 1 && !kids(x)[0].symbol) x = kids(x)[0];
    else return x;
  }
}

/** `[NOT] EXISTS (…)`, `x [NOT] IN (SELECT …)` or NOT of either; null for anything else. */
export function subqueryPredicate(t: Tree): SubqueryPredicate | null {
  let x = unwrap(t);
  let negated = false;
  while (altOf(x) === 'LogicalNot') {
    negated = !negated;
    x = unwrap(kids(x).find((k) => !k.symbol)!);
  }
  if (altOf(x) === 'Exists') return { query: childOf(x, 'queryStatement')!, exists: true, negated, lhs: null, at: t };
  if (altOf(x) === 'Predicated') {
    const pred = childOf(x, 'predicate');
    const q = pred ? childOf(pred, 'queryStatement') : null;
    const kw = pred ? keywordsOf(pred) : [];
    if (q && kw.includes('IN')) return { query: q, exists: false, negated: negated !== kw.includes('NOT'), lhs: kids(x)[0], at: t };
  }
  return null;
}

/** Column references in an expression, outside nested subqueries. */
export function columnRefs(t: Tree, out: { qual: string | null; name: string; at: Tree }[] = []): { qual: string | null; name: string; at: Tree }[] {
  if (ruleOf(t) === 'queryStatement') return out;
  if (t.symbol) {
    if (isQuoted(t.symbol.text ?? '')) out.push({ qual: null, name: unquote(t.symbol.text!), at: t });
    return out;
  }
  if (altOf(t) === 'ColumnReference') {
    const ref = columnRef(t);
    if (ref) out.push(ref);
    return out;
  }
  for (const k of kids(t)) columnRefs(k, out);
  return out;
}

export const hits = (cols: Col[], ref: { qual: string | null; name: string }): Col[] => cols.filter((c) => c.name === ref.name && (ref.qual === null || c.quals.includes(ref.qual)));

/** Resolves a name the way SQL does in a subquery: its own FROM first, then the outer query. */
export function sideOf(inner: Rel, outer: Rel, ref: { qual: string | null; name: string; at: Tree }): { side: 'inner' | 'outer'; col: Col } {
  const i = hits(inner.cols, ref);
  if (i.length === 1) return { side: 'inner', col: i[0] };
  if (i.length > 1) fail(ref.at, `column ${ref.qual ? `${ref.qual}.` : ''}${ref.name}`, 'is ambiguous in the subquery; qualify it');
  const o = hits(outer.cols, ref);
  if (o.length === 1) return { side: 'outer', col: o[0] };
  if (o.length > 1) fail(ref.at, `column ${ref.qual ? `${ref.qual}.` : ''}${ref.name}`, 'is ambiguous in the outer query; qualify it');
  fail(ref.at, `column ${ref.qual ? `${ref.qual}.` : ''}${ref.name}`, `not found in the subquery (${inner.cols.map((c) => c.name).join(', ')}) nor in the query around it (${outer.cols.map((c) => c.name).join(', ')})`);
}

/**
 * `a = b` (or the null-safe `a IS NOT DISTINCT FROM b`) with one side a column of the subquery and
 * the other of the outer query: the key pair.
 */
export function correlationPair(t: Tree, inner: Rel, outer: Rel): { outer: Col; inner: Col; nullSafe: boolean } | null {
  const x = unwrap(t);
  let a: Tree;
  let b: Tree;
  let nullSafe = false;
  if (altOf(x) === 'Comparison') {
    const [l, op, r] = kids(x);
    if (op.getText() !== '=') return null;
    [a, b] = [l, r];
  } else {
    const pred = altOf(x) === 'Predicated' ? childOf(x, 'predicate') : null;
    const kw = pred ? keywordsOf(pred) : [];
    if (!pred || !['IS', 'NOT', 'DISTINCT', 'FROM'].every((w) => kw.includes(w))) return null;
    [a, b] = [kids(x)[0], kids(pred).filter((k) => !k.symbol)[0]];
    nullSafe = true;
  }
  const ra = columnRef(a);
  const rb = columnRef(b);
  if (!ra || !rb) return null;
  const sa = sideOf(inner, outer, ra);
  const sb = sideOf(inner, outer, rb);
  if (sa.side === sb.side) return null;
  return sa.side === 'outer' ? { outer: sa.col, inner: sb.col, nullSafe } : { outer: sb.col, inner: sa.col, nullSafe };
}

/** Table names and aliases a subquery introduces, for telling its own qualifiers from the outer query's. */
function ownQualifiers(q: Tree): Set<string> {
  const out = new Set<string>();
  for (const p of findAll(q, 'tablePath')) out.add(pathName(p));
  for (const a of findAll(q, 'tableAlias')) out.add(unquote(find(a, 'identifier')!.getText()));
  for (const w of findAll(q, 'withItemName')) out.add(unquote(w.getText()));
  return out;
}

/** WHERE with subquery conjuncts: one filter for the plain conjuncts, then one semi/anti join per subquery. */
export function planWhere(rel: Rel, cond: Tree, env: Env): Rel {
  if (!find(cond, 'queryStatement')) return filter(rel, cond, env);
  const plain: Tree[] = [];
  const scalar: Tree[] = [];
  const subs: SubqueryPredicate[] = [];
  for (const c of conjuncts(cond)) {
    const s = subqueryPredicate(c);
    if (s) subs.push(s);
    else if (find(c, 'queryStatement') && scalarSubqueries(c).length && !subqueryPredicateInside(c)) scalar.push(c);
    else if (find(c, 'queryStatement')) fail(find(c, 'queryStatement')!, 'subquery in an expression', `a subquery under OR, in CASE or beside other operators is not read; ${NEAREST}, and an uncorrelated scalar subquery (SELECT AGG(…) FROM …) compared in WHERE`);
    else plain.push(c);
  }
  let out = rel;
  if (plain.length) {
    const text = compileExpr(plain.map((c) => `(${weirExpr(c, scopeOf(env, rel), 'WHERE')})`).join(' AND ')).toSql();
    out = filter(rel, plain[0], env, 'WHERE', () => text);
  }
  if (scalar.length) out = planScalarConjuncts(out, scalar, env);
  for (const s of subs) out = planSemiJoin(out, s, env);
  return out;
}

/** An IN or EXISTS subquery nested in an expression (under OR, in CASE): not read. */
function subqueryPredicateInside(t: Tree): boolean {
  if (altOf(t) === 'Exists' || (ruleOf(t) === 'predicate' && childOf(t, 'queryStatement'))) return true;
  if (altOf(t) === 'SubqueryExpression') return false;
  return kids(t).some(subqueryPredicateInside);
}

function planSemiJoin(outer: Rel, s: SubqueryPredicate, env: Env): Rel {
  const what = s.exists ? (s.negated ? 'NOT EXISTS' : 'EXISTS') : s.negated ? 'NOT IN' : 'IN';
  const sel = childOf(s.query, 'selectStatement');
  const simple = sel && !childOf(s.query, 'withClause') && !isAggregating(sel, env) && !(childOf(childOf(sel, 'selectClause')!, 'setQuantifier') && keywordsOf(childOf(childOf(sel, 'selectClause')!, 'setQuantifier')!).includes('DISTINCT'));
  const leftKey: string[] = [];
  const rightKey: string[] = [];
  const residual: Tree[] = [];
  let inner: Rel;
  let itemT: Tree | null = null;
  let nullSafeKeys = false;
  if (simple && sel) {
    const from = childOf(sel, 'fromClause');
    if (!from) fail(sel, `${what} (SELECT …)`, 'the subquery needs a FROM');
    inner = finish(planFromItem(from, env), env, from);
    const where = childOf(sel, 'whereClause');
    const local: Tree[] = [];
    // Weir's export writes a semi join's own conditions in the subquery: they stay the node's.
    const asWritten = env.annotation?.kind === 'semiJoin';
    const pairs: { outer: Col; inner: Col; nullSafe: boolean; at: Tree }[] = [];
    for (const c of where ? conjuncts(kids(where).find((k) => !k.symbol)!) : []) {
      const pair = find(c, 'queryStatement') ? null : correlationPair(c, inner, outer);
      if (pair) pairs.push({ ...pair, at: c });
      else if (find(c, 'queryStatement')) local.push(c);
      else if (asWritten || columnRefs(c).some((r) => sideOf(inner, outer, r).side === 'outer')) residual.push(c);
      else local.push(c);
    }
    // The node's keys are all `=` or all IS NOT DISTINCT FROM (IN adds an `=` key of its own); when
    // both are written, the null-safe ones are checked per pair, as a residual condition.
    nullSafeKeys = !!s.exists && pairs.length > 0 && pairs.every((p) => p.nullSafe);
    for (const p of pairs) {
      if (p.nullSafe && !nullSafeKeys) residual.push(p.at);
      else {
        leftKey.push(p.outer.field);
        rightKey.push(p.inner.field);
      }
    }
    if (local.length) {
      const andTree = local;
      inner = andTree.reduce((r, c) => planWhere(r, c, env), inner);
    }
    if (!s.exists) itemT = selectItemTree(sel, s.query);
  } else {
    const own = ownQualifiers(s.query);
    const outerQuals = new Set(outer.cols.flatMap((c) => c.quals));
    const corr = columnRefs(s.query).find(() => false) ?? findAll(s.query, 'columnNamePath').map((p) => columnRef(p)).find((r) => r?.qual && outerQuals.has(r.qual) && !own.has(r.qual));
    if (corr) fail(s.query, `correlated ${what} subquery`, `a subquery that aggregates, uses DISTINCT or WITH is read only when it is uncorrelated (${corr.qual}.${corr.name} reads the outer query); aggregate in a view first, or ${NEAREST}`);
    inner = finish(planQuery(s.query, env), env, s.query);
  }
  let nullAware: { left: string; right: string } | undefined;
  if (!s.exists) {
    let innerCol: Col;
    if (itemT) {
      const ref = columnRef(itemT);
      const hit = ref ? hits(inner.cols, ref) : [];
      if (hit.length !== 1) fail(itemT, `${what} (SELECT …)`, 'the subquery selects one column of its FROM; compute an expression in a view or a subquery in FROM first');
      innerCol = hit[0];
    } else {
      if (inner.cols.length !== 1) fail(s.query, `${what} (SELECT …)`, `the subquery must select exactly one column, found ${inner.cols.length}; multi-column (a, b) IN (SELECT x, y …) is not read, the nearest supported form is EXISTS (SELECT … WHERE x = a AND y = b)`);
      innerCol = inner.cols[0];
    }
    const lref = columnRef(s.lhs!);
    const lhit = lref ? hits(outer.cols, lref) : [];
    if (lhit.length !== 1) fail(s.lhs!, `… ${what} (SELECT …)`, lref ? `column ${lref.name} is not a single column of the query` : 'compare a column with IN: compute the expression in the SELECT of a view or subquery first');
    if (s.negated) nullAware = { left: lhit[0].field, right: innerCol.field };
    else {
      leftKey.unshift(lhit[0].field);
      rightKey.unshift(innerCol.field);
    }
  }
  const params: Record<string, unknown> = { type: s.negated ? 'anti' : 'semi', leftKey, rightKey, ...(nullAware ? { nullAware } : {}), ...(nullSafeKeys ? { nullSafeKeys } : {}) };
  if (residual.length) params.nonEquiCondition = residualCondition(residual, inner, outer, env, what);
  const id = nodeId(env, s.negated ? 'anti_join' : 'semi_join');
  env.g.add({ id, kind: 'semiJoin', params, inputs: [['left', outer.node], ['right', inner.node]], at: s.at });
  return { ...outer, node: id, eventTime: null, procTime: [], updating: outer.updating || inner.updating || s.negated };
}

/**
 * The correlated conditions of a semi / anti join that are not keys, as the node's residual
 * condition over the joined row: outer columns by name, the subquery's as the join renames them.
 */
export function residualCondition(residual: readonly Tree[], inner: Rel, outer: Rel, env: Env, what: string): string {
  const rename = renameRight(new Set(outer.cols.map((c) => c.field)), inner.cols.map((c) => c.field));
  const replace = (t: Tree): string | null => {
    const refs = altOf(t) === 'ColumnReference' || (t.symbol && isQuoted(t.symbol.text ?? '')) ? columnRefs(t) : [];
    if (refs.length !== 1) return null;
    const r = sideOf(inner, outer, refs[0]);
    return quoteName(r.side === 'outer' ? r.col.field : rename[r.col.field]);
  };
  return compileExpr(residual.map((c) => `(${weirExpr(c, scopeOf(env, outer), `${what} (SELECT …)`, replace)})`).join(' AND ')).toSql();
}

/** The one item a simple IN subquery selects. */
export function selectItemTree(sel: Tree, q: Tree): Tree {
  const list = find(childOf(sel, 'selectClause')!, 'selectList')!;
  const items = kids(list).filter((k) => ruleOf(k) === 'columnProjectItem');
  if (items.length !== 1 || find(items[0], 'tableAllColumns') || items[0].getText() === '*') fail(q, 'IN (SELECT …)', 'the subquery must select exactly one column; multi-column (a, b) IN (SELECT x, y …) is not read, the nearest supported form is EXISTS (SELECT … WHERE x = a AND y = b)');
  const expr = childOf(items[0], 'selectExpressionColumnName') ?? childOf(items[0], 'selectLiteralColumnName') ?? items[0];
  return kids(expr).find((k) => ruleOf(k) !== 'columnAlias' && !k.symbol) ?? expr;
}
