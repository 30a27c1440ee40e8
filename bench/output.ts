// Where a bench run writes. bench/results.json and bench/report.md are the figures of one full
// run, nothing else: a --quick run or an --only re-measurement writes to bench/partial/ (ignored by
// git) and never touches them.
import { join } from 'node:path';

export const PARTIAL_DIR = 'partial';

export interface RunMode {
  quick: boolean;
  /** Suites picked by --only; null for every suite. */
  only: readonly string[] | null;
}

export interface OutputPaths {
  /** True only for a full-size run of every suite: the run that may write the committed figures. */
  full: boolean;
  results: string;
  report: string;
  /**
   * An --only run keeps the other figures of an earlier run: the first of these files that exists
   * (the last partial run, else, at full size, the committed full run; read, never written).
   */
  base: string[];
}

export function outputPaths(benchDir: string, mode: RunMode): OutputPaths {
  const full = !mode.quick && mode.only === null;
  const dir = full ? benchDir : join(benchDir, PARTIAL_DIR);
  const results = join(dir, 'results.json');
  const base = !mode.only ? [] : mode.quick ? [results] : [results, join(benchDir, 'results.json')];
  return { full, results, report: join(dir, 'report.md'), base };
}

/** Parses the command line of `npm run bench`: `--quick`, `--only=a,b`. */
export function runModeOf(argv: readonly string[]): RunMode {
  const arg = argv.find((a) => a.startsWith('--only'));
  if (arg === undefined) return { quick: argv.includes('--quick'), only: null };
  const only = arg.startsWith('--only=') ? arg.slice(7).split(',').filter(Boolean) : [];
  if (!only.length) throw new Error(`${arg}: name the suites to re-measure, e.g. --only=latency,nexmark`);
  return { quick: argv.includes('--quick'), only };
}
