// The highest rate a job sustains: a run at `rate` is sustained when it delivered at least
// SUSTAINED_SHARE of it. Latency only means something at a sustained rate; above it, the figures
// measure a backlog that grows with the run's length.

export const SUSTAINED_SHARE = 0.99;

export const sustained = (offered: number, achieved: number): boolean => achieved >= SUSTAINED_SHARE * offered;

export interface RateProbe<T> {
  rate: number;
  achieved: number;
  run: T;
}

/**
 * Searches below `failedRate` (a rate that was not sustained, at which the job achieved `achieved`)
 * for the highest sustained one in `steps` probes: the first probe is just under what the job
 * achieved there, then bisection between the best sustained and the lowest failed rate. Rates are
 * rounded to `grain`. Returns the best sustained probe, or null when none was.
 */
export async function highestSustained<T>(failedRate: number, achieved: number, steps: number, probe: (rate: number) => Promise<{ achieved: number; run: T }>, grain = 1000): Promise<RateProbe<T> | null> {
  const round = (r: number) => Math.max(grain, Math.round(r / grain) * grain);
  let best: RateProbe<T> | null = null;
  let failed = failedRate;
  let next = round(Math.min(achieved, failedRate) * 0.95);
  const tried = new Set<number>();
  for (let i = 0; i < steps && next < failed && !tried.has(next); i++) {
    tried.add(next);
    const got = await probe(next);
    if (sustained(next, got.achieved)) best = { rate: next, achieved: got.achieved, run: got.run };
    else failed = next;
    const low = best?.rate ?? 0;
    next = round(best ? (low + failed) / 2 : Math.min(got.achieved, next) * 0.9);
    if (next <= low) break;
  }
  return best;
}
