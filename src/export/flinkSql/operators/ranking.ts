/** Top-N and deduplication: Flink's ROW_NUMBER() (RANK(), DENSE_RANK()) OVER (PARTITION BY … ORDER BY …) patterns. */
import type { TopNParams } from '../../../pipeline/kinds/topN.ts';
import { DEFAULT_RANK_FIELD, rankSql } from '../../../pipeline/kinds/topN.ts';
import type { DedupParams } from '../../../pipeline/kinds/dedup.ts';
import { freshName, ident, identList } from '../sqlText.ts';
import type { OperatorExport } from './shared.ts';
import { describe, indent, needInput, view, paramsOf } from './shared.ts';
import { windowedFrom } from './windowed.ts';

const partition = (fields: readonly string[]): string => (fields.length ? `PARTITION BY ${identList(fields)} ` : '');

export const topNExport: OperatorExport = (a) => {
  const p = paramsOf<TopNParams>(a.node);
  const input = needInput(a);
  if (!input) return null;
  const rank = p.rankField ?? DEFAULT_RANK_FIELD;
  // Weir sorts NULL lowest: first when ascending, last when descending. Say so rather than rely on Flink's default.
  const order = p.orderBy.map((o) => `${ident(o.field)} ${o.direction === 'asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST'}`).join(', ');
  // Window Top-N: Flink recognises the window columns in PARTITION BY over a window TVF or a window aggregate.
  const from = p.window ? windowedFrom(a, p.window, input) : ident(input.name);
  if (!from) return null;
  const parts = p.window ? ['window_start', 'window_end', ...p.partitionBy] : p.partitionBy;
  const cols = p.window && p.window.type !== 'columns' ? [...input.columns, 'window_start', 'window_end', 'window_time'] : input.columns;
  const inner = `SELECT ${identList(cols)}, ${rankSql(p.rankFunction)}() OVER (${partition(parts)}ORDER BY ${order}) AS ${ident(rank)}\nFROM ${from}`;
  const sql = `SELECT ${identList(a.out.columns)}\nFROM (\n${indent(inner)}\n)\nWHERE ${ident(rank)} <= ${p.n}`;
  const per = p.partitionBy.length ? ` per ${p.partitionBy.join(', ')}` : '';
  return [view(a.node.id, [`top ${p.n} ${describe(a.node)}${per} by ${p.orderBy.map((o) => `${o.field} ${o.direction}`).join(', ')}`], sql)];
};

/**
 * keep first/last by arrival orders by a processing-time attribute (PROCTIME()); by event time it
 * orders by the rowtime column. Flink recognises both as deduplication and keeps one row per key.
 */
export const dedupExport: OperatorExport = (a) => {
  const p = paramsOf<DedupParams>(a.node);
  const input = needInput(a);
  if (!input) return null;
  const taken = new Set(input.columns);
  const rank = freshName('rownum', taken);
  const direction = p.keep === 'first' ? 'ASC' : 'DESC';
  const byEventTime = p.order === 'eventTime';
  if (byEventTime && !p.window && !input.time) {
    a.cx.warn(a.node.id, 'skipped: ordering by event time needs a time attribute, and the input has none in SQL');
    return null;
  }
  let from = ident(input.name);
  let time = input.time ?? '';
  let key = p.key;
  let cols = input.columns;
  if (p.window) {
    // Window deduplication: always by event time, per window.
    if (!input.time) {
      a.cx.warn(a.node.id, 'skipped: window deduplication orders by a time attribute, and the input has none in SQL');
      return null;
    }
    const windowed = windowedFrom(a, p.window, input);
    if (!windowed) return null;
    from = windowed;
    key = ['window_start', 'window_end', ...p.key];
    if (p.window.type !== 'columns') cols = [...input.columns, 'window_start', 'window_end', 'window_time'];
  } else if (!byEventTime) {
    time = freshName('proc_time', taken);
    from = `(SELECT ${identList(input.columns)}, PROCTIME() AS ${ident(time)} FROM ${ident(input.name)})`;
  }
  const inner = `SELECT ${identList(cols)}, ROW_NUMBER() OVER (PARTITION BY ${identList(key)} ORDER BY ${ident(time)} ${direction}) AS ${ident(rank)}\nFROM ${from}`;
  const sql = `SELECT ${identList(a.out.columns)}\nFROM (\n${indent(inner)}\n)\nWHERE ${ident(rank)} = 1`;
  const order = byEventTime || p.window ? 'event time' : 'arrival (processing time)';
  return [view(a.node.id, [`deduplicate ${describe(a.node)}: keep the ${p.keep} row per ${p.key.join(', ')} by ${order}`], sql)];
};
