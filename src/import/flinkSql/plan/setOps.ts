/**
 * UNION (without ALL) as Flink plans it: UNION ALL of the branches, then a distinct aggregation
 * over every column (a GROUP BY of all of them with no aggregate), so the result is an updating
 * table holding each distinct row once; a retraction removes a row when its last copy goes.
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Rel } from './model.ts';
import { quoteName } from './model.ts';
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
