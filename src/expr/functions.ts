import type { CastTarget, ExprNode, FieldType } from './ast.ts';
import type { ArgTypes, Evaluator, FunctionDef, Row } from './functionKit.ts';
import { always, decimalShift, firstKnown, num1, num2, numeric, str1 } from './functionKit.ts';
import { STRING_FUNCTIONS, TRIM_SIDES, trimChars } from './fnString.ts';
import { MATH_FUNCTIONS } from './fnMath.ts';
import { FLOOR_UNITS, TIME_FUNCTIONS, ceilTo, floorTo, roundTime, timeRoundType } from './fnTime.ts';
import { JSON_FUNCTIONS } from './fnJson.ts';
import { JSON_BUILD_FUNCTIONS } from './fnJsonBuild.ts';
import { COLLECTION_FUNCTIONS } from './fnCollection.ts';
import { HASH_FUNCTIONS } from './fnHash.ts';
import { toDateText, toMillis } from './timeText.ts';
import { codePointLength, codePointSlice, compare, isNull, sqlEquals, toBool, toNum, toStr } from './values.ts';

export type { Evaluator, Row };
export { firstKnown };

/** SQL ROUND goes half away from zero (Flink rounds DECIMALs HALF_UP), unlike JS Math.round. */
export function roundHalfAway(x: number, digits: number): number {
  return decimalShift(x, digits, Math.round);
}

/** Flink's SUBSTRING: 1-based; a start of 0 means 1 and a negative start counts from the end. */
function substring(s: string, start: number, length: number | null): string | null {
  if (length !== null && length < 0) return null;
  const n = codePointLength(s);
  let from: number;
  if (start > 0) from = start - 1;
  else if (start < 0) from = Math.max(0, n + start);
  else from = 0;
  if (from >= n) return '';
  const to = length === null ? n : Math.min(n, from + length);
  return codePointSlice(s, from, to);
}

function extreme(sign: 1 | -1): FunctionDef['compile'] {
  // Flink's GREATEST/LEAST return NULL as soon as any argument is NULL.
  return (args) => (row) => {
    let best: unknown = null;
    for (let i = 0; i < args.length; i++) {
      const v = args[i](row);
      if (isNull(v)) return null;
      if (i === 0) {
        best = v;
        continue;
      }
      const c = compare(v, best);
      if (c === null) return null;
      if (c * sign > 0) best = v;
    }
    return best;
  };
}

function extremeType(types: ArgTypes): FieldType | null {
  if (types.length > 0 && types.every((t) => t === 'integer')) return 'integer';
  if (types.length > 0 && types.every((t) => t === 'integer' || t === 'number')) return 'number';
  return firstKnown(types);
}

const FUNCTIONS: Record<string, FunctionDef> = {
  UPPER: { min: 1, max: 1, compile: str1((s) => s.toUpperCase()), type: always('string') },
  LOWER: { min: 1, max: 1, compile: str1((s) => s.toLowerCase()), type: always('string') },
  // SQL TRIM strips spaces only, not all whitespace as String.prototype.trim would. The special
  // form TRIM(LEADING|TRAILING|BOTH [chars] FROM s) has the side as its keyword and args [s, chars?].
  TRIM: {
    min: 1,
    max: 2,
    keywords: TRIM_SIDES,
    compile: ([a, chars], side) => {
      if (!side) return str1((s) => trimChars(s, ' ', 'BOTH'))([a]);
      return (row) => {
        const s = toStr(a(row));
        if (s === null) return null;
        const c = chars ? toStr(chars(row)) : ' ';
        return c === null ? null : trimChars(s, c, side);
      };
    },
    type: always('string'),
  },
  CHAR_LENGTH: { min: 1, max: 1, compile: str1(codePointLength), type: always('integer') },
  SUBSTRING: {
    min: 2,
    max: 3,
    compile: ([s, start, len]) => (row) => {
      const str = toStr(s(row));
      if (str === null) return null;
      const from = toNum(start(row));
      if (from === null) return null;
      if (!len) return substring(str, Math.trunc(from), null);
      const n = toNum(len(row));
      return n === null ? null : substring(str, Math.trunc(from), Math.trunc(n));
    },
    type: always('string'),
  },
  CONCAT: {
    min: 1,
    max: Infinity,
    compile: (args) => (row) => {
      let out = '';
      for (let i = 0; i < args.length; i++) {
        const s = toStr(args[i](row));
        if (s === null) return null;
        out += s;
      }
      return out;
    },
    type: always('string'),
  },
  ABS: { min: 1, max: 1, compile: num1(Math.abs), type: ([t]) => numeric(t) },
  ROUND: {
    min: 1,
    max: 2,
    compile: ([x, digits]) => (digits ? num2(roundHalfAway)([x, digits]) : num1((v) => roundHalfAway(v, 0))([x])),
    type: ([t]) => numeric(t),
  },
  // FLOOR/CEIL(t TO unit) round a point in time; the unit is the keyword.
  FLOOR: { min: 1, max: 1, keywords: FLOOR_UNITS, compile: ([a], unit) => (unit ? roundTime(floorTo)(a, unit) : num1(Math.floor)([a])), type: (t, unit) => (unit ? timeRoundType(t) : numeric(t[0])) },
  CEIL: { min: 1, max: 1, keywords: FLOOR_UNITS, compile: ([a], unit) => (unit ? roundTime(ceilTo)(a, unit) : num1(Math.ceil)([a])), type: (t, unit) => (unit ? timeRoundType(t) : numeric(t[0])) },
  // The remainder takes the dividend's sign in both JS and SQL; MOD by zero is NULL like `/`.
  MOD: {
    min: 2,
    max: 2,
    compile: num2((x, y) => (y === 0 ? null : x % y)),
    type: ([a, b]) => (a === 'integer' && b === 'integer' ? 'integer' : 'number'),
  },
  POWER: { min: 2, max: 2, compile: num2(Math.pow), type: always('number') },
  SQRT: { min: 1, max: 1, compile: num1(Math.sqrt), type: always('number') },
  COALESCE: {
    min: 1,
    max: Infinity,
    compile: (args) => (row) => {
      for (let i = 0; i < args.length; i++) {
        const v = args[i](row);
        if (!isNull(v)) return v;
      }
      return null;
    },
    type: firstKnown,
  },
  NULLIF: {
    min: 2,
    max: 2,
    compile: ([a, b]) => (row) => {
      const v = a(row);
      return sqlEquals(v, b(row)) === true ? null : (v ?? null);
    },
    type: ([t]) => t,
  },
  IF: {
    min: 3,
    max: 3,
    compile: ([c, a, b]) => (row) => (toBool(c(row)) === true ? a(row) : b(row)) ?? null,
    type: ([, a, b]) => firstKnown([a, b]),
  },
  GREATEST: { min: 1, max: Infinity, compile: extreme(1), type: extremeType },
  LEAST: { min: 1, max: Infinity, compile: extreme(-1), type: extremeType },
  ...STRING_FUNCTIONS,
  ...MATH_FUNCTIONS,
  ...TIME_FUNCTIONS,
  ...JSON_FUNCTIONS,
  ...JSON_BUILD_FUNCTIONS,
  ...COLLECTION_FUNCTIONS,
  ...HASH_FUNCTIONS,
};
FUNCTIONS.SUBSTR = FUNCTIONS.SUBSTRING;
FUNCTIONS.IFNULL = { ...FUNCTIONS.COALESCE, min: 2, max: 2 };

