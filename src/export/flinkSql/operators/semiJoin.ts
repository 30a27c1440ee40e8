/**
 * The semi/anti join as Flink users write it: WHERE [NOT] EXISTS (SELECT 1 FROM right WHERE keys AND
 * residual), the keys compared with IS NOT DISTINCT FROM when they are null-safe, and NOT IN
 * (SELECT …) for the null-aware form. Flink's planner turns these back into its semi/anti join,
 * and Weir's import reads them back into the same node.
 */
import type { SemiJoinParams } from '../../../pipeline/kinds/semiJoin.ts';
import { ident } from '../sqlText.ts';
import type { OperatorExport } from './shared.ts';
import { describe, paramsOf, view } from './shared.ts';
import { joinInputs, residualCondition } from './joins.ts';

export const semiJoinExport: OperatorExport = (a) => {
  const p = paramsOf<SemiJoinParams>(a.node);
  const io = joinInputs(a);
  if (!io) return null;
  const eq = p.nullSafeKeys ? 'IS NOT DISTINCT FROM' : '=';
  const conds = p.leftKey.map((k, i) => `r.${ident(p.rightKey[i])} ${eq} l.${ident(k)}`);
  if (p.nonEquiCondition !== undefined) conds.push(`(${residualCondition(p.nonEquiCondition, io.left, io.right)})`);
  const where = conds.length ? ` WHERE ${conds.join(' AND ')}` : '';
  const test = p.nullAware
    ? `l.${ident(p.nullAware.left)} NOT IN (SELECT r.${ident(p.nullAware.right)} FROM ${ident(io.right.name)} AS r${where})`
    : `${p.type === 'anti' ? 'NOT EXISTS' : 'EXISTS'} (SELECT 1 FROM ${ident(io.right.name)} AS r${where})`;
  const keys = p.leftKey.length ? ` on ${p.leftKey.join(', ')} ${p.nullSafeKeys ? 'IS NOT DISTINCT FROM' : '='} ${p.rightKey.join(', ')}` : '';
  const comments = [`${p.type} join ${describe(a.node)}${keys}${p.nullAware ? `, NOT IN on ${p.nullAware.left} / ${p.nullAware.right}` : ''}: both sides are kept forever, as in Weir`];
  const sql = `SELECT ${io.left.columns.map((c) => `l.${ident(c)}`).join(', ')}\nFROM ${ident(io.left.name)} AS l\nWHERE ${test}`;
  return [view(a.node.id, comments, sql)];
};
