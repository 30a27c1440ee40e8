/**
 * Regular and interval joins. Output columns follow the engine: all left columns, then the right
 * ones, a right column whose name is taken renamed `<name>_right` (see joins/columns.ts).
 */
import { renameRight } from '../../../pipeline/kinds/joinColumns.ts';
import type { JoinParams, JoinType } from '../../../pipeline/kinds/join.ts';
import type { IntervalJoinParams } from '../../../pipeline/kinds/intervalJoin.ts';
import type { Relation } from '../context.ts';
import { globalStateTtl } from '../settings.ts';
import { durationText, ident, plusInterval, TIMESTAMP_TYPE } from '../sqlText.ts';
import type { OperatorArgs, OperatorExport } from './shared.ts';
import { describe, needInput, view, paramsOf } from './shared.ts';
import { flinkExpr } from './exprNotes.ts';

export const JOIN_SQL: Record<JoinType, string> = { inner: 'INNER JOIN', left: 'LEFT JOIN', right: 'RIGHT JOIN', full: 'FULL OUTER JOIN' };

/**
 * `l.a, l.b, r.c, r.a AS a_right`. Right columns named in `plainRight` (its time attribute, for
 * interval and temporal joins) are cast to a plain timestamp: Flink refuses to write two rowtime
 * columns to one sink, and the output's event time is the left one.
 */
export function joinedSelect(left: Relation, right: Relation, plainRight: string | null = null): string[] {
  const names = renameRight(new Set(left.columns), right.columns);
  const items = left.columns.map((c) => `l.${ident(c)}`);
  for (const c of right.columns) {
    const src = c === plainRight ? `CAST(r.${ident(c)} AS ${TIMESTAMP_TYPE})` : `r.${ident(c)}`;
    items.push(src === `r.${ident(names[c])}` ? src : `${src} AS ${ident(names[c])}`);
  }
  return items;
}

export const keyCondition = (leftKey: readonly string[], rightKey: readonly string[]): string =>
  leftKey.map((k, i) => `l.${ident(k)} = r.${ident(rightKey[i])}`).join(' AND ');

/** A non-equi condition over the joined row's columns, rewritten onto l. and r. for the ON clause. */
export function residualCondition(source: string, left: Relation, right: Relation): string {
  const names = renameRight(new Set(left.columns), right.columns);
  const qualify = new Map<string, string>(left.columns.map((c) => [c, `l.${ident(c)}`]));
  for (const c of right.columns) qualify.set(names[c], `r.${ident(c)}`);
  const types = { ...left.types, ...Object.fromEntries(right.columns.filter((c) => right.types[c]).map((c) => [names[c], right.types[c]])) };
  return flinkExpr(source, qualify, types);
}

/** Both inputs of a two-input node, or null after a warning. */
export function joinInputs(a: OperatorArgs): { left: Relation; right: Relation } | null {
  const left = needInput(a, 'left');
  const right = left && needInput(a, 'right');
  return left && right ? { left, right } : null;
}

export const joinExport: OperatorExport = (a) => {
  const p = paramsOf<JoinParams>(a.node);
  const io = joinInputs(a);
  if (!io) return null;
  const comments = [`join ${describe(a.node)}: ${p.type} join on ${p.leftKey.join(', ')} = ${p.rightKey.join(', ')}`];
  let hint = '';
  if (p.ttlMs !== undefined) {
    // A hint scopes the TTL to this join; table.exec.state.ttl covers it too when that is set to the same value.
    if (globalStateTtl(a.cx).ttlMs !== p.ttlMs) {
      hint = `/*+ STATE_TTL('l' = '${durationText(p.ttlMs)}', 'r' = '${durationText(p.ttlMs)}') */ `;
    }
    comments.push(`idle rows leave the join state after ${p.ttlMs} ms, as with ttlMs in Weir`);
  } else {
    comments.push('no TTL: both sides are kept forever, as in Weir');
  }
  const residual = p.nonEquiCondition !== undefined ? `\n  AND (${residualCondition(p.nonEquiCondition, io.left, io.right)})` : '';
  const sql = `SELECT ${hint}${joinedSelect(io.left, io.right).join(', ')}\nFROM ${ident(io.left.name)} AS l\n${JOIN_SQL[p.type]} ${ident(io.right.name)} AS r\n  ON ${p.leftKey.length ? keyCondition(p.leftKey, p.rightKey) : 'TRUE'}${residual}`;
  return [view(a.node.id, comments, sql)];
};

export const intervalJoinExport: OperatorExport = (a) => {
  const p = paramsOf<IntervalJoinParams>(a.node);
  const io = joinInputs(a);
  if (!io) return null;
  const { left, right } = io;
  if (!left.time || !right.time) {
    a.cx.warn(a.node.id, `skipped: the ${left.time ? 'right' : 'left'} input has no time attribute in SQL, which an interval join needs`);
    return null;
  }
  const lt = `l.${ident(left.time)}`;
  const bounds = `r.${ident(right.time)} BETWEEN ${plusInterval(lt, p.lowerBoundMs)} AND ${plusInterval(lt, p.upperBoundMs)}`;
  const sql = `SELECT ${joinedSelect(left, right, right.time).join(', ')}\nFROM ${ident(left.name)} AS l\n${JOIN_SQL[p.type]} ${ident(right.name)} AS r\n  ON ${keyCondition(p.leftKey, p.rightKey)}\n  AND ${bounds}`;
  const comments = [
    `interval join ${describe(a.node)}: ${p.type}, right.${right.time} within [left.${left.time} ${p.lowerBoundMs >= 0 ? '+' : '−'} ${Math.abs(p.lowerBoundMs)} ms, left.${left.time} ${p.upperBoundMs >= 0 ? '+' : '−'} ${Math.abs(p.upperBoundMs)} ms]`,
  ];
  return [view(a.node.id, comments, sql)];
};
