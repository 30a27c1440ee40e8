import { describe, expect, it } from 'vitest';
import { describeTrial, runMatrix } from './matrix.ts';
import { chaosCases } from './cases.ts';

// A seeded sample of the chaos matrix (`npm run chaos` runs 540): three trials of every case.
describe('chaos matrix sample', () => {
  it('every trial ends with the plain run\'s views and an unbroken per-key sequence', async () => {
    const count = 3 * chaosCases().length;
    expect(count).toBeGreaterThanOrEqual(50);
    const s = await runMatrix(0, count);
    expect(s.failures.map(describeTrial)).toEqual([]);
    // The kills really fell: most trials were interrupted, many more than once.
    expect(s.kills).toBeGreaterThan(count);
  }, 120_000);
});
