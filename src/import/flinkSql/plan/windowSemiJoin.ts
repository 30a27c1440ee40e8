/**
 * Window semi and anti joins, as Flink's planner finds them: over a window table function, a WHERE
 * conjunct `x [NOT] IN (SELECT y FROM <window TVF> R WHERE L.window_start = R.window_start AND
 * L.window_end = R.window_end …)` or `[NOT] EXISTS (…)` with the same correlation. Both sides must
 * cut the same windows; the other correlations are keys or the residual condition, as for the
 * semiJoin kind (subquery.ts), but the windowJoin kind joins each window once when it closes.
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { childOf, find, kids } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Col, Rel } from './model.ts';
import { fail } from './model.ts';
import type { Env } from './env.ts';
import { nodeId } from './env.ts';
import { columnRef } from './expr.ts';
import { conjuncts } from './join.ts';
import type { FromRel } from './select.ts';
import { planFromItem } from './select.ts';
import type { SubqueryPredicate } from './subquery.ts';
import { columnRefs, correlationPair, hits, residualCondition, selectItemTree, sideOf, subqueryPredicate } from './subquery.ts';

const WINDOW_BOUNDS = ['window_start', 'window_end'];

/** Whether a subquery predicate correlates on window_start or window_end (then it is a window join). */
function windowCorrelated(s: SubqueryPredicate): boolean {
  const sel = childOf(s.query, 'selectStatement');
  const where = sel ? childOf(sel, 'whereClause') : null;
  return !!where && /\bwindow_(start|end)\b/i.test(where.getText());
}

/**
 * The window semi / anti joins of `cond` over `rel` (a pending window TVF), and the conjuncts
 * left for a filter after them; null when no conjunct is one.
 */
export function planWindowSemiJoins(rel: FromRel, cond: Tree, env: Env): { rel: Rel; rest: Tree[] } | null {
  const preds: SubqueryPredicate[] = [];
  const rest: Tree[] = [];
  for (const c of conjuncts(cond)) {
    const s = subqueryPredicate(c);
    if (s && windowCorrelated(s)) preds.push(s);
    else rest.push(c);
  }
  if (!preds.length) return null;
  if (preds.length > 1) fail(preds[1].at, 'window semi join', 'one IN / EXISTS subquery per window table function; join the windows once, and filter the result in a query above');
  return { rel: planWindowSemiJoin(rel, preds[0], env), rest };
}

function planWindowSemiJoin(outer: FromRel, s: SubqueryPredicate, env: Env): Rel {
  const what = s.exists ? (s.negated ? 'NOT EXISTS' : 'EXISTS') : s.negated ? 'NOT IN' : 'IN';
  const sel = childOf(s.query, 'selectStatement');
  const from = sel ? childOf(sel, 'fromClause') : null;
  if (!sel || !from) fail(s.query, `${what} (SELECT …)`, 'a window semi join reads one window table function in its subquery: (SELECT … FROM TABLE(TUMBLE(…)) R WHERE …)');
  const inner = planFromItem(from, env);
  if (!inner.tvf) fail(from, `${what} (SELECT …)`, 'the subquery is correlated on window_start and window_end, so it must read a window table function too (FROM TABLE(TUMBLE(TABLE r, …)) or a subquery of one)');
  const window = { type: outer.tvf!.type, ...outer.tvf!.params };
  if (JSON.stringify(window) !== JSON.stringify({ type: inner.tvf.type, ...inner.tvf.params })) fail(inner.tvf.at, 'window semi join', 'both sides of a window semi / anti join use the same window (type, size, slide, offset)');
  const leftKey: string[] = [];
  const rightKey: string[] = [];
  const bounds = new Set<string>();
  const residual: Tree[] = [];
  const where = childOf(sel, 'whereClause')!;
  for (const c of conjuncts(kids(where).find((k) => !k.symbol)!)) {
    if (find(c, 'queryStatement')) fail(c, `${what} (SELECT …)`, 'a subquery inside a window semi join is not read');
    const pair = correlationPair(c, inner, outer);
    if (pair && !pair.nullSafe && pair.outer.field === pair.inner.field && WINDOW_BOUNDS.includes(pair.outer.field)) bounds.add(pair.outer.field);
    else if (pair && !pair.nullSafe && ![pair.outer.field, pair.inner.field].some((f) => f.startsWith('window_'))) {
      leftKey.push(pair.outer.field);
      rightKey.push(pair.inner.field);
    } else if (columnRefs(c).some((r) => sideOf(inner, outer, r).side === 'outer')) residual.push(c);
    else fail(c, `${what} (SELECT …)`, 'a condition on the subquery alone: filter its table in a subquery of its own first (FROM TABLE(TUMBLE(TABLE (SELECT … WHERE …), …)))');
  }
  if (bounds.size !== 2) fail(where, 'window semi join', 'correlate both window bounds: WHERE L.window_start = R.window_start AND L.window_end = R.window_end');
  let nullAware: { left: string; right: string } | undefined;
  if (!s.exists) {
    const item = selectItemTree(sel, s.query);
    const ref = columnRef(item);
    const innerHit = ref ? hits(inner.cols, ref) : [];
    if (innerHit.length !== 1) fail(item, `${what} (SELECT …)`, 'the subquery selects one column of its window table function');
    const lref = columnRef(s.lhs!);
    const outerHit = lref ? hits(outer.cols, lref) : [];
    if (outerHit.length !== 1) fail(s.lhs!, `… ${what} (SELECT …)`, 'compare a column with IN');
    if (s.negated) nullAware = { left: outerHit[0].field, right: innerHit[0].field };
    else {
      leftKey.unshift(outerHit[0].field);
      rightKey.unshift(innerHit[0].field);
    }
  }
  const params: Record<string, unknown> = { type: s.negated ? 'anti' : 'semi', leftKey, rightKey, window, ...(nullAware ? { nullAware } : {}) };
  if (residual.length) params.nonEquiCondition = residualCondition(residual, inner, outer, env, what);
  const id = nodeId(env, s.negated ? 'window_anti_join' : 'window_semi_join');
  env.g.add({ id, kind: 'windowJoin', params, inputs: [['left', outer.node], ['right', inner.node]], at: s.at });
  const cols: Col[] = outer.cols;
  return { node: id, cols, eventTime: 'window_time', procTime: [], updating: false };
}
