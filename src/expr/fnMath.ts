/** Flink's numeric built-ins beyond the basic ones in functions.ts. NaN and ±∞ are NULL in Weir. */
import type { FunctionDef } from './functionKit.ts';
import { always, decimalShift, num1, num2, numeric } from './functionKit.ts';
import { toNum, toStr } from './values.ts';

const double1 = (f: (x: number) => number): FunctionDef => ({ min: 1, max: 1, compile: num1(f), type: always('number') });
const constant = (v: number): FunctionDef => ({ min: 0, max: 0, compile: () => () => v, type: always('number') });

/** A BIGINT as Java prints it in base 2 or 16: negative numbers as their 64-bit two's complement. */
function radix(x: number, base: number): string {
  const n = BigInt.asUintN(64, BigInt(Math.trunc(x)));
  return n.toString(base).toUpperCase();
}

export const MATH_FUNCTIONS: Readonly<Record<string, FunctionDef>> = {
  LN: double1(Math.log),
  LOG10: double1(Math.log10),
  LOG2: double1(Math.log2),
  // LOG(x) is the natural logarithm; LOG(base, x) the logarithm to that base.
  LOG: { min: 1, max: 2, compile: ([a, b]) => (b ? num2((base, x) => Math.log(x) / Math.log(base))([a, b]) : num1(Math.log)([a])), type: always('number') },
  EXP: double1(Math.exp),
  SIN: double1(Math.sin),
  COS: double1(Math.cos),
  TAN: double1(Math.tan),
  COT: double1((x) => 1 / Math.tan(x)),
  ASIN: double1(Math.asin),
  ACOS: double1(Math.acos),
  ATAN: double1(Math.atan),
  ATAN2: { min: 2, max: 2, compile: num2(Math.atan2), type: always('number') },
  SINH: double1(Math.sinh),
  COSH: double1(Math.cosh),
  TANH: double1(Math.tanh),
  DEGREES: double1((x) => (x * 180) / Math.PI),
  RADIANS: double1((x) => (x * Math.PI) / 180),
  PI: constant(Math.PI),
  E: constant(Math.E),
  SIGN: { min: 1, max: 1, compile: num1(Math.sign), type: ([t]) => numeric(t) },
  // Toward zero, to `digits` decimals (negative digits zero the integer digits), as Flink on DECIMALs.
  TRUNCATE: {
    min: 1,
    max: 2,
    compile: ([x, d]) => (d ? num2((v, digits) => decimalShift(v, digits, Math.trunc))([x, d]) : num1(Math.trunc)([x])),
    type: ([t]) => numeric(t),
  },
  BIN: {
    min: 1,
    max: 1,
    compile: ([a]) => (row) => {
      const x = toNum(a(row));
      return x === null ? null : radix(x, 2);
    },
    type: always('string'),
  },
  // HEX of a number is its BIGINT in base 16; of text, its UTF-8 bytes.
  HEX: {
    min: 1,
    max: 1,
    compile: ([a]) => (row) => {
      const v = a(row);
      if (typeof v === 'number') return Number.isFinite(v) ? radix(v, 16) : null;
      const s = toStr(v);
      if (s === null) return null;
      let out = '';
      for (const b of new TextEncoder().encode(s)) out += b.toString(16).padStart(2, '0');
      return out.toUpperCase();
    },
    type: always('string'),
  },
};
