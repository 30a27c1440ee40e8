/**
 * JOIN … USING (k, …) and NATURAL JOIN (USING every column name both sides have), with SQL's
 * merged columns: each key is one column, read unqualified and listed first by `*`; for an inner
 * or left join it is the left side's value, for a right join the right side's, for a full join
 * COALESCE of both. The sides' own copies stay readable qualified (`o.k`, `c.k`).
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { childOf, findAll, keywordsOf, unquote } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Col, Rel } from './model.ts';
import { fail, quoteName } from './model.ts';
import type { Env } from './env.ts';
import { nodeId } from './env.ts';

export interface UsingKeys {
  names: string[];
  left: Col[];
  right: Col[];
  at: Tree;
}

const visible = (cols: Col[]) => cols.filter((c) => !c.usingSide);

/** The keys of a USING or NATURAL join, or null for a join written with ON. */
export function usingKeys(t: Tree, cond: Tree | null, left: Rel, right: Rel): UsingKeys | null {
  const natural = keywordsOf(t).includes('NATURAL');
  const using = cond && keywordsOf(cond).includes('USING') ? cond : null;
  if (!natural && !using) return null;
  if (natural && using) fail(cond, 'NATURAL JOIN … USING', 'a NATURAL JOIN names no keys: drop USING, or drop NATURAL');
  if (natural && cond) fail(cond, 'NATURAL JOIN … ON', 'a NATURAL JOIN joins on every column name both sides have: drop ON, or drop NATURAL');
  const names = using
    ? findAll(childOf(using, 'columnNameList')!, 'columnName').map((c) => unquote(c.getText()))
    : visible(left.cols).map((c) => c.name).filter((n) => visible(right.cols).some((c) => c.name === n));
  const at = using ?? t;
  if (!names.length) fail(at, 'NATURAL JOIN', `the two sides have no column name in common (left: ${visible(left.cols).map((c) => c.name).join(', ')}; right: ${visible(right.cols).map((c) => c.name).join(', ')}); write JOIN … ON l.a = r.b`);
  const pick = (rel: Rel, side: string, n: string): Col => {
    const hits = visible(rel.cols).filter((c) => c.name === n);
    if (hits.length === 1) return hits[0];
    return fail(at, `USING (${n})`, hits.length ? `\`${n}\` is in the ${side} side more than once; join on qualified keys with ON` : `\`${n}\` is not a column of the ${side} side (${visible(rel.cols).map((c) => c.name).join(', ')})`);
  };
  if (new Set(names).size !== names.length) fail(at, 'USING (…)', 'a key is named twice');
  return { names, left: names.map((n) => pick(left, 'left', n)), right: names.map((n) => pick(right, 'right', n)), at };
}

/**
 * The join's output seen from SQL: the merged keys first, then the left's other columns, then the
 * right's; the sides' key copies only qualified. `joined.cols` are the left's columns, then the
 * right's (`right`, in order) under their output fields.
 */
export function mergeUsing(joined: Rel, keys: UsingKeys, type: string, left: Col[], right: Col[], env: Env): Rel {
  const out = (c: Col, side: Col[], offset: number) => joined.cols[offset + side.indexOf(c)];
  const leftOut = keys.left.map((c) => out(c, left, 0));
  const rightOut = keys.right.map((c) => out(c, right, left.length));
  const copies = new Set([...leftOut, ...rightOut]);
  const rest = joined.cols.filter((c) => !copies.has(c));
  const sides = [...leftOut, ...rightOut].map((c): Col => ({ ...c, usingSide: true }));
  if (type !== 'full') {
    const from = type === 'right' ? rightOut : leftOut;
    const merged = keys.names.map((n, i): Col => ({ field: from[i].field, name: n, quals: [], type: from[i].type }));
    return { ...joined, cols: [...merged, ...rest, ...sides] };
  }
  // FULL: each key is COALESCE(l.k, r.k), a field of its own beside the sides' copies.
  const taken = new Set(joined.cols.map((c) => c.field));
  const mergedFields = keys.names.map((n) => {
    let f = `${n}_merged`;
    for (let i = 2; taken.has(f); i++) f = `${n}_merged_${i}`;
    taken.add(f);
    return f;
  });
  const id = nodeId(env, 'using_keys');
  const fields = [
    ...keys.names.map((_, i) => ({ name: mergedFields[i], expr: `COALESCE(${quoteName(leftOut[i].field)}, ${quoteName(rightOut[i].field)})` })),
    ...joined.cols.map((c) => ({ name: c.field, expr: quoteName(c.field) })),
  ];
  env.g.add({ id, kind: 'project', params: { fields }, inputs: [['in', joined.node]], at: keys.at });
  const merged = keys.names.map((n, i): Col => ({ field: mergedFields[i], name: n, quals: [], type: leftOut[i].type ?? rightOut[i].type }));
  return { ...joined, node: id, cols: [...merged, ...rest, ...sides] };
}
