import { describe, expect, it } from 'vitest';
import { cloneValue } from './cloneValue.ts';

describe('cloneValue', () => {
  const cases: [string, unknown][] = [
    ['a group', { n: 3, out: { key: 'k1', cnt: 3, total: 41.5 }, a0: 3, a1: 41.5 }],
    ['the array layout', { n: 2, accs: [2, [1.5, 2]], out: { key: 7, cnt: 2 } }],
    ['special numbers and null', { a: NaN, b: -0, c: Infinity, d: null, e: undefined, f: 10n }],
    ['a Map inside', { m: new Map([['x', { y: 1 }]]), s: new Set([1, 2]) }],
    ['a Date and a typed array', [new Date(5), new Float64Array([1, 2])]],
    ['a sparse array', [1, , 3]], // eslint-disable-line no-sparse-arrays
    ['deep nesting', { a: { b: { c: { d: { e: { f: 1 } } } } } }],
    ['a wide array of objects', Array.from({ length: 100 }, (_, i) => ({ i }))],
  ];
  for (const [what, v] of cases) {
    it(`equals structuredClone for ${what}, sharing nothing`, () => {
      const c = cloneValue(v);
      expect(c).toStrictEqual(structuredClone(v));
      if (typeof v === 'object' && v !== null) expect(c).not.toBe(v);
    });
  }

  it('keeps shared and cyclic references as structuredClone does', () => {
    const inner = { x: 1 };
    const shared = { a: inner, b: inner };
    const c = cloneValue(shared);
    expect(c.a).toBe(c.b);
    expect(c.a).not.toBe(inner);
    const cyc: Record<string, unknown> = { n: 1 };
    cyc.self = cyc;
    const cc = cloneValue(cyc);
    expect(cc.self).toBe(cc);
  });

  it('makes a class instance a plain object and refuses functions, as structuredClone does', () => {
    class P {
      constructor(public x: number) {}
    }
    expect(Object.getPrototypeOf(cloneValue(new P(1)))).toBe(Object.prototype);
    expect(() => cloneValue({ f: () => 1 })).toThrow();
  });

  it('copies deeply: changing the copy leaves the original alone', () => {
    const v = { out: { cnt: 1 }, list: [1, 2] };
    const c = cloneValue(v);
    c.out.cnt = 9;
    c.list.push(3);
    expect(v).toEqual({ out: { cnt: 1 }, list: [1, 2] });
  });
});
