/**
 * GROUP BY … HAVING, aggregate calls (DISTINCT, FILTER (WHERE …), COUNT(*), SUM(CASE …)), SELECT
 * DISTINCT, group windows (GROUP BY TUMBLE/HOP/SESSION(ts, …) with _START/_END/_ROWTIME) and window
 * TVF aggregation. Shape: [map: computed keys and arguments] → aggregate | window → [HAVING
 * filter] → [project: the SELECT list over keys and aggregates].
 */
import type { AggregateCall } from '../../../pipeline/kinds/aggregateCall.ts';
import type { FieldType } from '../../../core/streamInfo.ts';
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { altOf, childOf, childrenOf, find, findAll, keywordsOf, kids, lastToken, parseFlinkSql, ruleOf, textOf, unquote } from '../../../export/flinkSql/verify/parseTree.ts';
import { ImportError } from '../errors.ts';
import type { Col, Rel } from './model.ts';
import { fail, quoteName } from './model.ts';
import type { Env } from './env.ts';
import { nodeId, scopeOf } from './env.ts';
import type { Replace, Scope } from './expr.ts';
import { callArgs, callName, columnRef, intervalMs, render, resolveColumn, weirExpr } from './expr.ts';
import { exprType } from './exprForms.ts';
import type { FromRel } from './select.ts';
import { expandGroupingSets, groupingCall, hasGroupingSets } from './groupingSets.ts';
import { filter, selectItems } from './select.ts';
import { COLLECTING, collectingArgs, listAggArgs } from './collectingCalls.ts';

