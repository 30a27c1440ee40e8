// npm run chaos [-- --trials N] [--from SEED] [--replay SEED] [--verbose] [--load N [--browser]]
// The chaos matrix on the seeded in-process cluster: every example and operator-kind case ×
// parallelism 1, 2, 4 × memory and IndexedDB state × 1-3 kills (while processing, during a
// checkpoint's snapshot write, during a recovery). A trial is a pure function of its seed.
// --load N adds N runs of the latency job on Node worker_threads beside a CPU hog (about 1.5
// cores) with heartbeat jitter and a heartbeat timeout (a restart): exact changelog count and view.
// With --browser the same N runs also go on Web Workers in headless Chromium (the e2e lab page).
import { describeTrial, runMatrix } from '../src/testing/chaos/matrix.ts';
import { runTrial, trialSpec } from '../src/testing/chaos/trial.ts';
import { latencyLoadTrial } from '../src/testing/chaos/loadTrial.ts';
import { startCpuHog } from '../src/testing/chaos/cpuHog.ts';
import { nodeSpawn } from '../src/runtime/node/nodeSpawn.ts';
import type { LoadTrialResult } from '../src/testing/chaos/loadTrial.ts';
import { browserLoadRuns } from './chaosBrowser.ts';

type LoadTrialOptions = Parameters<typeof latencyLoadTrial>[1];

/** N load runs, alternating checkpoints every 100 and 20 ms, through `trial`; returns the failures. */
async function loadRuns(where: string, n: number, trial: (o: LoadTrialOptions) => Promise<LoadTrialResult>): Promise<number> {
  let failures = 0;
  for (let i = 0; i < n; i++) {
    const interval = i % 2 ? 20 : 100;
    const r = await trial({ records: 20_000, keys: 500, checkpointIntervalMs: interval, run: i });
    if (r.problems.length) failures++;
    console.log(`load run ${i} in ${where} (checkpoints every ${interval} ms): ${r.changes} changes, ${r.restarts} restarts${r.problems.length ? ` FAILED: ${r.problems.join('; ')}` : ' ok'}`);
  }
  console.log(`load in ${where}: ${n} runs, ${failures} failures`);
  return failures;
}

async function nodeLoadRuns(n: number): Promise<number> {
  const spawn = await nodeSpawn();
  const stop = startCpuHog(1.5);
  try {
    return await loadRuns('Node worker_threads', n, (o) => latencyLoadTrial(spawn, o));
  } finally {
    await stop();
  }
}

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

async function main(): Promise<number> {
  const replay = flag('--replay');
  if (replay !== undefined) {
    const r = await runTrial(trialSpec(Number(replay)));
    console.log(describeTrial(r));
    return r.ok ? 0 : 1;
  }
  const load = Number(flag('--load') ?? 0);
  const loadFailures = load ? (await nodeLoadRuns(load)) + (args.includes('--browser') ? await browserLoadRuns(load, loadRuns) : 0) : 0;
  const trials = Number(flag('--trials') ?? 540);
  const from = Number(flag('--from') ?? 0);
  const verbose = args.includes('--verbose');
  const s = await runMatrix(from, trials, (r) => {
    if (verbose || !r.ok) console.log(describeTrial(r));
  });
  console.log(`chaos: ${s.trials} trials, ${s.failures.length} failures, ${s.kills} kills, ${s.restarts} restarts, ${(s.ms / 1000).toFixed(1)} s`);
  if (s.failures.length) console.log(`replay a failure with: npm run chaos -- --replay <seed>; failed seeds: ${s.failures.map((f) => f.spec.seed).join(' ')}`);
  return s.failures.length || loadFailures ? 1 : 0;
}

main().then((code) => process.exit(code), (e) => (console.error(e), process.exit(2)));
