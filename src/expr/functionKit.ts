/** What a built-in function is, and the small builders the function tables share. */
import type { ExprNode, FieldType } from './ast.ts';
import { finite, toNum, toStr } from './values.ts';

export type Row = Record<string, unknown>;
export type Evaluator = (row: Row) => unknown;
export type ArgTypes = readonly (FieldType | null)[];

export interface FunctionDef {
  min: number;
  max: number;
  /**
   * Builds the closure once per compiled expression; the closure itself must not allocate.
   * `keyword` is the word a special form carries (the unit of EXTRACT(HOUR FROM ts), the side of
   * TRIM(LEADING … FROM s)); the parser has checked it against `keywords`. `nodes` are the
   * arguments as written, for the few functions whose meaning depends on an argument's form.
   */
  compile(args: readonly Evaluator[], keyword?: string, nodes?: readonly ExprNode[]): Evaluator;
  type(args: ArgTypes, keyword?: string): FieldType | null;
  /** Special forms only: the words allowed as `keyword`. */
  keywords?: readonly string[];
  /** Written only in its special form (POSITION(a IN b)), never as a plain call. */
  syntaxOnly?: boolean;
}

export const numeric = (t: FieldType | null): FieldType => (t === 'integer' ? 'integer' : 'number');
export const always = (t: FieldType) => (): FieldType => t;
export const firstKnown = (types: ArgTypes): FieldType | null => types.find((t) => t !== null) ?? null;

export function num1(f: (x: number) => number | null): FunctionDef['compile'] {
  return ([a]) =>
    (row) => {
      const x = toNum(a(row));
      if (x === null) return null;
      const r = f(x);
      return r === null ? null : finite(r);
    };
}

export function num2(f: (x: number, y: number) => number | null): FunctionDef['compile'] {
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

export function str1(f: (s: string) => unknown): FunctionDef['compile'] {
  return ([a]) =>
    (row) => {
      const s = toStr(a(row));
      return s === null ? null : f(s);
    };
}

/** Every argument as a string (NULL if any is NULL), then `f`. */
export function strN(f: (s: readonly string[]) => unknown): FunctionDef['compile'] {
  return (args) => {
    const buf: string[] = new Array(args.length);
    return (row) => {
      for (let i = 0; i < args.length; i++) {
        const s = toStr(args[i](row));
        if (s === null) return null;
        buf[i] = s;
      }
      return f(buf);
    };
  };
}

/** A string, then integers (NULL if any is NULL); the integers are truncated toward zero. */
export function strInts(f: (s: string, n: readonly number[]) => unknown): FunctionDef['compile'] {
  return ([a, ...rest]) => {
    const buf: number[] = new Array(rest.length);
    return (row) => {
      const s = toStr(a(row));
      if (s === null) return null;
      for (let i = 0; i < rest.length; i++) {
        const n = toNum(rest[i](row));
        if (n === null) return null;
        buf[i] = Math.trunc(n);
      }
      return f(s, buf);
    };
  };
}

/**
 * Shifts through the decimal exponent, which avoids binary artefacts: ROUND(1.005, 2) is 1.01 and
 * TRUNCATE(1.13, 2) is 1.13, as Flink computes them on DECIMALs.
 */
export function decimalShift(x: number, digits: number, op: (v: number) => number): number {
  const d = Math.trunc(digits);
  const ax = Math.abs(x);
  const shifted = Number(`${ax}e${d}`);
  let r = Number(`${op(shifted)}e${-d}`);
  if (!Number.isFinite(r)) {
    const f = 10 ** d;
    r = op(ax * f) / f;
  }
  if (!Number.isFinite(r)) return x;
  return x < 0 ? -r : r;
}
