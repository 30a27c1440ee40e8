/**
 * Set operators as Flink plans them. UNION (without ALL): UNION ALL of the branches, then a
 * distinct aggregation over every column (a GROUP BY of all of them with no aggregate), so the
 * result is an updating table holding each distinct row once; a retraction removes a row when its
 * last copy goes. INTERSECT / EXCEPT [ALL]: a semi / anti join on every column (see below).
 */
import type { FieldType } from '../../../core/streamInfo.ts';
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

const SQL_NAMES: Record<FieldType, string> = { string: 'STRING', integer: 'BIGINT', number: 'DOUBLE', boolean: 'BOOLEAN', timestamp: 'TIMESTAMP', json: 'a JSON value' };

/**
 * The column types of a set operation, position by position, as Flink derives them: numbers of
 * any kind meet in DOUBLE (the least restrictive numeric type), a NULL or an unknown type takes the
 * other side's, and any other difference is refused, as Flink refuses `Type mismatch in column k
 * of UNION`, rather than mixing strings with numbers in one column.
 */
export function setOperandTypes(rels: Rel[], operands: Tree[], opOf: (i: number) => string): (FieldType | null)[] {
  return rels[0].cols.map((first, k) =>
    rels.reduce<FieldType | null>((acc, r, i) => {
      const t = r.cols[k].type;
      if (acc === null || t === null || acc === 'json' || t === 'json' || acc === t) return acc === null || acc === 'json' ? t : acc;
      const numeric = (x: FieldType) => x === 'integer' || x === 'number';
      if (numeric(acc) && numeric(t)) return 'number';
      fail(operands[i], opOf(i), `column ${k + 1} (${r.cols[k].name}) is ${SQL_NAMES[t]} here but ${SQL_NAMES[acc]} in the operands before (first named ${first.name}); set operators need the same type in each column: CAST one side, e.g. CAST(${r.cols[k].name} AS ${SQL_NAMES[acc]})`);
    }, null),
  );
}

/** One set operator between two operands of a chain, as written. */
export interface SetLink {
  op: 'UNION' | 'INTERSECT' | 'EXCEPT';
  all: boolean;
  /** The set operation's query. */
  at: Tree;
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
 * INTERSECT / EXCEPT: a semi (anti) join of the left rows with the right rows on every column,
 * position by position, then distinct rows. Set operators compare rows with NULL equal to NULL, so
 * the join's keys are null-safe. The ALL forms keep duplicates by count (INTERSECT ALL: min(m, n)
 * copies; EXCEPT ALL: max(m - n, 0)): each side numbers the copies of each row 1, 2, … (a Top-N
 * partitioned by every column), the copy number joins as one more key, and no distinct follows.
 */
function intersectOrExcept(left: Rel, right: Rel, link: SetLink, env: Env): Rel {
  let copy = '_copy';
  for (let i = 2; [...left.cols, ...right.cols].some((c) => c.field === copy); i++) copy = `_copy_${i}`;
  const side = (rel: Rel): string => (link.all ? numberCopies(rel, copy, env, link.at) : rel.node);
  const extra = link.all ? [copy] : [];
  const id = nodeId(env, link.op === 'INTERSECT' ? 'intersect' : 'except');
  const params = { type: link.op === 'INTERSECT' ? 'semi' : 'anti', leftKey: [...left.cols.map((c) => c.field), ...extra], rightKey: [...right.cols.map((c) => c.field), ...extra], nullSafeKeys: true };
  env.g.add({ id, kind: 'semiJoin', params, inputs: [['left', side(left)], ['right', side(right)]], at: link.at });
  const joined: Rel = { node: id, cols: left.cols.map((c) => ({ field: c.field, name: c.name, quals: [], type: c.type })), eventTime: null, procTime: [], updating: left.updating || right.updating || link.op === 'EXCEPT' || link.all };
  if (!link.all) return distinctRows(joined, env, link.at);
  const out = nodeId(env, 'project');
  env.g.add({ id: out, kind: 'project', params: { fields: joined.cols.map((c) => ({ name: c.field, expr: quoteName(c.field) })) }, inputs: [['in', id]], at: link.at });
  return { ...joined, node: out };
}

/** Copies of one row are alike, so any order numbers them; a retracted copy takes the highest number with it. */
const COPIES_KEPT = 2_147_483_647;

function numberCopies(rel: Rel, copy: string, env: Env, at: Tree): string {
  const id = nodeId(env, 'copies');
  const fields = rel.cols.map((c) => c.field);
  env.g.add({ id, kind: 'topN', params: { partitionBy: fields, orderBy: [{ field: fields[0], direction: 'asc' }], n: COPIES_KEPT, rankField: copy }, inputs: [['in', rel.node]], at });
  return id;
}
