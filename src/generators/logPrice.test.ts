import { describe, expect, it } from 'vitest';
import { logPrice } from './logPrice.ts';
import { seededRng } from '../core/rng.ts';

const reference = (u: number) => Math.round(Math.pow(10, u * 6) * 100);

describe('logPrice', () => {
  it('equals Math.round(Math.pow(10, u * 6) * 100) over a million rng draws', () => {
    const rng = seededRng(20261207);
    let differ = 0;
    for (let i = 0; i < 1_000_000; i++) {
      const u = rng.next();
      if (logPrice(u) !== reference(u)) differ++;
    }
    expect(differ).toBe(0);
  });

  it('equals it at the ends, at table steps and next to them', () => {
    const us = [0, 2 ** -32, 1 - 2 ** -32, 0.5, 1 / 3];
    for (let j = 0; j <= 6 * 256; j++) {
      const u = j / 256 / 6;
      if (u < 1) us.push(u, Math.max(0, u - 2 ** -32), u + 2 ** -32);
    }
    for (const u of us) expect([u, logPrice(u)]).toEqual([u, reference(u)]);
  });

  it('equals it where the price lies next to a half (where Math.pow decides)', () => {
    // u whose 10^(6u) × 100 is n + 0.5 for some n, by bisection on the reference's rounding step.
    const us: number[] = [];
    for (const target of [150.5, 1234.5, 99_999.5, 12_345_678.5, 99_999_999.5]) {
      let lo = 0;
      let hi = 1;
      for (let k = 0; k < 60; k++) {
        const mid = (lo + hi) / 2;
        if (Math.pow(10, mid * 6) * 100 < target) lo = mid;
        else hi = mid;
      }
      us.push(lo, hi);
    }
    for (const u of us) expect([u, logPrice(u)]).toEqual([u, reference(u)]);
  });
});
