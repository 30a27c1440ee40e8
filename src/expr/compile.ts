/**
 * Turns an AST into nested closures once, so evaluating a row is a chain of direct calls with no
 * tree walking, no dispatch on node kinds and no allocation beyond the result itself.
 *
 * NULL semantics follow SQL: NULL (or a missing field) in arithmetic, comparison or string
 * operators gives NULL; AND/OR are three-valued; division or MOD by zero gives NULL. A filter must
 * treat a NULL result as false; that is the caller's job, as in SQL's WHERE.
 */
import type { BinaryNode, CaseNode, ExprNode, FieldNode, InNode } from './ast.ts';
import { type Evaluator, type Row, compileCall, compileCast } from './functions.ts';
import { num2 } from './functionKit.ts';
import { compilingServices } from './services.ts';
import { typeOfNode } from './typecheck.ts';
import { toDateText, toMillis } from './timeText.ts';
import { compare, finite, isNull, likeMatcher, sqlEquals, toBool, toNum, toStr } from './values.ts';

export type { Evaluator, Row };

export function compileNode(node: ExprNode): Evaluator {
  switch (node.kind) {
    case 'number':
    case 'string':
    case 'boolean': {
      const v = node.value;
      return () => v;
    }
    case 'interval': {
      const v = node.millis;
      return () => v;
    }
    case 'null':
      return () => null;
    case 'field':
      return compileField(node);
    case 'neg': {
      const o = compileNode(node.operand);
      return (row) => {
        const x = toNum(o(row));
        return x === null ? null : finite(-x);
      };
    }
    case 'not': {
      const o = compileNode(node.operand);
      return (row) => {
        const b = toBool(o(row));
        return b === null ? null : !b;
      };
    }
    case 'binary':
      return compileBinary(node);
    case 'isNull': {
      const o = compileNode(node.operand);
      const negated = node.negated;
      return (row) => isNull(o(row)) !== negated;
    }
    case 'between': {
      const o = compileNode(node.operand);
      const lo = compileNode(node.low);
      const hi = compileNode(node.high);
      const negated = node.negated;
      return (row) => {
        // Defined as `lo <= v AND v <= hi`, so a NULL bound only matters when the other side holds.
        const v = o(row);
        const r = and3(ordered(lo(row), v), ordered(v, hi(row)));
        return r === null ? null : r !== negated;
      };
    }
    case 'in':
      return compileIn(node);
    case 'like':
      return compileLike(node.operand, node.pattern, node.negated);
    case 'case':
      return compileCase(node);
    case 'call':
      return compileCall(node.name, node.args.map(compileNode), node.keyword, node.args);
    case 'cast': {
      // A DOUBLE holding a whole number is still a DOUBLE: CAST(2.0 AS STRING) is '2.0' in Flink.
      const types = node.target === 'STRING' ? compilingServices()?.inputTypes : null;
      return compileCast(compileNode(node.operand), node.target, types ? typeOfNode(node.operand, types) === 'number' : false);
    }
  }
}

/**
 * Field reads are the hottest path. The common shapes (a, a.b) get straight-line closures; the
 * generic loop is kept for deeper paths and for names that plain objects inherit (`constructor`,
 * `toString`), which must read as missing fields rather than as prototype methods.
 */
function compileField(node: FieldNode): Evaluator {
  const path = node.path;
  if (path.some((key) => key in Object.prototype)) return (row) => readPath(row, path, true);
  if (path.length === 1) {
    const k0 = path[0];
    return (row) => {
      const v = row[k0];
      return v === undefined ? null : v;
    };
  }
  if (path.length === 2) {
    const k0 = path[0];
    const k1 = path[1];
    return (row) => {
      const o = row[k0];
      if (o === null || typeof o !== 'object') return null;
      const v = (o as Row)[k1];
      return v === undefined ? null : v;
    };
  }
  return (row) => readPath(row, path, false);
}

