import { runTrial, trialSpec } from './trial.ts';
import type { TrialResult } from './trial.ts';

export interface MatrixSummary {
  trials: number;
  failures: TrialResult[];
  restarts: number;
  kills: number;
  ms: number;
}

/** Runs the trials of seeds `from` … `from + count − 1`, reporting each as it ends. */
export async function runMatrix(from: number, count: number, onTrial?: (r: TrialResult) => void): Promise<MatrixSummary> {
  const t0 = performance.now();
  const failures: TrialResult[] = [];
  let restarts = 0;
  let kills = 0;
  for (let seed = from; seed < from + count; seed++) {
    const r = await runTrial(trialSpec(seed));
    restarts += r.restarts;
    kills += r.fired;
    if (!r.ok) failures.push(r);
    onTrial?.(r);
  }
  return { trials: count, failures, restarts, kills, ms: performance.now() - t0 };
}

export const describeTrial = (r: TrialResult): string =>
  `seed ${r.spec.seed}: ${r.spec.caseName} p=${r.spec.parallelism} ${r.spec.state}, kills ${r.spec.kills.map((k) => `${k.phase}@${k.at.toFixed(2)}`).join(' ')} (${r.fired} fired, ${r.restarts} restarts) ${r.ok ? 'ok' : `FAILED: ${r.problems.join('; ')}`}`;
