// The texts a figure reads instead of a number (in results.json and the report).

/** The runtime gave no preview stream (`onPreview`: sink changes before their checkpoint commits) in the run, so there is nothing to time. */
export const NO_PREVIEW = 'n/a: no preview output';

/** A latency at a rate the job did not sustain measures a backlog, not the pipeline: it is not given. */
export function notSustained(offered: number, achieved: number, highest: number | null, tried: number): string {
  const k = (r: number) => `${Math.round(r / 1000)}k`;
  return `not sustained (${k(achieved)} of ${k(offered)} ev/s; highest sustained: ${highest === null ? `none of the ${tried} rates tried` : `${k(highest)} ev/s`})`;
}

export const isLatencyText = (v: unknown): v is string => typeof v === 'string' && (v === NO_PREVIEW || v.startsWith('not sustained ('));

/** A figure whose suite failed (timed out or threw) reads this: it misses its target, and says why. */
export const failedText = (reason: string): string => `failed: ${reason}`;
export const isFailedText = (v: unknown): v is string => typeof v === 'string' && v.startsWith('failed: ');
