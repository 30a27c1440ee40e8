import { JobManager } from '../../runtime/threaded/jobManager.ts';
import { MemoryCheckpointStore } from '../../checkpoint/memoryStore.ts';
import type { Spawn } from '../../runtime/threaded/spawn.ts';
import { latencyJobDoc } from './latencyJob.ts';

export interface LoadTrialResult {
  problems: string[];
  restarts: number;
  changes: number;
  log: string[];
}

async function whenCompleted(jm: JobManager, after: number): Promise<void> {
  for (let i = 0; i < 3000 && jm.checkpointHistory().filter((c) => c.status === 'completed').length <= after; i++) await new Promise((r) => setTimeout(r, 5));
}

/**
 * The latency job (run it beside a CPU hog) with a heartbeat gap under the timeout, then one
 * over it (a restart). Exact means: one +I/+U per record, a view counting every record once,
 * and a log line for every restart.
 */
export async function latencyLoadTrial(spawn: Spawn, o: { records: number; keys: number; checkpointIntervalMs: number; run: number }): Promise<LoadTrialResult> {
  let changes = 0;
  const log: string[] = [];
  const jm = new JobManager(latencyJobDoc({ records: o.records, ratePerSec: 100_000, keys: o.keys, parallelism: 2, run: o.run }), {
    spawn,
    store: new MemoryCheckpointStore({ ownership: 'handover' }),
    checkpointIntervalMs: o.checkpointIntervalMs,
    keepChangelog: false,
    heartbeatTimeoutMs: 1000,
    restart: { type: 'fixedDelay', delayMs: 10, maxAttempts: 10 },
    onPublish: (_sink, c) => {
      for (const e of c.els) if (e.kind === '+I' || e.kind === '+U') changes++;
    },
    log: (line) => log.push(line),
  });
  const run = jm.run();
  await whenCompleted(jm, 0);
  jm.freezeWorker(1, 300); // jitter: a gap under the timeout, no restart
  await whenCompleted(jm, 1);
  jm.freezeWorker(0, 1600); // a gap over the timeout: the worker is failed and the job restarts
  const res = await run;
  const problems: string[] = [];
  if (res.status !== 'finished') problems.push(`the job ${res.status}: ${res.reason}`);
  if (changes !== o.records) problems.push(`the view published ${changes} changes for ${o.records} records`);
  const counted = (res.views.view ?? []).reduce((s, r) => s + (r.n as number), 0);
  if (res.status === 'finished' && counted !== o.records) problems.push(`the view counts ${counted} records of ${o.records}`);
  const logged = log.filter((l) => /^restart \d+ in \d+ ms after: /.test(l)).length;
  if (logged !== res.restarts) problems.push(`${res.restarts} restarts, ${logged} in the log`);
  if (res.restarts < 1) problems.push('the heartbeat gap over the timeout did not restart the job');
  return { problems, restarts: res.restarts, changes, log };
}
