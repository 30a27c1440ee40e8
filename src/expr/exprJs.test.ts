import { describe, expect, it } from 'vitest';
import { compileExpr } from './index.ts';
import { EXPR_JS_LOCALS, exprJs } from './compile.ts';
import type { Evaluator, Row } from './compile.ts';

/** The expression's JS text as one compiled function, falling back to its evaluator as callers do. */
function compiled(src: string): (row: Row) => unknown {
  const e = compileExpr(src);
  const js = exprJs(e.ast, 'e(r)');
  if (js === null) throw new Error(`${src}: no JS text`);
  const f = new Function('e', 'r', `let ${EXPR_JS_LOCALS.join(', ')}; return ${js};`) as (e: Evaluator, r: Row) => unknown;
  return (row) => f(e.evaluate, row);
}

const VALUES: unknown[] = [0, -0, 1, -1, 2, 7, 0.5, 0.908, 123, -3.25, 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER, NaN, Infinity, -Infinity, '12', ' 3 ', '', 'abc', '2', null, undefined, true, false, 10n, { x: 1 }, [2]];
const OPS = ['+', '-', '*', '/', '%', '=', '<>', '<', '<=', '>', '>='];
const LITERALS = ['0', '2', '0.908', '123', '3.5', '179769313486231570000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'];

const rowsOf = (a: unknown, b: unknown): Row[] => [
  { a, b, bid: { price: a, auction: b } },
  { bid: null },
  { bid: 'text' },
  {},
];

describe('exprJs', () => {
  it('gives what the evaluator gives for every operator over fields and number literals, either side', () => {
    const sources: string[] = [];
    for (const op of OPS) {
      sources.push(`a ${op} b`, `bid.price ${op} bid.auction`, `a ${op} bid.auction`);
      for (const lit of LITERALS) sources.push(`a ${op} ${lit}`, `${lit} ${op} a`, `bid.price ${op} ${lit}`, `${lit} ${op} bid.price`);
    }
    let checked = 0;
    for (const src of sources) {
      const fast = compiled(src);
      const slow = compileExpr(src).evaluate;
      for (const a of VALUES) {
        for (const b of [2, 0, -0, NaN, Infinity, 'x', null, 0.5]) {
          for (const row of rowsOf(a, b)) {
            const want = slow(row);
            const got = fast(row);
            if (!Object.is(got, want)) throw new Error(`${src} over ${String(a)}, ${String(b)}: ${String(got)}, the evaluator gives ${String(want)}`);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(50_000);
  });

  it('computes the finite-number case itself and calls the fallback for the rest', () => {
    const e = compileExpr('0.908 * bid.price');
    const js = exprJs(e.ast, 'e(r)')!;
    let calls = 0;
    const f = new Function('e', 'r', `let ${EXPR_JS_LOCALS.join(', ')}; return ${js};`) as (e: Evaluator, r: Row) => unknown;
    const counting: Evaluator = (row) => (calls++, e.evaluate(row));
    expect(f(counting, { bid: { price: 100 } })).toBe(0.908 * 100);
    expect(calls).toBe(0);
    expect(f(counting, { bid: { price: '100' } })).toBe(0.908 * 100);
    expect(f(counting, { bid: { price: Infinity } })).toBe(null);
    expect(calls).toBe(2);
  });

  it('writes no text for expressions it does not compile', () => {
    for (const src of ['a AND b', 'MOD(a, 2)', "s || 'x'", '1 + 2', 'a.b.c * 2', 'constructor = 1', 'a + b * 2', '-a', "a = 'x'"]) {
      expect(exprJs(compileExpr(src).ast, 'e(r)'), src).toBeNull();
    }
  });
});