/**
 * compileField's read of the two common shapes as JS text over a row `r` (temporaries `o`, `v`),
 * for code that builds a whole row in one compiled function; null for every other expression.
 */
export function fieldReadJs(node: ExprNode): string | null {
  return readJs(node, 'v');
}

/** compileField's read of `a` or `a.b` into the temporary `into` (and `o`), as JS text. */
function readJs(node: ExprNode, into: string): string | null {
  if (node.kind !== 'field') return null;
  const path = node.path;
  if (path.some((key) => key in Object.prototype)) return null;
  const [k0, k1] = path.map((key) => JSON.stringify(key));
  if (path.length === 1) return `((${into} = r[${k0}]) === undefined ? null : ${into})`;
  if (path.length === 2) return `((o = r[${k0}]) === null || typeof o !== "object" ? null : (${into} = o[${k1}]) === undefined ? null : ${into})`;
  return null;
}

/** The temporaries `exprJs` text assigns: a compiled function declares them. */
export const EXPR_JS_LOCALS: readonly string[] = ['o', 'v', 'w', 't'];

const ARITHMETIC_JS: Partial<Record<BinaryNode['op'], string>> = { '+': '+', '-': '-', '*': '*', '/': '/', '%': '%' };
const COMPARISON_JS: Partial<Record<BinaryNode['op'], string>> = { '=': '===', '<>': '!==', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };

/**
 * An expression as JS text over a row `r` giving what its evaluator gives, for code compiled once
 * per operator (a projection's row literal, a filter's predicate): a field read (`a`, `a.b`) as
 * fieldReadJs; arithmetic or a comparison of such fields and number literals (`0.908 * bid.price`,
 * `event_type = 2`) straight-line while each field holds a finite number, where SQL's rules reduce
 * to JS's (NULL only for a non-finite result or a division by zero), and `fallback` (JS text calling
 * the evaluator) for every other value. Null for every other expression. Temporaries: EXPR_JS_LOCALS.
 */
export function exprJs(node: ExprNode, fallback: string): string | null {
  if (node.kind === 'field') return readJs(node, 'v');
  if (node.kind !== 'binary') return null;
  const arithmetic = ARITHMETIC_JS[node.op];
  const comparison = COMPARISON_JS[node.op];
  if (!arithmetic && !comparison) return null;
  const tests: string[] = [];
  const operand = (n: ExprNode, into: string): string | null => {
    if (n.kind === 'number') return Number.isFinite(n.value) && !Object.is(n.value, -0) ? `(${String(n.value)})` : null;
    const read = readJs(n, into);
    if (read === null) return null;
    tests.push(`typeof (${into} = ${read}) === "number" && ${into} - ${into} === 0`);
    return into;
  };
  const a = operand(node.left, 'v');
  const b = operand(node.right, 'w');
  if (a === null || b === null || tests.length === 0) return null;
  let fast: string;
  if (comparison) fast = `${a} ${comparison} ${b}`;
  else {
    const checked = `(t = ${a} ${arithmetic} ${b}) - t === 0 ? t + 0 : null`;
    fast = node.op === '/' || node.op === '%' ? `${b} === 0 ? null : ${checked}` : checked;
  }
  return `(${tests.join(' && ')} ? (${fast}) : ${fallback})`;
}

function readPath(row: Row, path: readonly string[], ownOnly: boolean): unknown {
  let v: unknown = row;
  for (let i = 0; i < path.length; i++) {
    if (v === null || typeof v !== 'object') return null;
    const key = path[i];
    if (ownOnly && !Object.hasOwn(v, key)) return null;
    v = (v as Row)[key];
  }
  return v === undefined ? null : v;
}

/**
 * compare(), where a timestamp (epoch ms) met with date or timestamp text ('2023-11-14',
 * '2023-11-14 10:00:00') compares as Flink's implicit cast of the text to TIMESTAMP does.
 */
