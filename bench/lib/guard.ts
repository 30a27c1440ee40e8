// A suite that hangs or throws becomes failed figures with the reason, and the run goes on to
// the next suite: one stuck suite must not cost the whole run (a Nexmark run once crawled for
// over two hours and the run wrote nothing).
import { FIGURES, type FigureValue } from '../figures.ts';
import { failedText } from './latencyText.ts';

/** Where results.json records why a suite failed. */
export const FAILED_PREFIX = 'bench.failed.';
export const failureKey = (suite: string): string => `${FAILED_PREFIX}${suite}`;

/** The report's figures that start with one of `prefixes` (a suite's figures). */
export function figuresOf(prefixes: readonly string[]): string[] {
  return FIGURES.map((f) => f.name).filter((n) => prefixes.some((p) => n.startsWith(p)));
}

export class TimedOut extends Error {}

/** `run` with a deadline: rejects with TimedOut after `ms` (the work itself is stopped by the caller). */
export async function withTimeout<T>(ms: number, run: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const work = run();
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(`timed out after ${Math.round(ms / 1000)} s`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
    // The loser of the race may still reject (a reloaded page): nobody waits for it any more.
    work.catch(() => undefined);
  }
}

/** Every figure of the suite reads as failed with the reason; results.json also keeps the reason under `bench.failed.<suite>`. */
export function failedFigures(suite: string, figures: readonly string[], reason: string): Record<string, FigureValue> {
  const out: Record<string, FigureValue> = { [failureKey(suite)]: reason };
  for (const f of figures) out[f] = failedText(reason);
  return out;
}
