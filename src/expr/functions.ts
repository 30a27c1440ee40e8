import type { CastTarget, FieldType } from './ast.ts';
import { codePointLength, codePointSlice, compare, finite, isNull, sqlEquals, toBool, toNum, toStr } from './values.ts';

export type Row = Record<string, unknown>;
export type Evaluator = (row: Row) => unknown;
type ArgTypes = readonly (FieldType | null)[];

interface FunctionDef {
  min: number;
  max: number;
  /** Builds the closure once per compiled expression; the closure itself must not allocate. */
  compile(args: readonly Evaluator[]): Evaluator;
  type(args: ArgTypes): FieldType | null;
}

const numeric = (t: FieldType | null): FieldType => (t === 'integer' ? 'integer' : 'number');
const always = (t: FieldType) => (): FieldType => t;
export const firstKnown = (types: ArgTypes): FieldType | null => types.find((t) => t !== null) ?? null;

function num1(f: (x: number) => number): FunctionDef['compile'] {
  return ([a]) =>
    (row) => {
      const x = toNum(a(row));
      return x === null ? null : finite(f(x));
    };
}

function num2(f: (x: number, y: number) => number | null): FunctionDef['compile'] {
  return ([a, b]) =>
    (row) => {
      const x = toNum(a(row));
      if (x === null) return null;
      const y = toNum(b(row));
      if (y === null) return null;
      const r = f(x, y);
      return r === null ? null : finite(r);
    };
}

function str1(f: (s: string) => unknown): FunctionDef['compile'] {
  return ([a]) =>
    (row) => {
      const s = toStr(a(row));
      return s === null ? null : f(s);
    };
}

/** SQL ROUND goes half away from zero (Flink rounds DECIMALs HALF_UP), unlike JS Math.round. */
export function roundHalfAway(x: number, digits: number): number {
  const d = Math.trunc(digits);
  const ax = Math.abs(x);
  // Shifting through the decimal exponent avoids binary artefacts: ROUND(1.005, 2) is 1.01, not 1.
  const shifted = Number(`${ax}e${d}`);
  let r = Number(`${Math.round(shifted)}e${-d}`);
  if (!Number.isFinite(r)) {
    const f = 10 ** d;
    r = Math.round(ax * f) / f;
  }
  if (!Number.isFinite(r)) return x;
  return x < 0 ? -r : r;
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

const FUNCTIONS: Readonly<Record<string, FunctionDef>> = {
  UPPER: { min: 1, max: 1, compile: str1((s) => s.toUpperCase()), type: always('string') },
  LOWER: { min: 1, max: 1, compile: str1((s) => s.toLowerCase()), type: always('string') },
  // SQL TRIM strips spaces only, not all whitespace as String.prototype.trim would.
  TRIM: { min: 1, max: 1, compile: str1((s) => s.replace(/^ +| +$/g, '')), type: always('string') },
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
  FLOOR: { min: 1, max: 1, compile: num1(Math.floor), type: ([t]) => numeric(t) },
  CEIL: { min: 1, max: 1, compile: num1(Math.ceil), type: ([t]) => numeric(t) },
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
};

export const FUNCTION_NAMES: readonly string[] = Object.keys(FUNCTIONS);

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

export function compileCall(name: string, args: readonly Evaluator[]): Evaluator {
  return FUNCTIONS[name].compile(args);
}

export function callType(name: string, args: ArgTypes): FieldType | null {
  return FUNCTIONS[name].type(args);
}

export function compileCast(o: Evaluator, target: CastTarget): Evaluator {
  // Invalid input gives NULL (TRY_CAST behaviour); Flink's CAST would fail the job instead.
  switch (target) {
    case 'STRING':
      return (row) => toStr(o(row));
    case 'DOUBLE':
      return (row) => castNumber(o(row));
    case 'BIGINT':
      return (row) => {
        const n = castNumber(o(row));
        return n === null ? null : Math.trunc(n) + 0;
      };
    case 'BOOLEAN':
      return (row) => toBool(o(row));
  }
}

function castNumber(v: unknown): number | null {
  if (typeof v === 'boolean') return v ? 1 : 0;
  return toNum(v);
}
