import { describe, expect, it } from 'vitest';
import { highestSustained, sustained } from './rateSearch.ts';

/** A job that delivers min(rate, capacity). */
const job = (capacity: number) => {
  const asked: number[] = [];
  return { asked, probe: async (rate: number) => (asked.push(rate), { achieved: Math.min(rate, capacity), run: rate }) };
};

describe('highest sustained rate', () => {
  it('counts a run as sustained only at 0.99 of the offered rate or more', () => {
    expect(sustained(100_000, 99_000)).toBe(true);
    expect(sustained(100_000, 98_999)).toBe(false);
  });

  it('finds a sustained rate just under the capacity and never reports a failed one', async () => {
    const j = job(62_345);
    const best = await highestSustained(100_000, 62_345, 4, j.probe);
    expect(best).not.toBeNull();
    expect(best!.rate).toBeLessThanOrEqual(62_345 / 0.99);
    expect(best!.rate).toBeGreaterThan(50_000);
    expect(j.asked.length).toBeLessThanOrEqual(4);
    expect(sustained(best!.rate, best!.achieved)).toBe(true);
  });

  it('bisects upward after a sustained probe', async () => {
    const j = job(90_000);
    const best = await highestSustained(100_000, 80_000, 3, j.probe);
    expect(j.asked[0]).toBe(76_000);
    expect(j.asked[1]).toBe(88_000);
    expect(best!.rate).toBe(j.asked.filter((r) => r <= 90_000 / 0.99).sort((a, b) => b - a)[0]);
  });

  it('reports null when nothing was sustained within the steps', async () => {
    const j = job(500);
    expect(await highestSustained(100_000, 50_000, 2, j.probe)).toBeNull();
  });
});
