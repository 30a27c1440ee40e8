/**
 * Joins in FROM: regular and outer joins on key equalities, interval joins (time bounds between
 * the two time attributes, as BETWEEN or >=/<=/>/< pairs), temporal joins FOR SYSTEM_TIME AS OF the
 * left time attribute, lookup joins FOR SYSTEM_TIME AS OF a PROCTIME() column;
 * and window table functions (TUMBLE/HOP/CUMULATE with an optional offset) for the GROUP BY above.
 */
import { renameRight } from '../../../pipeline/kinds/joinColumns.ts';
import { compileExpr } from '../../../expr/index.ts';
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { altOf, childOf, childrenOf, find, firstToken, keywordsOf, kids, ruleOf, textOf, unquote } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Col, Rel } from './model.ts';
import { fail, requalify } from './model.ts';
import type { Env } from './env.ts';
import { nodeId, scopeOf } from './env.ts';
import type { Scope } from './expr.ts';
import { columnRef, intervalMs, weirExpr } from './expr.ts';
import type { FromRel } from './select.ts';
import { filter, finish, planFromItem } from './select.ts';
import { planWindowJoin } from './windowJoin.ts';
import { mergeUsing, usingKeys } from './joinUsing.ts';
import { planUnnest, unnestSide } from './unnest.ts';
import { pathName } from './tableNames.ts';

type Side = 'l' | 'r';

/** Top-level AND conjuncts of a boolean expression. */
export function conjuncts(t: Tree): Tree[] {
  let x = t;
  while (ruleOf(x) === 'expression' && kids(x).length === 1) x = kids(x)[0];
  if (altOf(x) === 'LogicalBinary' && keywordsOf(x).includes('AND')) return kids(x).filter((k) => !k.symbol).flatMap(conjuncts);
  if (altOf(x) === 'Predicated' && kids(x).length === 1) {
    const v = kids(x)[0];
    const p = altOf(v) === 'ValueExpressionDefault' ? kids(v)[0] : null;
    if (p && altOf(p) === 'ParenthesizedExpression') return conjuncts(kids(p).find((k) => !k.symbol)!);
  }
  return [t];
}

