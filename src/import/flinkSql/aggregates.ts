/** GROUP BY aggregates and window aggregates (TUMBLE / HOP / CUMULATE TVFs, GROUP BY SESSION). */
import type { AggregateCall } from '../../engine/aggregates.ts';
import type { Span } from './cursor.ts';
import type { Select } from './query.ts';
import type { Annotation, ImportContext, ImportedNode, Relation } from './context.ts';
import { fail, singleTable } from './context.ts';
import { call, intervalMs, plainColumn } from './exprs.ts';

const WINDOW_COLUMNS = ['window_start', 'window_end', 'window_time'];

/** One aggregate select item, or null when the item is not an aggregate call. */
function aggregateCall(cx: ImportContext, item: { expr: Span; alias: string | null }, input: Relation, ann: Annotation | null): AggregateCall | null {
  const c = call(item.expr, cx.sql);
  if (!c) return null;
  const as = item.alias ?? fail(item.expr, 'aggregate', 'give the aggregate a name with AS');
  const one = (): string => {
    const f = c.args.length === 1 ? plainColumn(c.args[0]) : null;
    return f ?? fail(item.expr, `${c.name}(…)`, 'expected one column as the argument');
  };
  if (c.quoted && cx.functions.has(c.name)) {
    const code = (ann?.udafs as Record<string, string> | undefined)?.[as];
    if (code === undefined) fail(item.expr, `${c.name}(…)`, `\`${c.name}\` is a ported aggregate function; the import needs its original code in the view's @weir annotation`);
    const whole = c.args.length === input.columns.length && c.args.every((a, i) => plainColumn(a) === input.columns[i]);
    return whole && input.columns.length !== 1 ? { fn: 'udaf', as, code } : { fn: 'udaf', field: one(), as, code };
  }
  switch (c.name) {
    case 'COUNT':
      if (c.distinct) return { fn: 'countDistinct', field: one(), as };
      return c.args.length === 1 && c.args[0].text === '*' ? { fn: 'count', as } : { fn: 'count', field: one(), as };
    case 'SUM':
    case 'MIN':
    case 'MAX':
      return { fn: c.name.toLowerCase() as 'sum' | 'min' | 'max', field: one(), as };
    case 'AVG': {
      // AVG(CAST(x AS DOUBLE)) is how the export writes Weir's floating-point average.
      const inner = c.args.length === 1 ? call(c.args[0], cx.sql) : null;
      if (inner?.name === 'CAST') {
        const t = c.args[0].tokens;
        const col = t.length === 6 && (t[2].kind === 'quoted' || t[2].kind === 'word') && t[3].upper === 'AS' ? t[2].value : null;
        if (col) return { fn: 'avg', field: col, as };
      }
      return { fn: 'avg', field: one(), as };
    }
    default:
      return null;
  }
}

/** Splits the select list into leading key columns and trailing aggregate calls. */
function keysThenAggregates(cx: ImportContext, s: Select, input: Relation, ann: Annotation | null, keyCount: number) {
  const keys = s.items.slice(0, keyCount).map((it) => plainColumn(it.expr));
  const calls = s.items.slice(keyCount).map((it) => aggregateCall(cx, it, input, ann) ?? fail(it.expr, 'aggregate', `expected an aggregate call (COUNT, SUM, AVG, MIN, MAX, COUNT(DISTINCT …) or a ported function), found ${it.expr.text}`));
  return { keys, calls };
}

const AGGREGATES = new Set(['COUNT', 'SUM', 'AVG', 'MIN', 'MAX']);

/** A GROUP BY, or an aggregate call in the select list (a global aggregate). */
export function isAggregate(cx: ImportContext, s: Select): boolean {
  return (
    s.groupBy !== null ||
    s.items.some((it) => {
      const c = call(it.expr, cx.sql);
      return !!c && (c.quoted ? cx.functions.has(c.name) : AGGREGATES.has(c.name));
    })
  );
}

export function aggregateNode(cx: ImportContext, name: string, s: Select, ann: Annotation | null): ImportedNode {
  const input = singleTable(cx, s.from, 'GROUP BY');
  const groupBy = (s.groupBy ?? []).map((g) => plainColumn(g) ?? fail(g, 'GROUP BY', 'expected a column'));
  if (s.where) fail(s.where, 'WHERE', 'filter before the aggregate, in a view of its own');
  const { keys, calls } = keysThenAggregates(cx, s, input, ann, groupBy.length);
  if (keys.some((k, i) => k !== groupBy[i])) fail(s.tok, 'GROUP BY', `the SELECT list must start with the GROUP BY columns (${groupBy.join(', ')}) in that order, then the aggregates`);
  return { id: name, kind: 'aggregate', params: { groupBy, aggregates: calls }, inputs: [['in', input.name]], annotation: ann };
}

