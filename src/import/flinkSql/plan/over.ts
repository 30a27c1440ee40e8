/**
 * OVER aggregation: `agg(x) OVER (PARTITION BY … ORDER BY <time attribute> ROWS|RANGE BETWEEN …
 * PRECEDING AND CURRENT ROW)` and `LAG(x, offset, default) OVER (PARTITION BY … ORDER BY <time
 * attribute>)` items of a SELECT list → one overAggregate node (every OVER item shares one window,
 * as in Flink's planner) and the SELECT list over its output.
 */
import type { LagDefault, OverCall } from '../../../pipeline/kinds/aggregateCall.ts';
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { childOf, childrenOf, find, findAll, keywordsOf, kids, textOf, unquote } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Col, Rel } from './model.ts';
import { fail, quoteName } from './model.ts';
import type { Env } from './env.ts';
import { nodeId, scopeOf } from './env.ts';
import { callArgs, callName, columnRef, constantValue, intervalMs, resolveColumn, weirExpr } from './expr.ts';
import { doubleCastColumn } from './aggregate.ts';
import { project, selectItems } from './select.ts';
import { exprType } from './exprForms.ts';
import { liftedIn, overCallTree } from './overLift.ts';

const RANKING = new Set(['ROW_NUMBER', 'RANK', 'DENSE_RANK']);
const OVER_AGGREGATES: Record<string, OverCall['fn']> = { COUNT: 'count', SUM: 'sum', AVG: 'avg', MIN: 'min', MAX: 'max', FIRST_VALUE: 'firstValue', LAST_VALUE: 'lastValue', LAG: 'lag' };

const constantArg = (arg: Tree, env: Env, what: string): LagDefault => constantValue(arg, { cols: [], sql: env.sql, tryCasts: env.prep.tryCasts }, what);

/** LAG's offset and default, as Flink's LagAggFunction takes them: a non-negative offset, default 1, and a constant default. */
function lagExtras(args: Tree[], env: Env, w: Tree): Pick<OverCall, 'offset' | 'default'> {
  if (args.length < 1 || args.length > 3) fail(w, 'LAG(…) OVER', 'takes LAG(value [, offset [, default]])');
  const out: Pick<OverCall, 'offset' | 'default'> = {};
  if (args[1]) {
    const offset = constantArg(args[1], env, 'LAG(…, offset)');
    if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) fail(args[1], 'LAG(…, offset)', `the offset is a whole number of rows, 0 or more; found ${textOf(env.sql, args[1])}`);
    if (offset !== 1) out.offset = offset;
  }
  if (args[2]) {
    const d = constantArg(args[2], env, 'LAG(…, …, default)');
    if (d !== null) out.default = d;
  }
  return out;
}

/** The OVER items of a SELECT list that aggregate (not ROW_NUMBER() and its kin). */
export function overAggregateItems(sel: Tree): Tree[] {
  return findAll(childOf(sel, 'selectClause')!, 'overWindowItem').filter((w) => !RANKING.has(callName(kids(w)[0]) ?? ''));
}

interface Frame {
  frame: 'rows' | 'range';
  precedingRows?: number;
  precedingMs?: number;
}

function frameOf(spec: Tree, env: Env): Frame {
  const f = childOf(spec, 'windowFrame');
  // Without a frame, an ordered OVER window is RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW.
  if (!f) return { frame: 'range' };
  const text = textOf(env.sql, f).replace(/\s+/g, ' ').trim();
  const m = /^(ROWS|RANGE) (?:BETWEEN )?(UNBOUNDED|\d+|INTERVAL .+?) PRECEDING(?: AND CURRENT ROW)?$/i.exec(text);
  if (!m) fail(f, 'OVER (… frame)', `expected ROWS|RANGE BETWEEN … PRECEDING AND CURRENT ROW, found ${text}`);
  const frame = m[1].toLowerCase() as 'rows' | 'range';
  const bound = m[2].toUpperCase();
  if (bound === 'UNBOUNDED') return { frame };
  if (frame === 'rows') {
    if (!/^\d+$/.test(bound)) fail(f, 'ROWS BETWEEN', 'a ROWS frame counts rows: ROWS BETWEEN 2 PRECEDING AND CURRENT ROW');
    return { frame, precedingRows: Number(bound) };
  }
  if (/^\d+$/.test(bound)) fail(f, 'RANGE BETWEEN', "a RANGE frame over event time is an interval: RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW");
  return { frame, precedingMs: intervalMs(m[2], f, 'RANGE BETWEEN') };
}

