/**
 * Operators over windows and frames that are not window aggregates: OVER aggregation, window
 * join, and the windowing part of window Top-N and window deduplication.
 */
import type { OverAggregateParams } from '../../../pipeline/kinds/overAggregate.ts';
import type { WindowJoinParams } from '../../../pipeline/kinds/windowJoin.ts';
import type { Windowing } from '../../../pipeline/kinds/windowing.ts';
import type { Relation } from '../context.ts';
import type { AggregateCall, OverCall } from '../../../pipeline/kinds/aggregateCall.ts';
import { ident, identList, interval, sqlType, str } from '../sqlText.ts';
import { aggregateCall } from './aggregate.ts';
import { JOIN_SQL, joinInputs, joinedSelect, keyCondition, residualCondition } from './joins.ts';
import { tvf } from './window.ts';
import type { OperatorArgs, OperatorExport } from './shared.ts';
import { describe, needInput, paramsOf, view } from './shared.ts';

/** What a window operator reads FROM: the window TVF over the input, or the input itself when it carries window columns. */
export function windowedFrom(a: OperatorArgs, w: Windowing, input: Relation): string | null {
  if (w.type === 'columns') return ident(input.name);
  if (!input.time) {
    a.cx.warn(a.node.id, `skipped: a ${w.type.toUpperCase()} window needs a time attribute, and the input has none in SQL`);
    return null;
  }
  return `TABLE(\n  ${tvf(w, input, input.time)}\n)`;
}

export const overAggregateExport: OperatorExport = (a) => {
  const p = paramsOf<OverAggregateParams>(a.node);
  const input = needInput(a);
  if (!input) return null;
  if (!input.time) {
    a.cx.warn(a.node.id, 'skipped: OVER aggregation orders by a time attribute, and the input has none in SQL');
    return null;
  }
  const bound = p.frame === 'rows' ? p.precedingRows : p.precedingMs;
  const lower = bound === undefined ? 'UNBOUNDED PRECEDING' : p.frame === 'rows' ? `${bound} PRECEDING` : `${interval(bound)} PRECEDING`;
  const frame = `${p.frame.toUpperCase()} BETWEEN ${lower} AND CURRENT ROW`;
  const partition = p.partitionBy.length ? `PARTITION BY ${identList(p.partitionBy)} ` : '';
  const window = `${partition}ORDER BY ${ident(input.time)}`;
  // Calcite refuses a frame with LAG and gives it RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW,
  // the frame the kind requires of a node with LAG: both spellings name one window in Flink's planner.
  const call = (c: OverCall): string => (c.fn === 'lag' ? `${lagCall(c, input)} OVER (${window})` : `${aggregateCall(a, c as AggregateCall, input)} OVER (${window} ${frame})`);
  const items = [identList(input.columns), ...p.aggregates.map((c) => `${call(c)} AS ${ident(c.as)}`)];
  return [view(a.node.id, [`over aggregate ${describe(a.node)}: ${frame}`], `SELECT ${items.join(',\n  ')}\nFROM ${ident(input.name)}`)];
};

/**
 * LAG(field, offset, default). Flink's LagAggFunction wants the default in the field's own type
 * (an INT literal for a BIGINT column is refused), so a number is cast to it.
 */
function lagCall(c: OverCall, input: Relation): string {
  const f = ident(c.field ?? '');
  const d = c.default ?? null;
  if (d === null) return c.offset === undefined || c.offset === 1 ? `LAG(${f})` : `LAG(${f}, ${c.offset})`;
  const type = input.types[c.field ?? ''];
  const literal = typeof d === 'number' ? `CAST(${d} AS ${type === 'integer' || type === 'number' ? sqlType(type) : Number.isInteger(d) ? 'BIGINT' : 'DOUBLE'})` : typeof d === 'string' ? str(d) : d ? 'TRUE' : 'FALSE';
  return `LAG(${f}, ${c.offset ?? 1}, ${literal})`;
}

export const windowJoinExport: OperatorExport = (a) => {
  const p = paramsOf<WindowJoinParams>(a.node);
  const io = joinInputs(a);
  if (!io) return null;
  const leftFrom = windowedFrom(a, p.window, io.left);
  const rightFrom = leftFrom && windowedFrom(a, p.window, io.right);
  if (!leftFrom || !rightFrom) return null;
  const withWindow = (r: Relation): Relation => (p.window.type === 'columns' ? r : { ...r, columns: [...r.columns, 'window_start', 'window_end', 'window_time'] });
  const left = withWindow(io.left);
  const right = withWindow(io.right);
  const on = [keyCondition(p.leftKey, p.rightKey), 'l.`window_start` = r.`window_start`', 'l.`window_end` = r.`window_end`'].filter((c) => c !== '');
  if (p.nonEquiCondition !== undefined) on.push(`(${residualCondition(p.nonEquiCondition, left, right)})`);
  // Each side's windows are a view of their own, so the join reads two named relations, as Flink's planner sees them.
  const sides = [] as ReturnType<typeof view>[];
  const named = (r: Relation, from: string, side: string): Relation => {
    if (p.window.type === 'columns') return r;
    const name = `${a.node.id}__${side}_windows`;
    sides.push(view(name, [`${side} input of ${describe(a.node)} cut into ${p.window.type} windows`], `SELECT ${identList(r.columns)}\nFROM ${from}`));
    return { ...r, name };
  };
  const l = named(left, leftFrom, 'left');
  const r = named(right, rightFrom, 'right');
  if (p.type === 'semi' || p.type === 'anti') {
    // Flink's window semi / anti join: the subquery is correlated on the window, and on the keys.
    const inner = `SELECT ${p.nullAware ? `r.${ident(p.nullAware.right)}` : '1'} FROM ${ident(r.name)} AS r WHERE ${on.join(' AND ')}`;
    const test = p.nullAware ? `l.${ident(p.nullAware.left)} NOT IN (${inner})` : `${p.type === 'anti' ? 'NOT EXISTS' : 'EXISTS'} (${inner})`;
    const sql = `SELECT ${l.columns.map((c) => `l.${ident(c)}`).join(', ')}\nFROM ${ident(l.name)} AS l\nWHERE ${test}`;
    return [...sides, view(a.node.id, [`window ${p.type} join ${describe(a.node)} per ${p.window.type} window ${p.leftKey.length ? `on ${p.leftKey.join(', ')} = ${p.rightKey.join(', ')}` : 'on the window alone'}`], sql)];
  }
  const sql = `SELECT ${joinedSelect(l, r).join(', ')}\nFROM ${ident(l.name)} AS l\n${JOIN_SQL[p.type as keyof typeof JOIN_SQL]} ${ident(r.name)} AS r\n  ON ${on.join('\n  AND ')}`;
  return [...sides, view(a.node.id, [`window join ${describe(a.node)}: ${p.type} join per ${p.window.type} window ${p.leftKey.length ? `on ${p.leftKey.join(', ')} = ${p.rightKey.join(', ')}` : 'on the window alone'}`], sql)];
};
