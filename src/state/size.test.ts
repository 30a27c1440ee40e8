import { describe, expect, it } from 'vitest';
import { approxSize } from './size.ts';

describe('approxSize', () => {
  it('counts small values exactly', () => {
    expect(approxSize({ a: 1, bb: 'xy' })).toBe(16 + 2 + 8 + 4 + 12);
    expect(approxSize([1, 2, 3])).toBe(16 + 24);
  });

  it('estimates long arrays from a sample, close to the exact walk', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ kind: i % 2 ? '+U' : '-U', row: { key: `k${i % 977}`, n: i }, ts: i }));
    const exact = 16 + rows.reduce((n, r) => n + approxSize(r, 1), 0);
    const estimate = approxSize(rows);
    expect(Math.abs(estimate - exact) / exact).toBeLessThan(0.05);
  });

  it('stops at depth and never throws on a cycle', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(approxSize(a)).toBeGreaterThan(0);
  });
});