/** `OVER w` with `WINDOW w AS (…)` after the FROM/WHERE: the named window's spec. */
function namedWindow(sel: Tree, w: Tree, env: Env): Tree {
  const ks = kids(w);
  const over = ks.findIndex((k) => k.symbol?.text?.toUpperCase() === 'OVER');
  const name = over >= 0 && ks[over + 1] && !ks[over + 1].symbol ? ks[over + 1].getText() : undefined;
  const defs = findAll(sel, 'namedWindow');
  const hit = name ? defs.find((d) => unquote(textOf(env.sql, d).split(/\s+AS\s*\(/i)[0].trim()) === unquote(name)) : undefined;
  if (!hit) fail(w, `OVER ${name ?? '…'}`, `no WINDOW ${name ?? 'w'} AS (PARTITION BY … ORDER BY …) in this SELECT${defs.length ? ` (it names ${defs.map((d) => textOf(env.sql, d).split(/\s+AS\b/i)[0].trim()).join(', ')})` : ''}`);
  return childOf(hit, 'windowSpec')!;
}

/** The SELECT list's OVER aggregates, whole items and those inside expressions (overLift.ts). */
export function hasOverAggregates(sel: Tree, env: Env): boolean {
  return overAggregateItems(sel).length > 0 || liftedIn(childOf(sel, 'selectClause')!, env.prep.overCalls).length > 0;
}

export function planOver(sel: Tree, rel: Rel, env: Env): Rel {
  const lifted = liftedIn(childOf(sel, 'selectClause')!, env.prep.overCalls);
  // The calls are read from the script with the lifted ones written back: the same text at every
  // offset outside them, so trees of either parse read their own text.
  const items = selectItems(sel, rel, env);
  if (lifted.length) env = { ...env, sql: env.prep.unlifted };
  const selectAt = (sel.start as { start: number }).start;
  const overs = [...overAggregateItems(sel).map((w) => ({ w, name: null as string | null })), ...lifted.map((l) => ({ w: overCallTree(env.sql, selectAt, l, sel), name: l.name }))];
  const scope = scopeOf(env, rel);
  let window: { key: string; partitionBy: string[]; frame: Frame } | null = null;
  const calls: OverCall[] = [];
  const argSet: { name: string; expr: string }[] = [];
  const integerAvgs: { name: string; expr: string }[] = [];
  const byItem = new Map<Tree, Col>();
  const taken = new Set(rel.cols.map((c) => c.field));
  for (const { w, name } of overs) {
    const spec = childOf(w, 'windowSpec') ?? namedWindow(sel, w, env);
    const order = childOf(spec, 'orderByClause') ?? fail(spec, 'OVER (…)', 'needs ORDER BY the time attribute');
    const orderItems = childrenOf(order, 'orderItemDefinition');
    const ref = orderItems.length === 1 ? columnRef(childOf(orderItems[0], 'columnName') ?? kids(orderItems[0])[0]) : null;
    const time = ref ? resolveColumn(scope, ref.qual, ref.name, order) : null;
    if (!time || time.field !== rel.eventTime || keywordsOf(orderItems[0]).includes('DESC')) {
      fail(order, 'OVER (ORDER BY …)', `OVER aggregation orders by the time attribute, ascending${rel.eventTime ? ` (\`${rel.eventTime}\`)` : ': declare WATERMARK FOR it in CREATE TABLE'}`);
    }
    const part = childOf(spec, 'partitionByClause');
    const partitionBy = part ? childrenOf(part, 'columnName').map((c) => {
      const r = columnRef(c) ?? fail(c, 'PARTITION BY', 'expected a column');
      return resolveColumn(scope, r.qual, r.name, c).field;
    }) : [];
    const frame = frameOf(spec, env);
    const key = JSON.stringify([partitionBy, frame]);
    if (window && window.key !== key) fail(w, 'OVER (…)', 'every OVER aggregate of one SELECT uses the same window; compute the others in a query of their own and join them');
    window ??= { key, partitionBy, frame };
    const fnName = callName(kids(w)[0]) ?? '';
    if (fnName === 'LEAD') fail(w, 'LEAD(…) OVER', "Flink's streaming planner refuses LEAD: it needs rows that have not arrived yet. The nearest supported form is LAG(…) OVER (PARTITION BY … ORDER BY …), which looks back instead");
    const fn = OVER_AGGREGATES[fnName] ?? fail(w, `${fnName}() OVER (…)`, 'OVER aggregates are COUNT, SUM, AVG, MIN, MAX, FIRST_VALUE, LAST_VALUE and LAG');
    // Calcite refuses ROWS/RANGE with LAG and gives it RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW, the frameless window's.
    if (fn === 'lag' && childOf(spec, 'windowFrame')) fail(childOf(spec, 'windowFrame')!, 'LAG(…) OVER (… ROWS/RANGE …)', 'Flink takes no frame with LAG: write LAG(x) OVER (PARTITION BY … ORDER BY <time attribute>)');
    const { args: allArgs, distinct, star } = callArgs(kids(w)[0]);
    const extras = fn === 'lag' ? lagExtras(allArgs, env, w) : {};
    const args = fn === 'lag' ? allArgs.slice(0, 1) : allArgs;
    if (distinct) fail(w, `${fnName}(DISTINCT …) OVER`, 'not supported; aggregate DISTINCT values with GROUP BY');
    const itemName = name ?? items.find((i) => i.expr === w)!.name;
    if (name && taken.has(name)) fail(w, 'OVER call inside an expression', `the input already has a column named ${name}; rename it`);
    const as = taken.has(itemName) ? nodeId(env, `over_${itemName}`) : itemName;
    taken.add(as);
    let type: Col['type'] = null;
    if (star || (fn === 'count' && !args.length)) calls.push({ fn: 'count', as });
    else {
      if (args.length !== 1) fail(w, `${fnName}(…) OVER`, 'takes one argument');
      // Weir's AVG is floating-point already: AVG(CAST(x AS DOUBLE)) is AVG(x).
      const arg = fn === 'avg' ? (doubleCastColumn(args[0], env) ?? args[0]) : args[0];
      const argRef = columnRef(arg);
      let argType: Col['type'];
      if (argRef) {
        const col = resolveColumn(scope, argRef.qual, argRef.name, arg);
        calls.push({ fn, field: col.field, as, ...extras });
        if (fn !== 'sum' && fn !== 'avg') type = col.type;
        argType = col.type;
      } else {
        // An expression argument is computed before the window, into a field of its own.
        const field = `_over_arg${argSet.length + 1}`;
        const expr = weirExpr(arg, scope, `${fnName}(…) OVER`);
        argSet.push({ name: field, expr });
        calls.push({ fn, field, as, ...extras });
        argType = exprType(expr, scope.cols);
      }
      // Flink's AVG of an integer type is of that type: the mean truncated toward zero.
      if (fn === 'avg' && arg === args[0] && argType === 'integer') {
        integerAvgs.push({ name: as, expr: `CAST(${quoteName(as)} AS BIGINT)` });
        type = 'integer';
      }
    }
    byItem.set(w, { field: as, name: as, quals: [], type: fn === 'count' ? 'integer' : type });
  }
  if (!window) throw new Error('no OVER item');
  const first = overs[0].w;
  if (rel.updating) fail(first, 'OVER (…)', 'OVER aggregation takes an append-only input (as in Flink); this one is updating (a join, aggregate or changelog table)');
  let input = rel.node;
  if (argSet.length) {
    input = nodeId(env, 'over_args');
    env.g.add({ id: input, kind: 'map', params: { set: argSet }, inputs: [['in', rel.node]], at: first });
  }
  let id = nodeId(env, 'over');
  env.g.add({ id, kind: 'overAggregate', params: { partitionBy: window.partitionBy, ...window.frame, aggregates: calls }, inputs: [['in', input]], at: find(first, 'windowSpec') ?? first });
  if (integerAvgs.length) {
    const over = id;
    id = nodeId(env, 'over_avg');
    env.g.add({ id, kind: 'map', params: { set: integerAvgs }, inputs: [['in', over]], at: first });
  }
  const out: Rel = { ...rel, node: id, cols: [...rel.cols, ...[...byItem.values()]], updating: false };
  return project(out, items.map((i) => (i.expr && byItem.has(i.expr) ? { ...i, expr: null, col: byItem.get(i.expr)! } : i)), env, childOf(sel, 'selectClause')!);
}