/** Which sides' columns an expression reads. */
function sidesOf(t: Tree, left: Scope, right: Scope): Set<Side> {
  const out = new Set<Side>();
  const visit = (x: Tree) => {
    const ref = altOf(x) === 'ColumnReference' || (x.symbol && /^`/.test(x.symbol.text ?? '')) ? columnRef(x) ?? (x.symbol ? { qual: null, name: unquote(x.symbol.text!) } : null) : null;
    if (ref) {
      const inL = left.cols.some((c) => c.name === ref.name && (!ref.qual || c.quals.includes(ref.qual)));
      const inR = right.cols.some((c) => c.name === ref.name && (!ref.qual || c.quals.includes(ref.qual)));
      if (inL && !inR) out.add('l');
      else if (inR && !inL) out.add('r');
      else if (inL && inR) out.add(ref.qual ? 'l' : 'l').add('r');
      return;
    }
    kids(x).forEach(visit);
  };
  visit(t);
  return out;
}

/** `col`, `col + INTERVAL …` or `col - INTERVAL …` over one side's time attribute. */
function timeTerm(t: Tree, env: Env, l: Rel, r: Rel): { side: Side; ms: number } | null {
  let x = t;
  while (kids(x).length === 1 && !kids(x)[0].symbol) x = kids(x)[0];
  if (altOf(x) === 'ParenthesizedExpression') return timeTerm(kids(x).find((k) => !k.symbol)!, env, l, r);
  const side = (ref: { qual: string | null; name: string }): Side | null => {
    const lc = l.cols.find((c) => c.name === ref.name && (!ref.qual || c.quals.includes(ref.qual)));
    const rc = r.cols.find((c) => c.name === ref.name && (!ref.qual || c.quals.includes(ref.qual)));
    if (lc && !rc && lc.field === l.eventTime) return 'l';
    if (rc && !lc && rc.field === r.eventTime) return 'r';
    return null;
  };
  const ref = columnRef(x);
  if (ref) {
    const s = side(ref);
    return s ? { side: s, ms: 0 } : null;
  }
  if (altOf(x) === 'ArithmeticBinary') {
    const [a, op, b] = kids(x);
    const iv = find(b, 'timeIntervalExpression');
    const inner = timeTerm(a, env, l, r);
    if (!inner || !iv || !op.symbol || !['+', '-'].includes(op.symbol.text!)) return null;
    const ms = intervalMs(textOf(env.sql, iv), iv, 'interval join bound');
    return { side: inner.side, ms: inner.ms + (op.symbol.text === '-' ? -ms : ms) };
  }
  return null;
}

interface Bounds {
  lower: number | null;
  upper: number | null;
}

/** Adds `a op b` (time terms) to the bounds of right.t − left.t; false when it is not a time bound. */
function addBound(a: { side: Side; ms: number }, op: string, b: { side: Side; ms: number }, bounds: Bounds): boolean {
  if (a.side === b.side) return false;
  // a.t + a.ms op b.t + b.ms  ⇒  r − l op' c
  let c: number;
  let o = op;
  if (a.side === 'r') c = b.ms - a.ms;
  else {
    c = a.ms - b.ms;
    o = { '>=': '<=', '<=': '>=', '>': '<', '<': '>' }[op] ?? op;
  }
  if (o === '>=') bounds.lower = Math.max(bounds.lower ?? -Infinity, c);
  else if (o === '>') bounds.lower = Math.max(bounds.lower ?? -Infinity, c + 1);
  else if (o === '<=') bounds.upper = Math.min(bounds.upper ?? Infinity, c);
  else if (o === '<') bounds.upper = Math.min(bounds.upper ?? Infinity, c - 1);
  else return false;
  return true;
}

function timeBound(t: Tree, env: Env, l: Rel, r: Rel, bounds: Bounds): boolean {
  let x = t;
  while (ruleOf(x) === 'expression' && kids(x).length === 1) x = kids(x)[0];
  if (altOf(x) === 'Predicated') {
    const pred = childOf(x, 'predicate');
    const kw = pred ? keywordsOf(pred) : [];
    if (pred && kw.includes('BETWEEN') && !kw.includes('NOT')) {
      const o = timeTerm(kids(x)[0], env, l, r);
      const [lo, hi] = kids(pred).filter((k) => !k.symbol).map((k) => timeTerm(k, env, l, r));
      if (!o || !lo || !hi) return false;
      const trial = { ...bounds };
      if (!addBound(o, '>=', lo, trial) || !addBound(o, '<=', hi, trial)) return false;
      Object.assign(bounds, trial);
      return true;
    }
    const v = kids(x)[0];
    if (kids(x).length === 1 && altOf(v) === 'Comparison') {
      const [a, op, b] = kids(v);
      const ta = timeTerm(a, env, l, r);
      const tb = timeTerm(b, env, l, r);
      return !!ta && !!tb && addBound(ta, op.getText(), tb, bounds);
    }
  }
  return false;
}

/** `l.a = r.b`: the pair of fields, or null. */
export function keyPair(t: Tree, ls: Scope, rs: Scope): { l: Col; r: Col } | null {
  let x = t;
  while (kids(x).length === 1 && !kids(x)[0].symbol) x = kids(x)[0];
  if (altOf(x) !== 'Comparison') return null;
  const [a, op, b] = kids(x);
  if (op.getText() !== '=') return null;
  const ra = columnRef(a);
  const rb = columnRef(b);
  if (!ra || !rb) return null;
  const find1 = (s: Scope, ref: { qual: string | null; name: string }) => s.cols.filter((c) => c.name === ref.name && (!ref.qual || c.quals.includes(ref.qual)));
  const [al, ar, bl, br] = [find1(ls, ra), find1(rs, ra), find1(ls, rb), find1(rs, rb)];
  if (al.length === 1 && !ar.length && br.length === 1 && !bl.length) return { l: al[0], r: br[0] };
  if (ar.length === 1 && !al.length && bl.length === 1 && !br.length) return { l: bl[0], r: ar[0] };
  return null;
}

function joinType(words: string[]): 'inner' | 'left' | 'right' | 'full' | 'cross' {
  if (words.includes('LEFT')) return 'left';
  if (words.includes('RIGHT')) return 'right';
  if (words.includes('FULL')) return 'full';
  if (words.includes('CROSS')) return 'cross';
  return 'inner';
}

export function planJoin(t: Tree, leftT: Tree, rightT: Tree, env: Env, onOverride: Tree | null = null): FromRel {
  const words = keywordsOf(t);
  const comma = kids(t).some((k) => k.symbol?.text === ',');
  const type = comma ? 'inner' : joinType(words);
  const unnest = unnestSide(rightT);
  if (unnest) {
    const cond = childOf(t, 'joinCondition');
    const on = onOverride ?? (cond ? kids(cond).find((k) => !k.symbol)! : null);
    return planUnnest(t, finish(planFromItem(leftT, env), env, leftT), unnest, type, on, env, (rel, c) => filter(rel, c, env));
  }
  const left0 = planFromItem(leftT, env);
  if (left0.tvf && !find(rightT, 'systemTimePeriod')) {
    const right0 = planFromItem(rightT, env);
    const cond0 = childOf(t, 'joinCondition');
    const on0 = onOverride ?? (cond0 ? kids(cond0).find((k) => !k.symbol)! : null);
    if (right0.tvf && on0 && type !== 'cross') return planWindowJoin(t, type, left0, right0, on0, env);
    finish(right0, env, rightT);
  }
  const left = finish(left0, env, leftT);
  // The right side of a temporal join: the table as of the left row's time.
  const primary = find(rightT, 'tablePrimary');
  const sys = primary ? childOf(primary, 'systemTimePeriod') : null;
  let right: Rel;
  if (sys && primary) {
    const name = pathName(childOf(primary, 'tablePath')!);
    const alias = find(rightT, 'tableAlias');
    right = requalify(env.relation(name, primary), alias ? unquote(childrenOf(alias, 'identifier')[0].getText()) : name);
  } else right = finish(planFromItem(rightT, env), env, rightT);
  const cond = childOf(t, 'joinCondition');
  const using = usingKeys(t, cond, left, right);
  if (using && sys) fail(using.at, 'FOR SYSTEM_TIME AS OF … USING', 'a temporal join names its keys with ON: ON l.k = r.k');
  const on = using ? null : onOverride ?? (cond ? kids(cond).find((k) => !k.symbol)! : null);
  if (!using && (type === 'cross' || !on)) fail(t, comma ? 'FROM a, b' : 'CROSS JOIN', 'a join needs key equalities: JOIN … ON l.k = r.k (a join without keys holds every row of both sides)');
  const ls = scopeOf(env, left);
  const rs = scopeOf(env, right);
  const leftKey: string[] = [];
  const rightKey: string[] = [];
  const bounds: Bounds = { lower: null, upper: null };
  const leftOnly: Tree[] = [];
  const rightOnly: Tree[] = [];
  const residual: Tree[] = [];
  const timeConds: Tree[] = [];
  if (using) {
    leftKey.push(...using.left.map((c) => c.field));
    rightKey.push(...using.right.map((c) => c.field));
  }
  for (const c of on ? conjuncts(on) : []) {
    // `ON TRUE`: how the export writes a join on no key (a scalar subquery's one-row aggregate).
    if (c.getText().toUpperCase() === 'TRUE' && env.annotation?.kind === 'join') continue;
    const pair = keyPair(c, ls, rs);
    if (pair) {
      leftKey.push(pair.l.field);
      rightKey.push(pair.r.field);
      continue;
    }
    if (!sys && timeBound(c, env, left, right, bounds)) {
      timeConds.push(c);
      continue;
    }
    const sides = sidesOf(c, ls, rs);
    if (sides.size === 1 && sides.has('l')) leftOnly.push(c);
    else if (sides.size === 1 && sides.has('r')) rightOnly.push(c);
    else residual.push(c);
  }
  if ((bounds.lower === null) !== (bounds.upper === null)) {
    // Bounded on one side only: as in Flink's planner, no interval join but a regular join whose
    // time comparisons are conditions like any other.
    residual.push(...timeConds);
    bounds.lower = bounds.upper = null;
  }
  if (!leftKey.length && env.annotation?.kind !== 'join') fail(on ?? t, 'JOIN … ON', 'a join needs at least one key equality l.k = r.k between the two sides');
  // One-sided conditions filter the side they read, where that keeps the join's meaning.
  let l = left;
  let r = right;
  // Weir's export writes a join node's own condition in ON: it stays the node's, as it was.
  const asWritten = env.annotation?.kind === 'join' || env.annotation?.kind === 'windowJoin';
  const post: Tree[] = type === 'inner' && !asWritten ? [...residual] : [];
  // An outer join keeps its preserved rows whatever the rest of ON says: those conditions stay in the join.
  const nonEqui: Tree[] = asWritten && on ? conjuncts(on).filter((c) => residual.includes(c) || leftOnly.includes(c) || rightOnly.includes(c)) : type === 'inner' ? [] : [...residual];
  for (const c of asWritten ? [] : leftOnly) {
    if (type === 'inner' || type === 'right') l = filter(l, c, env, 'JOIN … ON');
    else nonEqui.push(c);
  }
  // A lookup sees each key's current row: a condition on the table alone applies to that row, so
  // an append-only table (a later row replaces its key's) is first reduced to its rows per key.
  if (sys && !asWritten && rightOnly.length && !r.updating && isLookup(sys, left, ls)) r = currentRows(r, rightKey, env, sys);
  for (const c of asWritten ? [] : rightOnly) {
    if (type === 'inner' || type === 'left') r = filter(r, c, env, 'JOIN … ON');
    else nonEqui.push(c);
  }
  const regular = !sys && bounds.lower === null && bounds.upper === null;
  if (nonEqui.length && !regular) fail(nonEqui[0], 'JOIN … ON', `a further condition in an outer ${sys ? 'temporal or lookup' : 'interval'} join is not supported; the nearest supported forms are key equalities and time bounds, with other conditions in WHERE`);

  const rename = renameRight(new Set(l.cols.map((c) => c.field)), r.cols.map((c) => c.field));
  const cols: Col[] = [...l.cols, ...r.cols.map((c) => ({ ...c, field: rename[c.field] }))];
  const inputs: [string, string][] = [['left', l.node], ['right', r.node]];
  let out: Rel;
  if (sys) {
    if (type !== 'inner' && type !== 'left') fail(t, 'FOR SYSTEM_TIME AS OF', 'a temporal join is INNER or LEFT');
    const asOf = columnRef(find(sys, 'expression')!);
    const lc = asOf ? ls.cols.find((c) => c.name === asOf.name && (!asOf.qual || c.quals.includes(asOf.qual))) : null;
    if (isLookup(sys, l, ls)) return lookupJoin(t, type, l, r, leftKey, rightKey, cols, post, using, env);
    if (!lc || lc.field !== l.eventTime) fail(sys, 'FOR SYSTEM_TIME AS OF', `expected the left side's time attribute${l.eventTime ? ` (${l.eventTime})` : ''} or a PROCTIME() column of it${l.procTime.length ? ` (${l.procTime.join(', ')})` : ''}`);
    if (!r.eventTime) fail(sys, 'FOR SYSTEM_TIME AS OF', 'the versioned table needs a time attribute: WATERMARK FOR … in its CREATE TABLE');
    let versions = r.node;
    if (!r.updating) {
      // An append-only table of versions becomes a versioned table by its primary key (or the join key).
      const key = r.primaryKey ?? rightKey;
      versions = nodeId(env, 'versions');
      env.g.add({ id: versions, kind: 'dedup', params: { key, keep: 'last', order: 'eventTime' }, inputs: [['in', r.node]], at: sys });
    }
    const id = nodeId(env, 'temporal_join');
    env.g.add({ id, kind: 'temporalJoin', params: { type, leftKey, rightKey }, inputs: [['left', l.node], ['right', versions]], at: t });
    out = { node: id, cols, eventTime: l.eventTime, procTime: [], updating: false };
  } else if (bounds.lower !== null || bounds.upper !== null) {
    if (l.updating || r.updating) fail(t, 'interval join', 'both sides must be append-only tables');
    const id = nodeId(env, 'interval_join');
    env.g.add({ id, kind: 'intervalJoin', params: { type, leftKey, rightKey, lowerBoundMs: bounds.lower, upperBoundMs: bounds.upper }, inputs, at: t });
    out = { node: id, cols, eventTime: type === 'inner' || type === 'left' ? l.eventTime : null, procTime: [], updating: false };
  } else {
    const id = nodeId(env, 'join');
    const joined = { ...ls, cols };
    const condition = nonEqui.length ? compileExpr(nonEqui.map((c) => `(${weirExpr(c, joined, 'JOIN … ON')})`).join(' AND ')).toSql() : null;
    const ttlMs = env.stateTtlMs ?? env.globalTtlMs;
    env.g.add({ id, kind: 'join', params: { type, leftKey, rightKey, ...(condition ? { nonEquiCondition: condition } : {}), ...(ttlMs != null ? { ttlMs } : {}) }, inputs, at: t });
    out = { node: id, cols, eventTime: null, procTime: [], updating: true };
  }
  for (const c of post) out = filter(out, c, env, 'JOIN … ON');
  return using ? mergeUsing(out, using, type, l.cols, r.cols, env) : out;
}

/** FOR SYSTEM_TIME AS OF a PROCTIME() column of the probe side: a lookup of the dimension table's current row. */
function isLookup(sys: Tree, left: Rel, ls: Scope): boolean {
  const asOf = columnRef(find(sys, 'expression')!);
  if (!asOf || ls.cols.some((c) => c.name === asOf.name && (!asOf.qual || c.quals.includes(asOf.qual)))) return false;
  return left.procTime.includes(asOf.name) && (!asOf.qual || ls.cols.some((c) => c.quals.includes(asOf.qual!)));
}

/** The last row per key of an append-only table, by arrival: the rows a lookup would find. */
function currentRows(r: Rel, key: string[], env: Env, at: Tree): Rel {
  const id = nodeId(env, 'current');
  env.g.add({ id, kind: 'dedup', params: { key, keep: 'last', order: 'arrival' }, inputs: [['in', r.node]], at });
  return { ...r, node: id, updating: true };
}

/**
 * `JOIN dim FOR SYSTEM_TIME AS OF l.proc_time`: each probe row joined with the dimension table's
 * current row for its key. Conditions beyond the keys are planned as for a temporal join.
 */
function lookupJoin(t: Tree, type: 'inner' | 'left', l: Rel, r: Rel, leftKey: string[], rightKey: string[], cols: Col[], post: Tree[], using: ReturnType<typeof usingKeys>, env: Env): Rel {
  if (l.updating) fail(t, 'FOR SYSTEM_TIME AS OF', 'a lookup join probes with an append-only table; the left side here is updating (an aggregate or a regular join): use a regular join instead');
  const id = nodeId(env, 'lookup_join');
  // Weir's export says in its annotation when rows are looked up on arrival (SQL has no word for it).
  const onArrival = env.annotation?.kind === 'lookupJoin' && env.annotation.loadFirst === false;
  env.g.add({ id, kind: 'lookupJoin', params: { type, leftKey, rightKey, ...(onArrival ? { loadFirst: false } : {}) }, inputs: [['left', l.node], ['right', r.node]], at: t });
  let out: Rel = { node: id, cols, eventTime: l.eventTime, procTime: [], updating: false };
  for (const c of post) out = filter(out, c, env, 'JOIN … ON');
  return using ? mergeUsing(out, using, type, l.cols, r.cols, env) : out;
}

export function planWindowTvf(t: Tree, env: Env): FromRel {
  const e = childOf(t, 'windowTVFExpression')!;
  const lifted = env.prep.windowTvfs.get(firstToken(t)?.start ?? -1);
  const fn = lifted?.session ? 'SESSION' : childOf(e, 'windowTVFName')!.getText().toUpperCase();
  const params = childrenOf(e, 'windowTVFParam');
  const tableParam = params.find((p) => keywordsOf(p).includes('TABLE') || find(p, 'timeAttrColumn'));
  const desc = params.map((p) => find(p, 'columnDescriptor')).find(Boolean);
  const intervals = params.map((p) => find(p, 'timeIntervalExpression')).filter((x): x is Tree => !!x);
  if (!tableParam || !desc) fail(e, fn, `expected ${fn}(TABLE t, DESCRIPTOR(ts), INTERVAL …)`);
  const tableName = unquote(find(tableParam, 'timeAttrColumn')!.getText());
  const input = finish(requalify(env.relation(tableName, tableParam), tableName), env, tableParam);
  const time = unquote(find(desc, 'columnName')!.getText());
  const col = input.cols.find((c) => c.name === time);
  if (!col && input.procTime.includes(time)) {
    fail(desc, `DESCRIPTOR(${time})`, `\`${time}\` is a processing-time attribute (PROCTIME()): windows over the wall clock would differ on every run, and Weir's runs repeat exactly; window over an event-time column${input.eventTime ? ` (\`${tableName}\` has \`${input.eventTime}\`)` : ' (declare WATERMARK FOR one)'}`);
  }
  if (!col || col.field !== input.eventTime) fail(desc, `DESCRIPTOR(${time})`, `\`${time}\` is not the time attribute of \`${tableName}\`${input.eventTime ? ` (that is \`${input.eventTime}\`)` : ': declare WATERMARK FOR it'}`);
  const ms = intervals.map((i) => intervalMs(textOf(env.sql, i), i, fn));
  const need = fn === 'TUMBLE' || fn === 'SESSION' ? 1 : 2;
  if (fn === 'SESSION' && ms.length !== 1) fail(e, fn, 'expected SESSION(TABLE t [PARTITION BY k], DESCRIPTOR(ts), INTERVAL <gap>): a session window has a gap and no offset');
  if (ms.length !== need && ms.length !== need + 1) fail(e, fn, `expected ${need} interval(s) and an optional offset`);
  const p: Record<string, unknown> = fn === 'TUMBLE' ? { sizeMs: ms[0] } : fn === 'SESSION' ? { gapMs: ms[0] } : fn === 'HOP' ? { slideMs: ms[0], sizeMs: ms[1] } : { stepMs: ms[0], sizeMs: ms[1] };
  if (ms.length > need && ms[need]) p.offsetMs = ms[need];
  const wcols: Col[] = ['window_start', 'window_end', 'window_time'].map((w) => ({ field: w, name: w, quals: [], type: 'timestamp' }));
  const partitionBy = lifted?.session?.partitionBy.map((k) => {
    const c = input.cols.find((x) => x.name === k);
    if (!c) fail(tableParam, `PARTITION BY ${k}`, `\`${k}\` is not a column of \`${tableName}\``);
    return c.field;
  });
  const rel: FromRel = { ...input, cols: [...input.cols, ...wcols], tvf: { type: fn.toLowerCase(), params: p, at: e, ...(partitionBy ? { partitionBy } : {}) } };
  return lifted?.alias ? { ...requalify(rel, lifted.alias), tvf: rel.tvf } : rel;
}

export const weirOn = weirExpr;