/** TUMBLE / HOP / CUMULATE: the select lists the keys, window_start, window_end, window_time, then aggregates. */
export function windowTvfNode(cx: ImportContext, name: string, s: Select, ann: Annotation | null): ImportedNode {
  const from = s.from;
  if (from.kind !== 'tvf') throw new Error('not a TVF');
  const input = cx.relation(from.table, from.tok, from.fn);
  const groupItems = (s.groupBy ?? fail(s.tok, from.fn, 'a window table function needs GROUP BY window_start, window_end, window_time')).map((g) => plainColumn(g) ?? fail(g, 'GROUP BY', 'expected a column'));
  const groupBy = groupItems.filter((g) => !WINDOW_COLUMNS.includes(g));
  if (!WINDOW_COLUMNS.every((w) => groupItems.includes(w))) fail(s.tok, 'GROUP BY', 'group by window_start, window_end and window_time');
  const { keys, calls } = keysThenAggregates(cx, s, input, ann, groupBy.length + 3);
  const expected = [...groupBy, ...WINDOW_COLUMNS];
  if (keys.some((k, i) => k !== expected[i])) fail(s.tok, from.fn, `the SELECT list must be (${expected.join(', ')}) and then the aggregates`);
  const ms = from.args.map((a) => intervalMs(a, from.fn));
  const params: Record<string, unknown> = { type: from.fn.toLowerCase(), groupBy, aggregates: calls };
  const expect = (n: number) => ms.length === n || ms.length === n + 1 || fail(from.tok, from.fn, `expected ${n} interval argument(s) and an optional offset`);
  if (from.fn === 'TUMBLE') {
    expect(1);
    params.sizeMs = ms[0];
  } else {
    expect(2);
    params[from.fn === 'HOP' ? 'slideMs' : 'stepMs'] = ms[0];
    params.sizeMs = ms[1];
  }
  const offset = ms[from.fn === 'TUMBLE' ? 1 : 2];
  if (offset) params.offsetMs = offset;
  return { id: name, kind: 'window', params, inputs: [['in', input.name]], annotation: ann };
}

export const isSessionWindow = (s: Select): boolean => (s.groupBy ?? []).some((g) => g.tokens[0]?.upper === 'SESSION' && g.tokens[1]?.value === '(');

/** GROUP BY keys, SESSION(ts, gap): SESSION_START / _END / _ROWTIME become window_start / _end / _time. */
export function sessionNode(cx: ImportContext, name: string, s: Select, ann: Annotation | null): ImportedNode {
  const input = singleTable(cx, s.from, 'GROUP BY SESSION');
  const session = s.groupBy!.find((g) => g.tokens[0]?.upper === 'SESSION')!;
  const groupBy = s.groupBy!.filter((g) => g !== session).map((g) => plainColumn(g) ?? fail(g, 'GROUP BY', 'expected a column'));
  const sc = call(session, cx.sql)!;
  if (sc.args.length !== 2 || !plainColumn(sc.args[0])) fail(session, 'SESSION', 'expected SESSION(<time column>, INTERVAL …)');
  const gapMs = intervalMs(sc.args[1], 'SESSION');
  const fns = ['SESSION_START', 'SESSION_END', 'SESSION_ROWTIME'];
  s.items.slice(groupBy.length, groupBy.length + 3).forEach((it, i) => {
    const c = call(it.expr, cx.sql);
    if (c?.name !== fns[i] || it.alias !== WINDOW_COLUMNS[i]) fail(it.expr, 'SESSION', `expected ${fns[i]}(…) AS ${WINDOW_COLUMNS[i]}`);
  });
  const keys = s.items.slice(0, groupBy.length).map((it) => plainColumn(it.expr));
  if (keys.some((k, i) => k !== groupBy[i])) fail(s.tok, 'GROUP BY SESSION', 'the SELECT list must start with the GROUP BY columns in that order');
  const calls = s.items.slice(groupBy.length + 3).map((it) => aggregateCall(cx, it, input, ann) ?? fail(it.expr, 'aggregate', `expected an aggregate call, found ${it.expr.text}`));
  return { id: name, kind: 'window', params: { type: 'session', gapMs, groupBy, aggregates: calls }, inputs: [['in', input.name]], annotation: ann };
}