function compareTimed(a: unknown, b: unknown): number | null {
  const c = compare(a, b);
  if (c !== null) return c;
  if (typeof a === 'number' && typeof b === 'string') return compare(a, toMillis(b));
  if (typeof a === 'string' && typeof b === 'number') return compare(toMillis(a), b);
  return null;
}

function equalsTimed(a: unknown, b: unknown): boolean | null {
  const ta = typeof a;
  const tb = typeof b;
  if ((ta === 'number' && tb === 'string') || (ta === 'string' && tb === 'number')) {
    const c = compareTimed(a, b);
    return c === null ? sqlEquals(a, b) : c === 0;
  }
  return sqlEquals(a, b);
}

/** `a <= b` with NULL semantics. */
function ordered(a: unknown, b: unknown): boolean | null {
  if (isNull(a) || isNull(b)) return null;
  const c = compareTimed(a, b);
  return c === null ? null : c <= 0;
}

function and3(a: boolean | null, b: boolean | null): boolean | null {
  if (a === false || b === false) return false;
  return a === null || b === null ? null : true;
}

/**
 * A DATE (its 'yyyy-MM-dd' text) plus or minus an INTERVAL is the date that many days on, as in
 * Flink (`CAST(ts AS DATE) + INTERVAL '1' DAY`); a timestamp (epoch ms) takes plain arithmetic.
 */
function shiftedDate(date: Evaluator, interval: Evaluator, sign: 1 | -1, otherwise: Evaluator): Evaluator {
  return (row) => {
    const d = date(row);
    if (typeof d !== 'string' || !DATE_TEXT.test(d)) return otherwise(row);
    const ms = toMillis(d);
    const by = toNum(interval(row));
    return ms === null || by === null ? null : toDateText(ms + sign * by);
  };
}
const DATE_TEXT = /^\s*\d{4}-\d{1,2}-\d{1,2}\s*$/;

// Binary arithmetic shares the numeric builtins' NULL and non-finite handling.
function arithmetic(l: Evaluator, r: Evaluator, f: (x: number, y: number) => number | null): Evaluator {
  return num2(f)([l, r]);
}

function comparison(l: Evaluator, r: Evaluator, test: (c: number) => boolean): Evaluator {
  return (row) => {
    const a = l(row);
    if (isNull(a)) return null;
    const b = r(row);
    if (isNull(b)) return null;
    const c = compareTimed(a, b);
    return c === null ? null : test(c);
  };
}

function compileBinary(node: BinaryNode): Evaluator {
  const l = compileNode(node.left);
  const r = compileNode(node.right);
  switch (node.op) {
    case '+':
      if (node.right.kind === 'interval') return shiftedDate(l, r, 1, arithmetic(l, r, (x, y) => x + y));
      if (node.left.kind === 'interval') return shiftedDate(r, l, 1, arithmetic(l, r, (x, y) => x + y));
      return arithmetic(l, r, (x, y) => x + y);
    case '-':
      if (node.right.kind === 'interval') return shiftedDate(l, r, -1, arithmetic(l, r, (x, y) => x - y));
      return arithmetic(l, r, (x, y) => x - y);
    case '*':
      return arithmetic(l, r, (x, y) => x * y);
    // Plain JS division even for two integers: 7 / 2 is 3.5 here, while Flink divides two
    // BIGINT/INT operands as integers (7 / 2 = 3). Exported SQL keeps `/` as written, so users
    // who need identical results in Flink should CAST one side to DOUBLE.
    case '/':
      return arithmetic(l, r, (x, y) => (y === 0 ? null : x / y));
    case '%':
      return arithmetic(l, r, (x, y) => (y === 0 ? null : x % y));
    case '||':
      return (row) => {
        const a = toStr(l(row));
        if (a === null) return null;
        const b = toStr(r(row));
        return b === null ? null : a + b;
      };
    case '=':
      return (row) => equalsTimed(l(row), r(row));
    case '<>':
      return (row) => {
        const eq = equalsTimed(l(row), r(row));
        return eq === null ? null : !eq;
      };
    case '<':
      return comparison(l, r, (c) => c < 0);
    case '<=':
      return comparison(l, r, (c) => c <= 0);
    case '>':
      return comparison(l, r, (c) => c > 0);
    case '>=':
      return comparison(l, r, (c) => c >= 0);
    case 'AND':
      return (row) => {
        const a = toBool(l(row));
        if (a === false) return false;
        const b = toBool(r(row));
        if (b === false) return false;
        return a === null || b === null ? null : true;
      };
    case 'OR':
      return (row) => {
        const a = toBool(l(row));
        if (a === true) return true;
        const b = toBool(r(row));
        if (b === true) return true;
        return a === null || b === null ? null : false;
      };
  }
}

