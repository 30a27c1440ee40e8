/**
 * Window join: two window table functions joined ON l.window_start = r.window_start AND
 * l.window_end = r.window_end and any key equalities (Flink's WindowJoin; with none, every pair
 * of one window joins). Both sides must use the same window; the other conditions of ON become
 * the node's residual condition.
 */
import { renameRight } from '../../../pipeline/kinds/joinColumns.ts';
import { compileExpr } from '../../../expr/index.ts';
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Col, Rel } from './model.ts';
import { fail } from './model.ts';
import type { Env } from './env.ts';
import { nodeId, scopeOf } from './env.ts';
import { weirExpr } from './expr.ts';
import type { FromRel } from './select.ts';
import { conjuncts, keyPair } from './join.ts';

export function planWindowJoin(t: Tree, type: string, left: FromRel, right: FromRel, on: Tree, env: Env): Rel {
  const window = { type: left.tvf!.type, ...left.tvf!.params };
  if (JSON.stringify(window) !== JSON.stringify({ type: right.tvf!.type, ...right.tvf!.params })) fail(right.tvf!.at, 'window join', 'both sides of a window join use the same window (type, size, slide, offset)');
  if (type !== 'inner' && type !== 'left' && type !== 'right' && type !== 'full') fail(t, 'window join', 'a window join is INNER, LEFT, RIGHT or FULL');
  const ls = scopeOf(env, left);
  const rs = scopeOf(env, right);
  const leftKey: string[] = [];
  const rightKey: string[] = [];
  const windowKeys = new Set<string>();
  const rest: Tree[] = [];
  for (const c of conjuncts(on)) {
    const pair = keyPair(c, ls, rs);
    if (pair && pair.l.field === pair.r.field && ['window_start', 'window_end'].includes(pair.l.field)) windowKeys.add(pair.l.field);
    else if (pair && ![pair.l.field, pair.r.field].some((f) => f.startsWith('window_'))) {
      leftKey.push(pair.l.field);
      rightKey.push(pair.r.field);
    } else rest.push(c);
  }
  if (windowKeys.size !== 2) fail(on, 'window join', 'join the windows: ON l.window_start = r.window_start AND l.window_end = r.window_end AND l.k = r.k');
  const rename = renameRight(new Set(left.cols.map((c) => c.field)), right.cols.map((c) => c.field));
  const cols: Col[] = [...left.cols, ...right.cols.map((c) => ({ ...c, field: rename[c.field] }))];
  const condition = rest.length ? compileExpr(rest.map((c) => `(${weirExpr(c, { ...ls, cols }, 'JOIN … ON')})`).join(' AND ')).toSql() : null;
  const id = nodeId(env, 'window_join');
  env.g.add({ id, kind: 'windowJoin', params: { type, leftKey, rightKey, window, ...(condition ? { nonEquiCondition: condition } : {}) }, inputs: [['left', left.node], ['right', right.node]], at: t });
  return { node: id, cols, eventTime: type === 'inner' ? 'window_time' : null, procTime: [], updating: false };
}
