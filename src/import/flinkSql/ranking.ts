/** ROW_NUMBER() OVER (…) patterns: Top-N (`rownum <= n`, rank kept) and deduplication (`= 1`, rank dropped). */
import type { Token } from './lexer.ts';
import type { Span } from './cursor.ts';
import type { Select } from './query.ts';
import type { Annotation, ImportContext, ImportedNode } from './context.ts';
import { expectColumns, fail, plainItems, singleTable } from './context.ts';
import { plainColumn, split } from './exprs.ts';

interface Over {
  partitionBy: string[];
  orderBy: { field: string; direction: 'asc' | 'desc' }[];
}

/** Parses `ROW_NUMBER() OVER (PARTITION BY a, b ORDER BY c DESC NULLS LAST, …)`. */
function parseOver(span: Span, sql: string): Over | null {
  const t = span.tokens;
  const at = (i: number, v: string) => t[i] && (t[i].upper === v || t[i].value === v);
  if (!(at(0, 'ROW_NUMBER') && at(1, '(') && at(2, ')') && at(3, 'OVER') && at(4, '(') && at(t.length - 1, ')'))) return null;
  let i = 5;
  const names = (stop: string[]): string[] => {
    const out: string[] = [];
    while (i < t.length - 1 && !stop.includes(t[i].upper)) {
      if (t[i].value !== ',') out.push(t[i].value);
      i++;
    }
    return out;
  };
  const partitionBy = at(i, 'PARTITION') && at(i + 1, 'BY') ? ((i += 2), names(['ORDER'])) : [];
  if (!(at(i, 'ORDER') && at(i + 1, 'BY'))) return null;
  const orderSpan: Span = { tokens: t.slice(i + 2, t.length - 1), start: 0, text: '' };
  const orderBy = split(orderSpan, sql, ',').map((o) => {
    const words = o.tokens.map((x: Token) => x.upper);
    return { field: o.tokens[0].value, direction: words.includes('DESC') ? ('desc' as const) : ('asc' as const) };
  });
  return { partitionBy, orderBy };
}

/** `(SELECT cols, PROCTIME() AS pt FROM t)`: the arrival-order attribute of a dedup. */
function proctimeColumn(s: Select): string | null {
  const last = s.items[s.items.length - 1];
  const t = last?.expr.tokens ?? [];
  return t.length === 3 && t[0].upper === 'PROCTIME' && last.alias ? last.alias : null;
}

export function isRanking(s: Select): boolean {
  return s.from.kind === 'subquery' && s.from.query.kind === 'select' && s.from.query.items.some((it) => it.expr.tokens[0]?.upper === 'ROW_NUMBER');
}

export function rankingNode(cx: ImportContext, name: string, s: Select, ann: Annotation | null): ImportedNode {
  if (s.from.kind !== 'subquery' || s.from.query.kind !== 'select') throw new Error('not a ranking');
  const inner = s.from.query;
  const rankItem = inner.items[inner.items.length - 1];
  const over = parseOver(rankItem.expr, cx.sql);
  const rank = rankItem.alias;
  if (!over || !rank) fail(rankItem.expr, 'ROW_NUMBER() OVER', 'expected ROW_NUMBER() OVER ([PARTITION BY …] ORDER BY …) AS <name> as the last column');
  const cond = s.where ? split(s.where, cx.sql, '<=') : null;
  const eq = s.where ? split(s.where, cx.sql, '=') : null;
  const outer = plainItems(s);
  if (!outer) fail(s.tok, 'ROW_NUMBER() OVER', 'the outer SELECT lists plain columns');
  let source = inner.from;
  let proctime: string | null = null;
  if (source.kind === 'subquery' && source.query.kind === 'select') {
    proctime = proctimeColumn(source.query);
    if (!proctime) fail(source.tok, 'subquery', 'the only nested subquery the import reads adds PROCTIME() for a dedup by arrival');
    source = source.query.from;
  }
  const input = singleTable(cx, source, 'ROW_NUMBER() OVER');
  expectColumns({ ...inner, items: inner.items.slice(0, -1) }, input.columns, 'ROW_NUMBER() OVER');
  if (cond?.length === 2 && plainColumn(cond[0]) === rank) {
    const n = Number(cond[1].text);
    if (!Number.isInteger(n) || n < 1) fail(cond[1], 'Top-N', 'expected a whole number of rows');
    expectColumns(s, [...input.columns, rank], 'Top-N');
    const params: Record<string, unknown> = { partitionBy: over.partitionBy, orderBy: over.orderBy, n };
    if (rank !== 'rownum') params.rankField = rank;
    return { id: name, kind: 'topN', params, inputs: [['in', input.name]], annotation: ann };
  }
  if (eq?.length === 2 && plainColumn(eq[0]) === rank && eq[1].text === '1' && !outer.includes(rank)) {
    expectColumns(s, input.columns, 'deduplication');
    if (over.orderBy.length !== 1) fail(rankItem.expr, 'deduplication', 'order by one time attribute');
    const byArrival = proctime !== null && over.orderBy[0].field === proctime;
    const params: Record<string, unknown> = { key: over.partitionBy, keep: over.orderBy[0].direction === 'asc' ? 'first' : 'last' };
    if (!byArrival) params.order = 'eventTime';
    return { id: name, kind: 'dedup', params, inputs: [['in', input.name]], annotation: ann };
  }
  return fail(s.where ?? s.tok, 'ROW_NUMBER() OVER', `expected WHERE ${rank} <= <n> (Top-N, keeping ${rank}) or WHERE ${rank} = 1 (deduplication, dropping it)`);
}

