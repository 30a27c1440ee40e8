/**
 * A FlinkSQL expression subtree → Weir expression text, with every column resolved against the
 * relation in scope. Weir's expression language is SQL-shaped, so most of the tree is written
 * back token by token; what differs is rewritten here (IS DISTINCT FROM, DECIMAL casts, TRY_CAST,
 * function aliases) and what it cannot carry is an error naming the function.
 */
import { compileExpr, ExprError, FUNCTION_NAMES } from '../../../expr/index.ts';
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { altOf, childOf, childrenOf, find, findAll, firstToken, isQuoted, keywordsOf, kids, ruleOf, textOf, unquote } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Col } from './model.ts';
import { fail, quoteName } from './model.ts';
import { NOT_CARRIED, renderForm, temporalCast } from './exprForms.ts';
import { WRITTEN_CALL, withBackslashes } from './prepass.ts';

/** The columns an expression may read, and how the script text looks (for errors and CAST). */
export interface Scope {
  cols: Col[];
  sql: string;
  tryCasts?: Set<number>;
  /** Processing-time attributes of the input: names that order rows but hold no value. */
  procTime?: string[];
}

/** Replaces a whole subtree (an aggregate call, a GROUP BY expression) by a column; null: render it. */
export type Replace = (t: Tree) => string | null;

const FUNCTION_ALIASES: Record<string, string> = { CHARACTER_LENGTH: 'CHAR_LENGTH', CEILING: 'CEIL', POW: 'POWER' };
const CARRIED = new Set(FUNCTION_NAMES);
const UNKNOWN = "not a built-in Weir's expression language carries, nor a function the script creates (CREATE FUNCTION); docs/flink-sql.md lists the built-ins it reads";

const CAST_TYPES: [RegExp, string][] = [
  [/^(STRING|VARCHAR|CHAR)\b/, 'STRING'],
  [/^(BIGINT|INT|INTEGER|SMALLINT|TINYINT)\b/, 'BIGINT'],
  [/^(DOUBLE|FLOAT|REAL)\b/, 'DOUBLE'],
  [/^BOOLEAN\b/, 'BOOLEAN'],
];

/** The column a (possibly qualified) name stands for in the scope; errors name the candidates. */
export function resolveColumn(scope: Scope, qual: string | null, name: string, at: Tree): Col {
  const hits = scope.cols.filter((c) => c.name === name && (qual === null ? !c.usingSide : c.quals.includes(qual)));
  if (hits.length === 1) return hits[0];
  const label = qual ? `${qual}.${name}` : name;
  if (hits.length > 1) fail(at, `column ${label}`, `is ambiguous: it is in ${hits.map((h) => h.quals[0] ?? '?').join(' and ')}; qualify it`);
  if (qual && !scope.cols.some((c) => c.quals.includes(qual))) fail(at, `${qual}.${name}`, `\`${qual}\` is not a table or alias in scope here (${[...new Set(scope.cols.flatMap((c) => c.quals))].join(', ') || 'none'})`);
  if (scope.procTime?.includes(name)) {
    fail(at, `column ${label}`, `is a processing-time attribute (PROCTIME()): its value would be the wall clock, which Weir keeps out of rows so that a run repeats. It orders rows (deduplication, Top-N by arrival) and drives FOR SYSTEM_TIME AS OF; for a time value, use an event-time column`);
  }
  fail(at, `column ${label}`, `not found; the columns in scope are ${scope.cols.map((c) => (c.quals[0] ? `${c.quals[0]}.${c.name}` : c.name)).join(', ')}`);
}

/** The upper-cased name of a function call subtree (primaryExpression#functionCall or functionCallExpression). */
export function callName(t: Tree): string | null {
  const call = ruleOf(t) === 'functionCallExpression' ? t : altOf(t) === 'FunctionCall' ? childOf(t, 'functionCallExpression') : null;
  if (!call) return null;
  const name = childOf(call, 'functionNameWithParams') ?? childOf(call, 'functionName') ?? kids(call)[0];
  if (!name) return null;
  const upper = unquote(name.getText()).toUpperCase();
  return WRITTEN_CALL[upper] ?? upper;
}

/** The argument subtrees of a call, and whether it reads DISTINCT / `*`. */
export function callArgs(t: Tree): { args: Tree[]; distinct: boolean; star: boolean } {
  const call = ruleOf(t) === 'functionCallExpression' ? t : childOf(t, 'functionCallExpression')!;
  // `f()` parses with one empty parameter.
  const params = childrenOf(call, 'functionParam').filter((p) => p.getText() !== '');
  const distinct = !!childOf(call, 'setQuantifier') && keywordsOf(childOf(call, 'setQuantifier')!).includes('DISTINCT');
  const star = params.length === 1 && params[0].getText() === '*';
  return { args: star ? [] : params, distinct, star };
}