/** Flink's aggregate functions Weir computes, by the call they become. */
const AGGREGATE_FNS: Record<string, AggregateCall['fn']> = { COUNT: 'count', SUM: 'sum', AVG: 'avg', MIN: 'min', MAX: 'max', FIRST_VALUE: 'firstValue', LAST_VALUE: 'lastValue', LISTAGG: 'listAgg' };
const AGGREGATES = new Set(Object.keys(AGGREGATE_FNS));
/** Aggregates over the distinct values of their argument (`SUM(DISTINCT x)`). */
const DISTINCT_FNS: Record<string, AggregateCall['fn']> = { COUNT: 'countDistinct', SUM: 'sumDistinct', AVG: 'avgDistinct', LISTAGG: 'listAggDistinct' };
const OTHER_AGGREGATES = new Set(['COLLECT']);
/** Variances and standard deviations: STDDEV and VARIANCE are the sample forms, as in Flink. */
const SPREADS: Record<string, { sample: boolean; root: boolean }> = {
  VAR_POP: { sample: false, root: false },
  VAR_SAMP: { sample: true, root: false },
  VARIANCE: { sample: true, root: false },
  STDDEV_POP: { sample: false, root: true },
  STDDEV_SAMP: { sample: true, root: true },
  STDDEV: { sample: true, root: true },
};
const WINDOW_FUNCTIONS: Record<string, string> = { START: 'window_start', END: 'window_end', ROWTIME: 'window_time', PROCTIME: 'window_time' };
export const normal = (sql: string, t: Tree): string => textOf(sql, t).replace(/\s+/g, ' ').replace(/`/g, '').toUpperCase();

/**
 * The created functions this view calls as aggregates: those Weir's export annotated with their
 * code (`udafs`, by output column).
 */
export function udafNames(env: Env): ReadonlySet<string> {
  return env.annotation?.udafs && typeof env.annotation.udafs === 'object' ? env.functions : new Set();
}

/** Aggregate calls under t, not looking inside OVER windows. */
function aggregateCalls(t: Tree, udafs: ReadonlySet<string>, out: Tree[] = []): Tree[] {
  if (ruleOf(t) === 'overWindowItem' || ruleOf(t) === 'windowSpec') return out;
  if (altOf(t) === 'FunctionCall') {
    const n = callName(t);
    if (n && (AGGREGATES.has(n) || n in SPREADS || n in COLLECTING || OTHER_AGGREGATES.has(n) || udafs.has(n))) {
      out.push(t);
      return out;
    }
  }
  for (const c of kids(t)) aggregateCalls(c, udafs, out);
  return out;
}

export function isAggregating(sel: Tree, env: Env): boolean {
  return !!childOf(sel, 'groupByClause') || !!childOf(sel, 'havingClause') || aggregateCalls(childOf(sel, 'selectClause')!, udafNames(env)).length > 0;
}

/** `CAST(col AS DOUBLE)` (how the export writes Weir's floating-point AVG): the column, else null. */
export function doubleCastColumn(t: Tree, env: Env): Tree | null {
  let x = t;
  while (kids(x).length === 1 && !kids(x)[0].symbol && altOf(x) !== 'Cast') x = kids(x)[0];
  if (altOf(x) !== 'Cast' || !/^(DOUBLE|FLOAT|REAL)$/i.test(textOf(env.sql, childOf(x, 'columnType')!).trim())) return null;
  const operand = childOf(x, 'expression')!;
  return columnRef(operand) ? operand : null;
}

/** The FILTER (WHERE …) the prepass lifted from right after this call, as a subtree of its own parse. */
function filterOf(env: Env, call: Tree): { cond: Tree; sql: string } | null {
  const end = lastToken(call)!.stop + 1;
  const f = env.prep.filters.find((x) => x.at >= end && env.prep.text.slice(end, x.at).trim() === '');
  if (!f) return null;
  const head = 'SELECT 1 FROM t WHERE ';
  const sub = `${head}${f.cond}`;
  const { tree, errors } = parseFlinkSql(sub);
  if (!tree) fail(call, 'FILTER (WHERE …)', `the condition does not parse: ${errors[0]?.message ?? ''}`);
  return { cond: kids(find(tree, 'whereClause')!).find((k) => !k.symbol)!, sql: sub };
}

interface GroupWindow {
  type: string;
  params: Record<string, unknown>;
  at: Tree;
}

function groupWindow(t: Tree, rel: Rel, env: Env): GroupWindow {
  const fn = unquote(childOf(t, 'groupWindowFunctionName')!.getText()).toUpperCase();
  const attr = childOf(t, 'timeAttrColumn')!;
  const time = attr.getText();
  // `B.dateTime` names its table: the column of that name the alias qualifies.
  const ids = findAll(attr, 'identifier').map((i) => unquote(i.getText()));
  const name = ids.at(-1) ?? unquote(time);
  const qual = ids.length > 1 ? ids[0] : null;
  const col = rel.cols.find((c) => c.name === name && (qual === null || c.quals.includes(qual)));
  // Over an updating input any timestamp column may be bucketed (see planAggregate); otherwise it is the time attribute.
  if (!col || (col.field !== rel.eventTime && !(rel.updating && fn === 'TUMBLE'))) fail(t, `${fn}(${time}, …)`, `\`${time}\` is not the input's time attribute${rel.eventTime ? ` (that is \`${rel.eventTime}\`)` : ': declare WATERMARK FOR it in CREATE TABLE'}`);
  const ms = childrenOf(t, 'timeIntervalExpression').map((i) => intervalMs(textOf(env.sql, i), i, fn));
  const want = fn === 'HOP' ? 2 : 1;
  if (ms.length !== want) fail(t, fn, `expected ${fn}(time, ${fn === 'HOP' ? 'slide, size' : fn === 'SESSION' ? 'gap' : 'size'})`);
  if (fn === 'TUMBLE') return { type: 'tumble', params: { sizeMs: ms[0], field: col.field }, at: t };
  if (fn === 'HOP') return { type: 'hop', params: { slideMs: ms[0], sizeMs: ms[1] }, at: t };
  if (fn === 'SESSION') return { type: 'session', params: { gapMs: ms[0] }, at: t };
  fail(t, fn, 'group windows are TUMBLE, HOP and SESSION');
}

function callWindow(fn: string, args: Tree[], rel: Rel, env: Env, at: Tree): GroupWindow {
  const time = columnRef(args[0] ?? at);
  const col = time ? rel.cols.find((c) => c.name === time.name) : null;
  if (!col || (col.field !== rel.eventTime && !(rel.updating && fn === 'TUMBLE'))) fail(at, `${fn}(…)`, `the first argument must be the input's time attribute${rel.eventTime ? ` (\`${rel.eventTime}\`)` : ': declare WATERMARK FOR it in CREATE TABLE'}`);
  const ms = args.slice(1).map((a) => intervalMs(textOf(env.sql, a), a, fn));
  const want = fn === 'HOP' ? 2 : 1;
  if (ms.length !== want) fail(at, fn, `expected ${fn}(time, ${fn === 'HOP' ? 'slide, size' : fn === 'SESSION' ? 'gap' : 'size'})`);
  if (fn === 'HOP') return { type: 'hop', params: { slideMs: ms[0], sizeMs: ms[1] }, at };
  if (fn === 'SESSION') return { type: 'session', params: { gapMs: ms[0] }, at };
  return { type: 'tumble', params: { sizeMs: ms[0], field: col.field }, at };
}

