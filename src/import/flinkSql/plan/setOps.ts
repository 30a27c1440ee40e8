/**
 * Set operators as Flink plans them. UNION (without ALL): UNION ALL of the branches, then a
 * distinct aggregation over every column (a GROUP BY of all of them with no aggregate), so the
 * result is an updating table holding each distinct row once; a retraction removes a row when its
 * last copy goes. INTERSECT / EXCEPT: a semi / anti join on every column, then the same distinct.
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Rel } from './model.ts';
import { fail, quoteName } from './model.ts';
import type { Env } from './env.ts';
import { nodeId } from './env.ts';

export function distinctRows(rel: Rel, env: Env, at: Tree): Rel {
  // An aggregate needs one call: a count, dropped after it (as SELECT DISTINCT is planned).
  let count = '_count';
  for (let i = 2; rel.cols.some((c) => c.field === count); i++) count = `_count_${i}`;
  const id = nodeId(env, 'distinct');
  env.g.add({ id, kind: 'aggregate', params: { groupBy: rel.cols.map((c) => c.field), aggregates: [{ fn: 'count', as: count }] }, inputs: [['in', rel.node]], at });
  const out = nodeId(env, 'project');
  env.g.add({ id: out, kind: 'project', params: { fields: rel.cols.map((c) => ({ name: c.field, expr: quoteName(c.field) })) }, inputs: [['in', id]], at });
  return { ...rel, node: out, eventTime: null, procTime: [], updating: true };
}

/** One set operator between two operands of a chain, as written. */
export interface SetLink {
  op: 'UNION' | 'INTERSECT' | 'EXCEPT';
  all: boolean;
  /** The set operation's query, and its operator keyword (where an error points). */
  at: Tree;
  word: Tree;
}

/**
 * A chain of set operators over planned operands, with SQL's precedence: INTERSECT binds tighter
 * than UNION and EXCEPT, which apply left to right. `union` plans a UNION [ALL] of two relations.
 */
export function combineSetOps(rels: Rel[], links: SetLink[], env: Env, union: (branches: Rel[], distinct: boolean, at: Tree) => Rel): Rel {
  const terms: { rel: Rel; link: SetLink | null }[] = [];
  let cur = rels[0];
  let before: SetLink | null = null;
  links.forEach((link, i) => {
    if (link.op === 'INTERSECT') cur = intersectOrExcept(cur, rels[i + 1], link, env);
    else {
      terms.push({ rel: cur, link: before });
      before = link;
      cur = rels[i + 1];
    }
  });
  terms.push({ rel: cur, link: before });
  return terms.slice(1).reduce((acc, t) => (t.link!.op === 'UNION' ? union([acc, t.rel], !t.link!.all, t.link!.at) : intersectOrExcept(acc, t.rel, t.link!, env)), terms[0].rel);
}

/**
 * INTERSECT / EXCEPT as Flink plans them: a semi (anti) join of the left rows with the right rows
 * on every column, position by position, then distinct rows. Set operators compare rows with
 * NULL equal to NULL, so the join's keys are null-safe.
 */
function intersectOrExcept(left: Rel, right: Rel, link: SetLink, env: Env): Rel {
  if (link.all) fail(link.word, `${link.op} ALL`, `${link.op} ALL keeps duplicates by count and is not supported; the nearest supported form is ${link.op} (distinct rows)${link.op === 'EXCEPT' ? ', or NOT EXISTS (SELECT … WHERE r.a IS NOT DISTINCT FROM l.a AND …)' : ', or EXISTS (SELECT … WHERE r.a IS NOT DISTINCT FROM l.a AND …)'}`);
  const id = nodeId(env, link.op === 'INTERSECT' ? 'intersect' : 'except');
  const params = { type: link.op === 'INTERSECT' ? 'semi' : 'anti', leftKey: left.cols.map((c) => c.field), rightKey: right.cols.map((c) => c.field), nullSafeKeys: true };
  env.g.add({ id, kind: 'semiJoin', params, inputs: [['left', left.node], ['right', right.node]], at: link.at });
  const joined: Rel = { node: id, cols: left.cols.map((c) => ({ field: c.field, name: c.name, quals: [], type: c.type })), eventTime: null, procTime: [], updating: left.updating || right.updating || link.op === 'EXCEPT' };
  return distinctRows(joined, env, link.at);
}
