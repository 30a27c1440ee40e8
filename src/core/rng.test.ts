import { describe, expect, it } from 'vitest';
import { seededRng } from './rng.ts';

/** mulberry32 as published, its state one unsigned 32-bit number. */
function reference(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('seededRng', () => {
  it('draws mulberry32 from any seed, its state and reset round-tripping', () => {
    for (const seed of [0, 1, 42, 0x7fffffff, 0x80000000, 0xffffffff, 2 ** 32 + 5, -1, -123456, 3.7, 0xdeadbeef]) {
      const want = reference(seed);
      const rng = seededRng(seed);
      for (let i = 0; i < 1000; i++) {
        if (i === 500) {
          const at = rng.state();
          expect(at).toBeGreaterThanOrEqual(0);
          expect(at).toBeLessThan(2 ** 32);
          rng.reset(at);
        }
        expect(rng.next(), `seed ${seed}, draw ${i}`).toBe(want());
      }
    }
    const rng = seededRng(0);
    rng.reset(-7);
    expect(rng.next()).toBe(reference(-7)());
    expect(seededRng(9).int(1000)).toBe(Math.floor(reference(9)() * 1000));
  });
});