/**
 * A ROW_NUMBER() OVER (…) in the same SELECT as the GROUP BY ranks the aggregated rows: `skip` is
 * that item, left out here, and `hidden` the columns its PARTITION BY and ORDER BY read that the
 * SELECT list does not (SUM(price) when only COUNT(*) is selected), appended after the others.
 */
export interface RankedAggregate {
  skip: Tree;
  hidden: { name: string; expr: Tree }[];
}

export function planAggregate(sel: Tree, from: FromRel, env: Env, ranked?: RankedAggregate): Rel {
  const groupBy = childOf(sel, 'groupByClause');
  const grouping = groupBy && hasGroupingSets(groupBy) ? expandGroupingSets(groupBy, from, env) : null;
  const rel: Rel = grouping?.rel ?? from;
  const inScope = scopeOf(env, rel);
  const selectClause = childOf(sel, 'selectClause')!;
  const distinctSelect = !!childOf(selectClause, 'setQuantifier') && keywordsOf(childOf(selectClause, 'setQuantifier')!).includes('DISTINCT');
  const having = childOf(sel, 'havingClause');
  const havingCond = having ? kids(having).find((k) => !k.symbol)! : null;
  let window: GroupWindow | null = from.tvf ? { type: from.tvf.type, params: from.tvf.params, at: from.tvf.at } : null;

  const set: { name: string; expr: string }[] = [];
  const keys: { field: string; col: Col; text: string | null }[] = [];
  const windowCols = new Set<string>();
  const groupItems = groupBy && !grouping ? childrenOf(groupBy, 'groupItemDefinition') : [];
  if (grouping) keys.push(...grouping.keys.map((col) => ({ field: col.field, col, text: null })));
  for (const w of grouping?.windowCols ?? []) windowCols.add(w);
  for (const item of groupItems) {
    const gw = childOf(item, 'groupWindowFunction');
    if (gw) {
      if (window) fail(gw, 'GROUP BY', 'one window per aggregation');
      window = groupWindow(gw, rel, env);
      continue;
    }
    const body = kids(item).find((k) => !k.symbol)!;
    const fnCall = find(body, 'functionCallExpression');
    const fnName = fnCall && textOf(env.sql, fnCall) === textOf(env.sql, body) ? callName(fnCall) : null;
    if (fnName === 'HOP' || fnName === 'SESSION' || fnName === 'TUMBLE') {
      // The grammar reads only TUMBLE as a group window; HOP and SESSION arrive as calls.
      if (window) fail(body, 'GROUP BY', 'one window per aggregation');
      window = callWindow(fnName, callArgs(fnCall!).args, rel, env, body);
      continue;
    }
    const ref = columnRef(body);
    if (ref) {
      if (from.tvf && ['window_start', 'window_end', 'window_time'].includes(ref.name)) {
        windowCols.add(ref.name);
        continue;
      }
      const col = resolve(inScope, ref.qual, ref.name, body);
      if (!keys.some((k) => k.field === col.field)) keys.push({ field: col.field, col, text: null });
      continue;
    }
    const name = `_key${keys.length + 1}`;
    set.push({ name, expr: weirExpr(body, inScope, 'GROUP BY') });
    keys.push({ field: name, col: { field: name, name, quals: [], type: null }, text: normal(env.sql, body) });
  }
  if (from.tvf && (!windowCols.has('window_start') || !windowCols.has('window_end'))) fail(groupBy ?? sel, 'GROUP BY', `a ${from.tvf.type.toUpperCase()} window table function is aggregated with GROUP BY window_start, window_end[, keys]`);
  const sessionKeys = from.tvf?.partitionBy;
  if (sessionKeys && (sessionKeys.length !== keys.length || keys.some((k) => !sessionKeys.includes(k.field)))) {
    // Weir's session windows are per grouping key, so the sessions are cut by exactly the keys grouped by.
    fail(groupBy ?? sel, 'GROUP BY', `a SESSION window table function is aggregated by its partition keys: SESSION(TABLE t PARTITION BY ${keys.map((k) => k.col.name).join(', ') || 'k'}, …) with GROUP BY window_start, window_end${keys.length ? `, ${keys.map((k) => k.col.name).join(', ')}` : ''}`);
  }
  let bucketed = false;
  if (window && rel.updating) {
    if (window.type !== 'tumble') fail(window.at, `${window.type.toUpperCase()} window over an updating input`, 'not supported yet (the input is a join, aggregate or upsert table); the nearest supported form is a TUMBLE window, or windowing the append-only source first');
    // A tumbling window over updates is a GROUP BY of the window bucket: the same final table,
    // updated as rows come and go (Flink's group window on a retract stream) rather than once at the window's end.
    const field = (window.params.field as string | undefined) ?? 'window_time';
    const size = window.params.sizeMs as number;
    const offset = (window.params.offsetMs as number | undefined) ?? 0;
    const start = `CAST(${quoteName(field)} AS BIGINT) - MOD(CAST(${quoteName(field)} AS BIGINT) - ${offset} + ${size * 1_000_000}, ${size})`;
    set.push({ name: 'window_start', expr: start }, { name: 'window_end', expr: `${start} + ${size}` }, { name: 'window_time', expr: `${start} + ${size - 1}` });
    for (const w of ['window_start', 'window_end', 'window_time']) keys.push({ field: w, col: { field: w, name: w, quals: [], type: 'timestamp' }, text: null });
    env.warn(window.at, 'a TUMBLE window over an updating input is planned as a GROUP BY of the window bucket: the final table is the same, and it updates as rows change');
    bucketed = true;
    window = null;
  }
  if (window) delete window.params.field;

  const items = [
    ...selectItems(sel, rel, env).filter((it) => !ranked || it.expr !== ranked.skip),
    ...(ranked?.hidden ?? []).map((h) => ({ name: h.name, expr: h.expr, col: null, at: h.expr })),
  ];
  if (distinctSelect) {
    if (groupBy) fail(selectClause, 'SELECT DISTINCT', 'with GROUP BY, DISTINCT changes nothing; drop it');
    for (const it of items) {
      const ref = it.col ?? (it.expr && columnRef(it.expr) ? resolve(inScope, columnRef(it.expr)!.qual, columnRef(it.expr)!.name, it.expr) : null);
      if (ref) keys.push({ field: ref.field, col: ref, text: null });
      else {
        const name = `_key${keys.length + 1}`;
        set.push({ name, expr: weirExpr(it.expr!, inScope, 'SELECT DISTINCT') });
        keys.push({ field: name, col: { field: name, name, quals: [], type: null }, text: normal(env.sql, it.expr!) });
      }
    }
  }

  // Aggregate calls, each computed once however often it is written.
  const calls: AggregateCall[] = [];
  const callColumn = new Map<Tree, string>();
  const byText = new Map<string, string>();
  const sources = [...items.filter((i) => i.expr).map((i) => i.expr!), ...(havingCond ? [havingCond] : [])];
  const udafs = udafNames(env);
  const udafCalls = new Set<AggregateCall>();
  // A variance is not one accumulator: as Flink's planner reduces it (AggregateReduceFunctionsRule),
  // it is SUM(x), SUM(x * x) and COUNT(x), each retractable, and an expression over them after.
  const callExpr = new Map<Tree, string>();
  const spreadByText = new Map<string, string>();
  const reduceSpread = (fn: string, spread: { sample: boolean; root: boolean }, arg: Tree, flt: { cond: Tree; sql: string } | null): string => {
    const base = calls.length + 1;
    const value = weirExpr(arg, inScope, `${fn}(…)`);
    const x = flt ? `CASE WHEN ${render(flt.cond, { ...inScope, sql: flt.sql })} THEN ${value} END` : value;
    set.push({ name: `_arg${base}`, expr: x }, { name: `_arg${base}_sq`, expr: `(${x}) * (${x})` });
    const [sum, squares, n] = [`_agg${base}`, `_agg${base + 1}`, `_agg${base + 2}`];
    calls.push({ fn: 'sum', field: `_arg${base}`, as: sum }, { fn: 'sum', field: `_arg${base}_sq`, as: squares }, { fn: 'count', field: `_arg${base}`, as: n });
    const [S, Q, N] = [sum, squares, n].map(quoteName);
    // Rounding can leave a sum of squared deviations a hair below zero: it is zero.
    const deviations = `GREATEST(${Q} - ${S} * ${S} / ${N}, 0)`;
    const variance = spread.sample ? `CASE WHEN ${N} > 1 THEN ${deviations} / (${N} - 1) END` : `CASE WHEN ${N} > 0 THEN ${deviations} / ${N} END`;
    return spread.root ? `SQRT(${variance})` : variance;
  };
  // Flink's AVG of an integer type is of that type: the mean truncated toward zero (IntAvgAggFunction).
  // Marked per call as written: AVG(n) and AVG(CAST(n AS DOUBLE)) share one column, not one type.
  const integerAvgs = new Set<Tree>();
  const integerAvgTexts = new Set<string>();
  const fieldType = (field: string): FieldType | null => {
    const made = set.find((x) => x.name === field);
    return made ? exprType(made.expr, inScope.cols) : (inScope.cols.find((c) => c.field === field)?.type ?? null);
  };
  for (const c of sources.flatMap((s) => aggregateCalls(s, udafs))) {
    const fn = callName(c)!;
    if (OTHER_AGGREGATES.has(fn)) fail(c, `${fn}(…)`, 'Weir aggregates are COUNT, SUM, AVG (each also with DISTINCT), MIN, MAX, FIRST_VALUE, LAST_VALUE, LISTAGG (also with DISTINCT), ARRAY_AGG, JSON_ARRAYAGG, JSON_OBJECTAGG, STDDEV_POP/SAMP and VAR_POP/SAMP; write others as an aggregate with code (udaf)');
    const { distinct, star } = callArgs(c);
    let { args } = callArgs(c);
    const flt = filterOf(env, c);
    const key = `${normal(env.sql, c)}|${flt ? flt.sql.slice(22).replace(/\s+/g, ' ') : ''}`;
    const known = byText.get(key);
    if (known) {
      callColumn.set(c, known);
      if (integerAvgTexts.has(key)) integerAvgs.add(c);
      continue;
    }
    if (distinct && !(fn in DISTINCT_FNS) && fn !== 'MIN' && fn !== 'MAX') fail(c, `${fn}(DISTINCT …)`, `not supported; COUNT, SUM, AVG and LISTAGG take DISTINCT, and the nearest form for ${fn} is ${fn} over a SELECT DISTINCT subquery`);
    if (udafs.has(fn)) {
      // A user aggregate reads one column, or the whole row when it is called with every column.
      const refs = args.map((a) => columnRef(a));
      const whole = refs.length > 1 && refs.length === rel.cols.length && refs.every((r, i) => r && resolve(inScope, r.qual, r.name, args[i]).field === rel.cols[i].field);
      const one = refs.length === 1 && refs[0] ? resolve(inScope, refs[0].qual, refs[0].name, args[0]).field : null;
      if (!whole && !one) fail(c, `${fn}(…)`, 'a user aggregate takes one column, or every column of its input in order');
      const call: AggregateCall = whole ? { fn: 'udaf', as: `_agg${calls.length + 1}`, code: '' } : { fn: 'udaf', field: one!, as: `_agg${calls.length + 1}`, code: '' };
      calls.push(call);
      udafCalls.add(call);
      byText.set(key, call.as);
      callColumn.set(c, call.as);
      continue;
    }
    if (fn in COLLECTING) {
      if (flt) fail(c, `${fn}(…) FILTER (WHERE …)`, 'not supported; filter the rows in a subquery first');
      if (window?.type === 'session') fail(c, `${fn}(…) in a SESSION window`, `not supported: merging sessions loses the arrival order of the values; the nearest supported form is a TUMBLE, HOP or CUMULATE window, or ${fn} in a GROUP BY over the session window's rows`);
      const spec = collectingArgs(c, fn, env.sql);
      const n = calls.length + 1;
      const fieldOf = (t: Tree, name: string): string => {
        const ref = columnRef(t);
        if (ref) return resolve(inScope, ref.qual, ref.name, t).field;
        set.push({ name, expr: weirExpr(t, inScope, `${fn}(…)`) });
        return name;
      };
      const call: AggregateCall = { fn: COLLECTING[fn], field: fieldOf(spec.value, `_arg${n}`), as: `_agg${n}`, ...(spec.key ? { keyField: fieldOf(spec.key, `_arg${n}_key`) } : {}), ...(spec.nulls ? { nulls: spec.nulls } : {}), ...(spec.jsonValues ? { jsonValues: true } : {}) };
      calls.push(call);
      byText.set(key, call.as);
      callColumn.set(c, call.as);
      continue;
    }
    let separator: string | undefined;
    if (fn === 'LISTAGG') {
      ({ args, separator } = listAggArgs(c, args, star, inScope, window?.type ?? null));
    }
    if (!star && args.length !== 1) fail(c, `${fn}(…)`, 'takes one argument');
    const spread = SPREADS[fn];
    if (spread) {
      if (star) fail(c, `${fn}(*)`, 'only COUNT takes *');
      if (distinct) fail(c, `${fn}(DISTINCT …)`, 'not supported; the nearest supported form is the aggregate over a SELECT DISTINCT subquery');
      const known = spreadByText.get(key);
      if (known) {
        callExpr.set(c, known);
        continue;
      }
      callExpr.set(c, reduceSpread(fn, spread, kids(args[0]).find((k) => !k.symbol) ?? args[0], flt));
      spreadByText.set(key, callExpr.get(c)!);
      continue;
    }
    if (star && fn !== 'COUNT') fail(c, `${fn}(*)`, 'only COUNT takes *');
    const as = `_agg${calls.length + 1}`;
    let field: string | undefined;
    const written = star ? null : kids(args[0]).find((k) => !k.symbol) ?? args[0];
    // Weir's AVG is floating-point already: AVG(CAST(x AS DOUBLE)) is AVG(x).
    const argExpr = written && fn === 'AVG' ? (doubleCastColumn(written, env) ?? written) : written;
    const ref = argExpr ? columnRef(argExpr) : null;
    if (flt) {
      const cond = render(flt.cond, { ...inScope, sql: flt.sql });
      const value = argExpr ? weirExpr(argExpr, inScope, `${fn}(…)`) : '1';
      field = `_arg${calls.length + 1}`;
      set.push({ name: field, expr: `CASE WHEN ${cond} THEN ${value} END` });
    } else if (ref) field = resolve(inScope, ref.qual, ref.name, argExpr!).field;
    else if (argExpr) {
      field = `_arg${calls.length + 1}`;
      set.push({ name: field, expr: weirExpr(argExpr, inScope, `${fn}(…)`) });
    }
    // MIN and MAX are the same over distinct values.
    const aggFn = distinct && fn in DISTINCT_FNS ? DISTINCT_FNS[fn] : AGGREGATE_FNS[fn];
    if (fn === 'AVG' && argExpr === written && field !== undefined && fieldType(field) === 'integer') {
      integerAvgs.add(c);
      integerAvgTexts.add(key);
    }
    const call: AggregateCall = field === undefined ? { fn: 'count', as } : separator === undefined ? { fn: aggFn, field, as } : { fn: aggFn, field, as, separator };
    // Two spellings of one computation (AVG(n) and AVG(CAST(n AS DOUBLE))) are one column.
    const same = calls.find((x) => x.fn === call.fn && x.field === call.field && x.separator === call.separator && !udafCalls.has(x));
    if (same) {
      byText.set(key, same.as);
      callColumn.set(c, same.as);
      continue;
    }
    calls.push(call);
    byText.set(key, as);
    callColumn.set(c, as);
  }
  if (!calls.length) calls.push({ fn: 'count', as: '_count' });
  // An aggregate selected as it is takes its alias as its column name, so no rename is needed after.
  const taken = new Set([...keys.map((k) => k.field), 'window_start', 'window_end', 'window_time']);
  for (const it of items) {
    let x = it.expr;
    while (x && kids(x).length === 1 && !kids(x)[0].symbol && altOf(x) !== 'FunctionCall') x = kids(x)[0];
    const as = x ? callColumn.get(x) : undefined;
    const call = as ? calls.find((c) => c.as === as) : undefined;
    if (!call || taken.has(it.name) || !call.as.startsWith('_agg')) continue;
    taken.add(it.name);
    for (const [t, v] of callColumn) if (v === as) callColumn.set(t, it.name);
    call.as = it.name;
  }
  const codes = (env.annotation?.udafs ?? {}) as Record<string, string>;
  for (const call of udafCalls) {
    if (call.fn !== 'udaf') continue;
    call.code = typeof codes[call.as] === 'string' ? codes[call.as] : fail(selectClause, `aggregate \`${call.as}\``, 'a created function used as an aggregate needs its code: write it as an aggregate with code (udaf)');
  }

  let input = rel;
  if (set.length) {
    const id = nodeId(env, 'prepare');
    env.g.add({ id, kind: 'map', params: { set }, inputs: [['in', rel.node]], at: groupBy ?? selectClause });
    input = { ...rel, node: id };
  }
  const id = nodeId(env, window ? 'window' : 'aggregate');
  const groupFields = keys.map((k) => k.field);
  if (window) env.g.add({ id, kind: 'window', params: { type: window.type, ...window.params, groupBy: groupFields, aggregates: calls }, inputs: [['in', input.node]], at: window.at });
  else env.g.add({ id, kind: 'aggregate', params: { groupBy: groupFields, aggregates: calls }, inputs: [['in', input.node]], at: groupBy ?? selectClause });

  // The window columns keep the qualifier of the window TVF they came from: `t.window_start`.
  const windowQuals = from.tvf ? (rel.cols.find((c) => c.field === 'window_start')?.quals ?? []) : [];
  const wcols: Col[] = window ? ['window_start', 'window_end', 'window_time'].map((w) => ({ field: w, name: w, quals: windowQuals, type: 'timestamp' })) : [];
  const outCols: Col[] = [...keys.map((k) => ({ ...k.col, field: k.field })), ...wcols, ...calls.map((c) => ({ field: c.as, name: c.as, quals: [], type: null }))];
  let out: Rel = { node: id, cols: outCols, eventTime: window ? 'window_time' : null, procTime: [], updating: !window };
  const outScope: Scope = { cols: [...keys.map((k) => ({ ...k.col, field: k.field })), ...wcols], sql: env.sql, tryCasts: env.prep.tryCasts };
  const keyByText = new Map(keys.filter((k) => k.text).map((k) => [k.text!, k.field]));
  const replace: Replace = (t) => {
    const agg = callColumn.get(t);
    if (agg) return integerAvgs.has(t) ? `CAST(${quoteName(agg)} AS BIGINT)` : quoteName(agg);
    const reduced = callExpr.get(t);
    if (reduced) return `(${reduced})`;
    const g = grouping && altOf(t) === 'FunctionCall' ? groupingCall(t, grouping, env) : null;
    if (g) return g;
    if (keyByText.size && (altOf(t) === 'FunctionCall' || altOf(t) === 'Predicated' || ruleOf(t) === 'expression' || ruleOf(t) === 'valueExpression')) {
      const k = keyByText.get(normal(env.sql, t));
      if (k) return quoteName(k);
    }
    if ((window || bucketed) && altOf(t) === 'FunctionCall') {
      const m = /^(TUMBLE|HOP|SESSION)_(START|END|ROWTIME|PROCTIME)$/.exec(callName(t) ?? '');
      if (m) return quoteName(WINDOW_FUNCTIONS[m[2]]);
    }
    return null;
  };
  const post = (e: Tree, construct: string): string => {
    try {
      return weirExpr(e, outScope, construct, replace);
    } catch (err) {
      if (!(err instanceof ImportError) || !/^column /.test(err.construct)) throw err;
      const name = err.construct.replace(/^column /, '');
      fail({ line: err.line, column: err.column, endLine: err.line, endColumn: err.column }, `column ${name}`, `is neither in GROUP BY nor inside an aggregate; group by it, or aggregate it (MIN, MAX, …)`);
    }
  };
  if (havingCond) out = filter(out, havingCond, env, 'HAVING', (e) => post(e, 'HAVING'));
  const fields = items.map((it) => {
    if (!it.col) return { name: it.name, expr: post(it.expr!, 'SELECT list') };
    const key = keys.find((k) => k.col.field === it.col!.field);
    if (!key) fail(it.at, `column ${it.name}`, 'is neither in GROUP BY nor inside an aggregate; group by it, or aggregate it (MIN, MAX, …)');
    return { name: it.name, expr: quoteName(key.field) };
  });
  return projectTexts(out, fields, env, selectClause);
}

const resolve = resolveColumn;

/** A project of already-rendered expressions; none when it is the identity. */
function projectTexts(rel: Rel, fields: { name: string; expr: string }[], env: Env, at: Tree): Rel {
  const seen = new Set<string>();
  for (const f of fields) {
    if (seen.has(f.name)) fail(at, 'SELECT list', `two columns are named \`${f.name}\`; give one another name with AS`);
    seen.add(f.name);
  }
  const identity = fields.length === rel.cols.length && fields.every((f, i) => f.name === rel.cols[i].field && f.expr === quoteName(rel.cols[i].field));
  const cols: Col[] = fields.map((f) => {
    const src = rel.cols.find((c) => quoteName(c.field) === f.expr);
    return { field: f.name, name: f.name, quals: [], type: src?.type ?? null };
  });
  if (identity) return { ...rel, cols };
  const id = nodeId(env, 'project');
  env.g.add({ id, kind: 'project', params: { fields }, inputs: [['in', rel.node]], at });
  const time = fields.find((f) => rel.eventTime && f.expr === quoteName(rel.eventTime))?.name ?? null;
  return { node: id, cols, eventTime: time, procTime: [], updating: rel.updating };
}
