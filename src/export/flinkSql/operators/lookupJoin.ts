/**
 * Processing-time lookup join: `JOIN dim FOR SYSTEM_TIME AS OF l.proc_time`. Flink reads the
 * time from a PROCTIME() attribute of the probe side, so the left input gets one in a helper view
 * (`<node>_probe`); the joined columns leave it out, as the engine's output has no such column.
 */
import type { LookupJoinParams } from '../../../pipeline/kinds/lookupJoin.ts';
import { freshName, ident, identList } from '../sqlText.ts';
import type { OperatorExport } from './shared.ts';
import { describe, view, paramsOf } from './shared.ts';
import { joinedSelect, joinInputs, keyCondition } from './joins.ts';

export const lookupJoinExport: OperatorExport = (a) => {
  const p = paramsOf<LookupJoinParams>(a.node);
  const io = joinInputs(a);
  if (!io) return null;
  const { left, right } = io;
  if (!right.node?.isSource) {
    a.cx.warn(a.node.id, `Flink looks rows up only in a table, and \`${right.name}\` is a view: read the dimension table straight from a source`);
  }
  a.cx.warn(a.node.id, `Flink runs a lookup join only against a connector that can look rows up by key, such as 'jdbc' or 'hbase': give \`${right.name}\` one`);
  const proc = freshName('proc_time', new Set([...left.columns, ...right.columns]));
  const probe = view(
    a.cx.fresh(`${a.node.id}_probe`),
    [`probe side of lookup join \`${a.node.id}\`: \`${left.name}\` with the processing-time attribute the lookup is made at`],
    `SELECT ${identList(left.columns)}, PROCTIME() AS ${ident(proc)}\nFROM ${ident(left.name)}`,
  );
  const join = p.type === 'left' ? 'LEFT JOIN' : 'INNER JOIN';
  const sql = `SELECT ${joinedSelect(left, right, right.time).join(', ')}\nFROM ${ident(probe.name)} AS l\n${join} ${ident(right.name)} FOR SYSTEM_TIME AS OF l.${ident(proc)} AS r\n  ON ${keyCondition(p.leftKey, p.rightKey)}`;
  const comments = [`lookup join ${describe(a.node)}: each left row with the current row of (${p.rightKey.join(', ')}) in \`${right.name}\` when it is joined`];
  return [probe, view(a.node.id, comments, sql)];
};