function compileIn(node: InNode): Evaluator {
  const o = compileNode(node.operand);
  const items = node.list.map(compileNode);
  const negated = node.negated;
  const scan = (row: Row, v: unknown): boolean | null => {
    let sawNull = false;
    for (let i = 0; i < items.length; i++) {
      const eq = equalsTimed(v, items[i](row));
      if (eq === true) return !negated;
      if (eq === null) sawNull = true;
    }
    // `x IN (1, NULL)` is unknown, not false, when x is not 1: the NULL might have matched.
    return sawNull ? null : negated;
  };
  // `country IN ('DE', 'FR', ...)` is the common case: a hash lookup when the types line up, and
  // the general scan (which also handles '12' IN (12)) otherwise.
  const first = node.list[0];
  const kind = first.kind === 'string' || first.kind === 'number' ? first.kind : null;
  if (kind && node.list.every((n) => n.kind === kind)) {
    const set = new Set(node.list.map((n) => (n as { value: unknown }).value));
    return (row) => {
      const v = o(row);
      if (isNull(v)) return null;
      return typeof v === kind ? set.has(v) !== negated : scan(row, v);
    };
  }
  return (row) => {
    const v = o(row);
    return isNull(v) ? null : scan(row, v);
  };
}

function compileLike(operandNode: ExprNode, patternNode: ExprNode, negated: boolean): Evaluator {
  const o = compileNode(operandNode);
  if (patternNode.kind === 'string') {
    const matches = likeMatcher(patternNode.value);
    return (row) => {
      const s = toStr(o(row));
      return s === null ? null : matches(s) !== negated;
    };
  }
  // A computed pattern usually repeats from row to row, so remember the last translation.
  const p = compileNode(patternNode);
  let lastPattern: string | null = null;
  let lastMatcher: ((s: string) => boolean) | null = null;
  return (row) => {
    const s = toStr(o(row));
    if (s === null) return null;
    const pat = toStr(p(row));
    if (pat === null) return null;
    if (pat !== lastPattern || lastMatcher === null) {
      lastMatcher = likeMatcher(pat);
      lastPattern = pat;
    }
    return lastMatcher(s) !== negated;
  };
}

function compileCase(node: CaseNode): Evaluator {
  const whens = node.branches.map((b) => compileNode(b.when));
  const thens = node.branches.map((b) => compileNode(b.then));
  const otherwise = node.otherwise ? compileNode(node.otherwise) : () => null;
  const n = whens.length;
  if (node.subject === null) {
    return (row) => {
      for (let i = 0; i < n; i++) if (toBool(whens[i](row)) === true) return thens[i](row);
      return otherwise(row);
    };
  }
  const subject = compileNode(node.subject);
  return (row) => {
    // A NULL subject matches no WHEN, not even WHEN NULL, exactly as `NULL = NULL` is not true.
    const v = subject(row);
    for (let i = 0; i < n; i++) if (sqlEquals(v, whens[i](row)) === true) return thens[i](row);
    return otherwise(row);
  };
}