/** Functions written as plain calls `NAME(a, b)`. */
export const FUNCTION_NAMES: readonly string[] = Object.keys(FUNCTIONS).filter((n) => !FUNCTIONS[n].syntaxOnly);

/** Every function, with the special forms (POSITION, EXTRACT, TIMESTAMPADD, IS JSON …) among them. */
export const hasFunction = (name: string): boolean => Object.hasOwn(FUNCTIONS, name);

/** The keywords a special form of the function takes (units, sides), or null. */
export const functionKeywords = (name: string): readonly string[] | null => FUNCTIONS[name]?.keywords ?? null;

/** Returns a description of the arity problem, or null when `count` arguments are acceptable. */
export function checkArity(name: string, count: number): string | null {
  const def = FUNCTIONS[name];
  if (count >= def.min && count <= def.max) return null;
  const expected =
    def.max === Infinity
      ? `at least ${def.min} argument${def.min === 1 ? '' : 's'}`
      : def.min === def.max
        ? `${def.min} argument${def.min === 1 ? '' : 's'}`
        : `${def.min} ${def.max === def.min + 1 ? 'or' : 'to'} ${def.max} arguments`;
  return `Function ${name} expected ${expected}, found ${count}`;
}

export function compileCall(name: string, args: readonly Evaluator[], keyword?: string, nodes?: readonly ExprNode[]): Evaluator {
  return FUNCTIONS[name].compile(args, keyword, nodes);
}

export function callType(name: string, args: ArgTypes, keyword?: string): FieldType | null {
  return FUNCTIONS[name].type(args, keyword);
}

export function compileCast(o: Evaluator, target: CastTarget, fromDouble = false): Evaluator {
  // Invalid input gives NULL (TRY_CAST behaviour); Flink's CAST would fail the job instead.
  switch (target) {
    case 'STRING':
      return fromDouble
        ? (row) => {
            const v = o(row);
            return typeof v === 'number' ? doubleText(v) : toStr(v);
          }
        : (row) => toStr(o(row));
    case 'DOUBLE':
      return (row) => castNumber(o(row));
    case 'BIGINT':
      return (row) => {
        const n = castNumber(o(row));
        return n === null ? null : Math.trunc(n) + 0;
      };
    case 'BOOLEAN':
      return (row) => toBool(o(row));
    // A DATE is its 'yyyy-MM-dd' text; a TIMESTAMP epoch milliseconds (text is read in UTC).
    case 'DATE':
      return (row) => toDateText(o(row));
    case 'TIMESTAMP':
      return (row) => toMillis(o(row));
  }
}

/** A DOUBLE as Flink (Java's Double.toString) writes it: 2.0, 0.001, 1.0E7, 1.5E-4. */
export function doubleText(d: number): string | null {
  if (!Number.isFinite(d)) return null;
  if (d === 0) return Object.is(d, -0) ? '-0.0' : '0.0';
  const a = Math.abs(d);
  if (a >= 1e-3 && a < 1e7) {
    const s = String(d);
    return s.includes('.') ? s : `${s}.0`;
  }
  // toExponential() without digits gives the shortest digits that read back as d, as Java does.
  const [mantissa, exponent] = d.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

function castNumber(v: unknown): number | null {
  if (typeof v === 'boolean') return v ? 1 : 0;
  return toNum(v);
}