/** The bare column an expression is (`a`, `t.a`), or null. */
export function columnRef(t: Tree): { qual: string | null; name: string; at: Tree } | null {
  const ids = columnPath(t);
  if (ids?.length === 1) return { qual: null, name: ids[0], at: t };
  if (ids?.length === 2) return { qual: ids[0], name: ids[1], at: t };
  return null;
}

/** The dotted names of a column reference (`a`, `t.a`, `t.a.b.c`), unquoted, or null. */
function columnPath(t: Tree): string[] | null {
  let x: Tree = t;
  const NAME_RULES = ['columnNamePath', 'uid', 'columnName', 'uidAllowEmpty', 'identifier'];
  while (!NAME_RULES.includes(ruleOf(x)) && altOf(x) !== 'ColumnReference' && kids(x).length === 1 && !kids(x)[0].symbol) x = kids(x)[0];
  if (kids(x).length === 1 && kids(x)[0].symbol && isQuoted(kids(x)[0].symbol!.text ?? '') && ruleOf(x) !== 'quotedIdentifier') {
    return ruleOf(x) === 'stringLiteral' ? [unquote(kids(x)[0].symbol!.text!)] : null;
  }
  if (!NAME_RULES.includes(ruleOf(x)) && altOf(x) !== 'ColumnReference') return null;
  // dt-sql-parser reads a lone 'string' in the SELECT list as a quoted identifier: it is a literal.
  if (/^'/.test(x.getText())) return null;
  // …and a lone number as an identifier: it is a literal too.
  if (/^\d/.test(x.getText())) return null;
  const ids = findAll(x, 'identifier').map((i) => unquote(i.getText()));
  return ids.length ? ids : null;
}

/** `INTERVAL '<n>' UNIT` (or `'d hh:mm:ss' DAY TO SECOND`) in ms, from its text. */
export function intervalMs(text: string, at: Tree, construct: string): number {
  const m = /^INTERVAL\s+'(-?[\d.: ]+)'\s+(DAY|HOUR|MINUTE|SECOND)S?(?:\s*\(\s*\d+\s*\))?(?:\s+TO\s+(DAY|HOUR|MINUTE|SECOND)S?(?:\s*\(\s*\d+\s*\))?)?$/i.exec(text.trim());
  const UNIT: Record<string, number> = { DAY: 86_400_000, HOUR: 3_600_000, MINUTE: 60_000, SECOND: 1000 };
  if (!m) fail(at, construct, `expected INTERVAL '<amount>' SECOND|MINUTE|HOUR|DAY, found ${text.trim()}`);
  const u1 = m[2].toUpperCase();
  if (!m[3]) {
    const v = Number(m[1]);
    if (!Number.isFinite(v)) fail(at, construct, `'${m[1]}' is not a number`);
    return Math.round(v * UNIT[u1]);
  }
  const order = ['DAY', 'HOUR', 'MINUTE', 'SECOND'];
  const units = order.slice(order.indexOf(u1), order.indexOf(m[3].toUpperCase()) + 1);
  const neg = m[1].trim().startsWith('-');
  const parts = m[1].trim().replace(/^-/, '').split(/[ :]/).map(Number);
  if (parts.length !== units.length || parts.some((p) => !Number.isFinite(p))) fail(at, construct, `'${m[1]}' does not match ${u1} TO ${m[3]}`);
  const ms = parts.reduce((acc, v, i) => acc + v * UNIT[units[i]], 0);
  return Math.round(neg ? -ms : ms);
}

function isIntegerCast(text: string): boolean {
  try {
    const ast = compileExpr(text).ast;
    return ast.kind === 'cast' && ast.target === 'BIGINT';
  } catch {
    return false;
  }
}

function castTarget(scope: Scope, type: Tree, operand: string, at: Tree): string {
  const text = textOf(scope.sql, type).toUpperCase().replace(/\s+/g, ' ');
  const temporal = temporalCast(scope, text, operand);
  if (temporal !== null) return temporal;
  const hit = CAST_TYPES.find(([re]) => re.test(text));
  // CAST(a / b AS BIGINT) over integers: the quotient is cast already (exprForms.ts); cast once.
  if (hit?.[1] === 'BIGINT' && isIntegerCast(operand)) return operand;
  if (hit) return `CAST(${operand} AS ${hit[1]})`;
  // DECIMAL(p, s) rounds to s digits, as Flink does; the value itself is a double in Weir.
  const dec = /^(DECIMAL|NUMERIC|DEC)\s*(?:\(\s*\d+\s*(?:,\s*(\d+)\s*)?\))?$/.exec(text);
  if (dec) return `ROUND(CAST(${operand} AS DOUBLE), ${dec[2] ?? 0})`;
  fail(at, `CAST(… AS ${text})`, 'Weir casts to STRING, BIGINT/INT, DOUBLE/FLOAT/DECIMAL, BOOLEAN, DATE and TIMESTAMP(3)/TIMESTAMP_LTZ(3)');
}

/** Renders an expression subtree as Weir expression text. */
export function render(t: Tree, scope: Scope, replace: Replace = () => null): string {
  const r = (x: Tree): string => render(x, scope, replace);
  const own = replace(t);
  if (own !== null) return own;
  if (t.symbol) {
    const text = t.symbol.text ?? '';
    if (isQuoted(text)) return quoteName(resolveColumn(scope, null, unquote(text), t).field);
    if (text === '"' || text.startsWith('"')) fail(t, 'double-quoted string', "Flink SQL writes strings in single quotes: 'text'");
    return withBackslashes(text);
  }
  const rule = ruleOf(t);
  const alt = altOf(t);
  if (rule === 'queryStatement') {
    fail(t, 'subquery in an expression', 'Weir reads subqueries in FROM and, in WHERE, x [NOT] IN (SELECT k …) and [NOT] EXISTS (SELECT …) conjuncts; here write a JOIN with the subquery instead (a scalar subquery: a JOIN with its aggregate)');
  }
  if (alt === 'ColumnReference' || rule === 'columnName') {
    const path = columnPath(t);
    if (path && path.length > 2) return nestedField(scope, path, t);
    const ref = columnRef(t);
    if (ref) {
      // `a.b` where `a` is a column and not a qualifier: a field inside a json column.
      if (ref.qual && !scope.cols.some((c) => c.quals.includes(ref.qual!)) && scope.cols.some((c) => c.name === ref.qual)) {
        return `${quoteName(resolveColumn(scope, null, ref.qual, t).field)}.${quoteName(ref.name)}`;
      }
      return quoteName(resolveColumn(scope, ref.qual, ref.name, t).field);
    }
  }
  const form = renderForm(t, scope, r);
  if (form !== null) return form;
  if (alt === 'Cast') {
    const operand = r(childOf(t, 'expression')!);
    return castTarget(scope, childOf(t, 'columnType')!, operand, t);
  }
  if (alt === 'FunctionCall' || rule === 'functionCallExpression') {
    const name = callName(t);
    if (name) {
      const call = rule === 'functionCallExpression' ? t : childOf(t, 'functionCallExpression')!;
      if (!kids(call).some((k) => k.symbol?.text === '(')) {
        fail(t, name, NOT_CARRIED[name] ? `not in Weir's expression language: ${NOT_CARRIED[name]}` : UNKNOWN);
      }
      const fn = FUNCTION_ALIASES[name] ?? name;
      if (fn === 'TO_TIMESTAMP_LTZ') return epochTimestamp(t, scope, r);
      // The value constructors, which the prepass hands over in call form.
      if (fn === 'ARRAY' || fn === 'MAP') return `${fn}[${callArgs(t).args.map(r).join(', ')}]`;
      const path = fn === 'JSON_VALUE' ? jsonPath(t, scope) : null;
      if (path) return path;
      if (!CARRIED.has(fn)) {
        fail(t, `${name}(…)`, NOT_CARRIED[fn] ? `not in Weir's expression language: ${NOT_CARRIED[fn]}` : UNKNOWN);
      }
      const { args, distinct } = callArgs(t);
      if (distinct) fail(t, `${name}(DISTINCT …)`, 'DISTINCT is only read inside an aggregate');
      if (fn === 'CURRENT_WATERMARK') return currentWatermark(t, args, scope);
      return `${fn}(${args.map(r).join(', ')})`;
    }
  }
  if (alt === 'Predicated') {
    const pred = childOf(t, 'predicate');
    const kw = pred ? keywordsOf(pred) : [];
    if (pred && kw.includes('DISTINCT') && kw.includes('FROM')) {
      const a = r(kids(t)[0]);
      const b = r(kids(pred).filter((k) => !k.symbol)[0]);
      // NULL-safe equality: equal values, or both NULL.
      const same = `COALESCE(${a} = ${b}, ${a} IS NULL AND ${b} IS NULL)`;
      return kw.includes('NOT') ? `(${same})` : `(NOT ${same})`;
    }
  }
  if (rule === 'overWindowItem' || find(t, 'windowSpec') && rule === 'primaryExpression') {
    fail(t, 'OVER (…)', 'OVER aggregation is not supported yet; the nearest supported forms are ROW_NUMBER() … WHERE rn <= N (Top-N) and GROUP BY windows');
  }
  if (rule === 'comparisonOperator') return kids(t).map(r).join('');
  return joinTokens(kids(t).map(r));
}

/**
 * `TO_TIMESTAMP_LTZ(epoch, precision)`: Weir's expression language has the function for the two
 * precisions Flink users write, 3 (milliseconds) and 0 (seconds); any other is refused here.
 */
function epochTimestamp(t: Tree, scope: Scope, r: (x: Tree) => string): string {
  const { args } = callArgs(t);
  const precision = args.length === 2 ? args[1].getText() : args.length === 1 ? '3' : '';
  if (precision === '3' || precision === '0') return `TO_TIMESTAMP_LTZ(${r(args[0])}, ${precision})`;
  fail(t, 'TO_TIMESTAMP_LTZ(…)', `Weir reads TO_TIMESTAMP_LTZ(epoch, 3) (milliseconds) and TO_TIMESTAMP_LTZ(epoch, 0) (seconds), found ${textOf(scope.sql, t)}`);
}

/** `JSON_VALUE(col, '$.a.b')` over a json column: Weir reads it as the path `col`.`a`.`b`; null for other paths and text columns. */
function jsonPath(t: Tree, scope: Scope): string | null {
  const { args } = callArgs(t);
  const m = args.length === 2 ? /^'\$((?:\.[A-Za-z_][A-Za-z0-9_]*)+)'$/.exec(args[1].getText()) : null;
  const ref = args.length === 2 ? columnRef(args[0]) : null;
  if (!m || !ref) return null;
  const col = resolveColumn(scope, ref.qual, ref.name, args[0]);
  // Only a json field holds parsed JSON; text is parsed by the JSON_VALUE function itself.
  if (col.type !== 'json' && col.type !== null) return null;
  return [quoteName(col.field), ...m[1].slice(1).split('.').map(quoteName)].join('.');
}

/** Joins rendered pieces as a person writes SQL: `f(a, b)`, `(x)`, `a + b`. */
function joinTokens(parts: string[]): string {
  let out = '';
  for (const p of parts) {
    if (p === '') continue;
    const tight = out === '' || out.endsWith('(') || p === ')' || p === ',' || (p === '(' && /[A-Za-z0-9_`]$/.test(out) && !/\b(AND|OR|NOT|IN|WHEN|THEN|ELSE|AS)$/i.test(out));
    out += tight ? p : ` ${p}`;
  }
  return out;
}

/** Renders and checks the result with Weir's own expression parser; its errors point at the subtree. */
export function weirExpr(t: Tree, scope: Scope, construct: string, replace?: Replace): string {
  const text = render(t, scope, replace);
  try {
    // Weir's own printing: one spelling per expression, so that export → import → export is stable.
    return compileExpr(text).toSql();
  } catch (e) {
    if (!(e instanceof ExprError)) throw e;
    fail(t, construct, `${e.detail} (in ${text})`);
  }
}

/** The value of a constant argument (`2`, `-1`, `'none'`, `CAST(0 AS DOUBLE)`, NULL), or a failure naming it. */
export function constantValue(arg: Tree, scope: Scope, what: string): string | number | boolean | null {
  let value: unknown;
  try {
    value = compileExpr(weirExpr(arg, { ...scope, cols: [] }, what)).evaluate({});
  } catch {
    return fail(arg, what, `expected a constant such as 1, 'none' or CAST(0 AS DOUBLE), found ${textOf(scope.sql, arg)}`);
  }
  if (value !== null && typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') fail(arg, what, `expected a number, text, boolean or NULL, found ${textOf(scope.sql, arg)}`);
  return value as string | number | boolean | null;
}

/** Flink reads CURRENT_WATERMARK only of a time attribute: a TIMESTAMP column of the input. */
function currentWatermark(t: Tree, args: Tree[], scope: Scope): string {
  const ref = args.length === 1 ? columnRef(args[0]) : null;
  const col = ref ? resolveColumn(scope, ref.qual, ref.name, args[0]) : null;
  if (!col || (col.type !== null && col.type !== 'timestamp')) {
    fail(t, 'CURRENT_WATERMARK(…)', 'its argument must be a time attribute: the TIMESTAMP column the input\'s WATERMARK FOR declares (CURRENT_WATERMARK(order_time))');
  }
  return `CURRENT_WATERMARK(${quoteName(col.field)})`;
}

/**
 * `t.col.f.g` or `col.f.g`: a field inside a ROW (or json) column, read as a path on the column.
 * The first name is a qualifier when a column of that table or alias has the second name.
 */
function nestedField(scope: Scope, path: string[], at: Tree): string {
  const qualified = scope.cols.some((c) => c.quals.includes(path[0]) && c.name === path[1]);
  const col = qualified ? resolveColumn(scope, path[0], path[1], at) : resolveColumn(scope, null, path[0], at);
  return [quoteName(col.field), ...path.slice(qualified ? 2 : 1).map(quoteName)].join('.');
}
