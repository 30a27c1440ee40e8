/**
 * Uncorrelated scalar subqueries in WHERE (`amount > (SELECT AVG(amount) FROM t)`), as Flink's
 * planner runs them: a join on no key with the subquery's one-row aggregate, the comparison as a
 * filter over the joined rows, then the outer columns again. When the aggregate changes, the join
 * retracts and re-emits every outer row, so the result stays right as the input updates.
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { altOf, childOf, find, findAll, kids, ruleOf, unquote } from '../../../export/flinkSql/verify/parseTree.ts';
import { renameRight } from '../../../pipeline/kinds/joinColumns.ts';
import { compileExpr } from '../../../expr/index.ts';
import type { Col, Rel } from './model.ts';
import { fail, quoteName } from './model.ts';
import type { Env } from './env.ts';
import { nodeId, scopeOf } from './env.ts';
import { columnRef, weirExpr } from './expr.ts';
import { isAggregating } from './aggregate.ts';
import { filter, finish, planQuery, project, selectItems } from './select.ts';
import { pathName } from './tableNames.ts';

const FORM = 'the nearest supported form is an uncorrelated aggregate without GROUP BY, e.g. amount > (SELECT AVG(amount) FROM t)';

/** The subquery trees of scalar subqueries in an expression (not nested in other subqueries). */
export function scalarSubqueries(t: Tree, out: Tree[] = []): Tree[] {
  if (altOf(t) === 'SubqueryExpression') {
    out.push(t);
    return out;
  }
  if (ruleOf(t) === 'queryStatement') return out;
  for (const k of kids(t)) scalarSubqueries(k, out);
  return out;
}

/** Tables and aliases a subquery names itself. */
function ownQualifiers(q: Tree): Set<string> {
  const out = new Set<string>();
  for (const p of findAll(q, 'tablePath')) out.add(pathName(p));
  for (const a of findAll(q, 'tableAlias')) out.add(unquote(find(a, 'identifier')!.getText()));
  return out;
}

/** Joins `rel` on no key with each scalar subquery's one-row aggregate; `replace` renders each subquery as its column. */
function joinScalars(rel: Rel, trees: Tree[], env: Env, type: 'inner' | 'left'): { rel: Rel; replace: (t: Tree) => string | null } {
  let cur: Rel = rel;
  const columns = new Map<Tree, string>();
  const outerQuals = new Set(rel.cols.flatMap((c) => c.quals));
  for (const c of trees) {
    for (const sq of scalarSubqueries(c)) {
      const q = find(sq, 'queryStatement')!;
      const sel = childOf(q, 'selectStatement');
      const own = ownQualifiers(q);
      const corr = findAll(q, 'columnNamePath').map((p) => columnRef(p)).find((r) => r?.qual && outerQuals.has(r.qual) && !own.has(r.qual));
      if (corr) fail(sq, 'correlated scalar subquery', `${corr.qual}.${corr.name} reads the outer query; aggregate per key in a view and JOIN it on the key, or ${FORM}`);
      if (!sel || childOf(sel, 'groupByClause') || !isAggregating(sel, env)) fail(sq, 'scalar subquery', `it must give one row; ${FORM}`);
      const inner = finish(planQuery(q, env), env, q);
      if (inner.cols.length !== 1) fail(sq, 'scalar subquery', `it must select one value, found ${inner.cols.length} columns`);
      const rename = renameRight(new Set(cur.cols.map((x) => x.field)), inner.cols.map((x) => x.field));
      const value: Col = { ...inner.cols[0], field: rename[inner.cols[0].field], quals: [] };
      const id = nodeId(env, 'scalar_join');
      env.g.add({ id, kind: 'join', params: { type, leftKey: [], rightKey: [] }, inputs: [['left', cur.node], ['right', inner.node]], at: sq });
      columns.set(sq, value.field);
      cur = { ...cur, node: id, cols: [...cur.cols, value], eventTime: null, procTime: [], updating: true };
    }
  }
  const replace = (t: Tree): string | null => {
    const f = columns.get(t);
    if (f !== undefined) return quoteName(f);
    // `+(SELECT …)`: the unary plus the prepass writes before a subquery that starts a SELECT item (the grammar needs it).
    if (altOf(t) === 'ArithmeticUnary' && kids(t)[0].symbol?.text === '+' && columns.has(unwrapped(kids(t)[1]))) return quoteName(columns.get(unwrapped(kids(t)[1]))!);
    return null;
  };
  return { rel: cur, replace };
}

function unwrapped(t: Tree): Tree {
  let x = t;
  while (altOf(x) !== 'SubqueryExpression' && kids(x).length === 1 && !kids(x)[0].symbol) x = kids(x)[0];
  return x;
}

/** WHERE conjuncts that compare with scalar subqueries: one keyless join per subquery, one filter, one projection back. */
export function planScalarConjuncts(rel: Rel, conds: Tree[], env: Env): Rel {
  const { rel: cur, replace } = joinScalars(rel, conds, env, 'inner');
  const text = compileExpr(conds.map((c) => `(${weirExpr(c, scopeOf(env, rel), 'WHERE', replace)})`).join(' AND ')).toSql();
  const filtered = filter(cur, conds[0], env, 'WHERE', () => text);
  const id = nodeId(env, 'project');
  env.g.add({ id, kind: 'project', params: { fields: rel.cols.map((c) => ({ name: c.field, expr: quoteName(c.field) })) }, inputs: [['in', filtered.node]], at: conds[0] });
  return { ...rel, node: id, eventTime: null, procTime: [], updating: true };
}

/**
 * Scalar subqueries in the SELECT list: a LEFT join on no key with each one-row aggregate (NULL
 * until the aggregate has a row, as an empty subquery gives), then the SELECT list over it.
 */
export function planScalarSelect(sel: Tree, rel: Rel, env: Env): Rel {
  if (childOf(sel, 'groupByClause') || childOf(sel, 'havingClause')) fail(sel, 'scalar subquery in the SELECT list', 'it is read in a query without GROUP BY; aggregate in a subquery in FROM first');
  const list = childOf(sel, 'selectClause')!;
  const items = selectItems(sel, rel, env);
  const { rel: joined, replace } = joinScalars(rel, [list], env, 'left');
  const scope = scopeOf(env, rel);
  return project(joined, items, env, list, (e) => weirExpr(e, scope, 'SELECT list', replace));
}
