/**
 * Nexmark's log-uniform price, `Math.round(Math.pow(10, u * 6) * 100)` for u in [0, 1), to the
 * same integer at a fraction of the cost: Math.pow was a fifth of the generator's time, and a bid
 * needs one. 10^e is a table entry for e's first 8 binary places times a short series for the
 * rest; that is within 1e-6 of 10^e × 100 here, so it rounds as Math.pow does unless the product
 * lies within 1e-5 of a half, where (once in 50,000 draws) Math.pow itself decides.
 */
const PLACES = 256;
const STEPS = Array.from({ length: 6 * PLACES + 1 }, (_, j) => Math.pow(10, j / PLACES));
const LN10 = Math.LN10;
const GUARD = 1e-5;

export function logPrice(u: number): number {
  const e = u * 6;
  const j = Math.floor(e * PLACES);
  // Exact: j / PLACES lies within one step below e and has no more binary places than e.
  const z = (e - j / PLACES) * LN10;
  // e^z for 0 <= z < 0.009: the series' remainder is below 1e-18.
  const ez = 1 + z * (1 + z * (1 / 2 + z * (1 / 6 + z * (1 / 24 + z * (1 / 120 + z * (1 / 720))))));
  const v = STEPS[j] * ez * 100;
  const f = v - Math.floor(v);
  if (f > 0.5 - GUARD && f < 0.5 + GUARD) return Math.round(Math.pow(10, e) * 100);
  return Math.round(v);
}
