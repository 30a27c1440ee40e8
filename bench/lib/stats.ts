/** Timing and robust summaries shared by every suite (Node and browser workers alike). */

export const now = (): number => performance.now();

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

/** How many runs and warm-ups each figure takes. Every figure takes ≥ 5 measured runs after a warm-up. */
export interface RunPlan {
  runs: number;
  warmups: number;
}

export const DEFAULT_RUNS: RunPlan = { runs: 5, warmups: 1 };

export type Side = () => number | Promise<number>;

export interface Interleaved {
  /** Median of each side's measured values (a side returns milliseconds or a rate, as the caller decides). */
  median: Record<string, number>;
  /** Every measured value per side, in run order. */
  samples: Record<string, number[]>;
}

/**
 * Runs the sides one after the other in every round (rotating who goes first, so drift and GC
 * debt spread evenly), warm-up rounds discarded. Comparisons are only fair when both sides
 * share the page, the worker and the moment.
 */
export async function interleave(sides: Record<string, Side>, plan: RunPlan = DEFAULT_RUNS): Promise<Interleaved> {
  const names = Object.keys(sides);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < plan.warmups + plan.runs; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length];
      const v = await sides[name]();
      if (round >= plan.warmups) samples[name].push(v);
    }
  }
  return { median: Object.fromEntries(names.map((n) => [n, median(samples[n])])), samples };
}

/** Median over rounds of a/b: paired ratios cancel the noise the two sides shared. */
export function pairedRatio(r: Interleaved, a: string, b: string): number {
  const xs = r.samples[a].map((v, i) => v / r.samples[b][i]);
  return median(xs);
}

/** Milliseconds a callback takes. */
export async function timeMs(fn: () => unknown): Promise<number> {
  const t0 = now();
  await fn();
  return now() - t0;
}

/** Gives the event loop a turn (IndexedDB callbacks, messages) without a timer. */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}
