import { describe, expect, it } from 'vitest';
import { FirstK, firstK } from './select.ts';

describe('firstK', () => {
  it('returns the first k in order whatever the input order, with ties', () => {
    const xs = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 500);
    const want = [...xs].sort((a, b) => a - b).slice(0, 25);
    for (const input of [xs, [...xs].sort((a, b) => a - b), [...xs].sort((a, b) => b - a), xs.map(() => 3)]) {
      const expected = input.every((x) => x === 3) ? Array(25).fill(3) : want;
      expect(firstK([...input], 25, (a, b) => a - b)).toEqual(expected);
    }
    expect(firstK([3, 1, 2], 0, (a, b) => a - b)).toEqual([]);
    expect(firstK([3, 1, 2], 10, (a, b) => a - b)).toEqual([1, 2, 3]);
  });

  it('FirstK streams: sorted, reversed and scrambled input give the same first k', () => {
    const n = 20_000;
    const inputs = [Array.from({ length: n }, (_, i) => i), Array.from({ length: n }, (_, i) => n - 1 - i), Array.from({ length: n }, (_, i) => (i * 7919) % n)];
    for (const input of inputs) {
      for (const k of [0, 1, 100, 5000, n + 5]) {
        const f = new FirstK<number>(k, (a, b) => a - b);
        for (const x of input) f.offer(x);
        expect(f.sorted()).toEqual(Array.from({ length: Math.min(k, n) }, (_, i) => i));
      }
    }
  });
});
