import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobManager } from '../threaded/jobManager.ts';
import type { Spawn } from '../threaded/spawn.ts';
import { WorkerPool } from '../threaded/workerPool.ts';
import { nodeSpawn } from './nodeSpawn.ts';
import { loadExamples } from '../../testing/examples.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import { exactlyOnceDoc, sequenceViolations, withParallelism } from '../../testing/exactlyOncePipelines.ts';

// Real worker_threads: the same job manager and hosts as the in-process tests, on threads.
// Workers come from a pool so that consecutive jobs reuse warm threads, as the designer will.
let pool: WorkerPool;
let spawn: Spawn;
beforeAll(async () => {
  pool = new WorkerPool(await nodeSpawn());
  pool.prewarm(4);
  spawn = pool.take;
});
afterAll(() => pool.close());

describe('the threaded runtime on Node worker_threads', () => {
  it('equals the plain in-process run on example pipelines at parallelism 1 to 4', async () => {
    const examples = new Map(loadExamples().map((e) => [e.entry.file, e.doc]));
    const runs: [string, number][] = [['sales-by-store.json', 1], ['top-cities.json', 2], ['coffee-shop.json', 3], ['deliveries-interval.json', 4]];
    for (const [file, p] of runs) {
      const doc = examples.get(file)!;
      const res = await new JobManager(withParallelism(doc, p), { spawn, checkpointIntervalMs: 30 }).run();
      expect(res.status, `${file} p=${p}: ${res.reason}`).toBe('finished');
      expect(res.workers).toBe(p);
      expect(res.views, `${file} p=${p}`).toEqual(runPipeline(doc).views);
    }
  });

  it('keeps queues bounded by credit: a slow operator slows the 10k-record source', async () => {
    const capacity = 4;
    const batch = 100;
    const jm = new JobManager(exactlyOnceDoc(2, { n: 10_000, spinUs: 50 }), { spawn, channelCapacity: capacity, batchSize: batch, checkpointIntervalMs: 50 });
    const run = jm.run();
    let samples = 0;
    let maxLead = 0;
    let done = false;
    void run.finally(() => (done = true));
    while (!done) {
      const s = await jm.stats().catch(() => null);
      if (s?.nodes.src && s.nodes.work) {
        samples++;
        // Records the source has read that the slow map has not taken yet: queued or in flight only.
        maxLead = Math.max(maxLead, s.nodes.src.recordsOut - s.nodes.work.recordsIn);
        for (const e of s.edges) expect(e.queued + e.inFlight, e.edge).toBeLessThanOrEqual(e.capacity * 2);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const res = await run;
    expect(res.status, res.reason).toBe('finished');
    expect(sequenceViolations(res.views.view)).toEqual([]);
    expect(samples).toBeGreaterThan(3);
    // src → work has 2 channels: at most capacity messages each, a batch per message, plus one poll waiting.
    expect(maxLead).toBeLessThanOrEqual(2 * capacity * batch + batch);
    for (const e of res.stats!.edges) {
      expect(e.maxQueued, e.edge).toBeLessThanOrEqual(capacity);
      expect(e.maxInFlight, e.edge).toBeLessThanOrEqual(capacity);
    }
  });

  it('detects a worker that stops answering by heartbeat timeout and recovers', async () => {
    const doc = exactlyOnceDoc(2, { n: 4000, spinUs: 100 });
    const jm = new JobManager(doc, { spawn, prewarm: (n) => pool.prewarm(n), checkpointIntervalMs: 20, heartbeatMs: 50, heartbeatTimeoutMs: 1000, restart: { type: 'fixedDelay', delayMs: 10, maxAttempts: 3 } });
    const run = jm.run();
    while (!jm.checkpointHistory().some((c) => c.status === 'completed')) await new Promise((r) => setTimeout(r, 10));
    jm.freezeWorker(1, 3000);
    const res = await run;
    expect(res.status, res.reason).toBe('finished');
    // (A machine starved of CPU may miss another heartbeat later; the first failure is the frozen worker.)
    expect(res.restarts).toBeGreaterThanOrEqual(1);
    expect(res.recoveries[0].reason).toMatch(/^worker 1 sent no heartbeat for \d+ ms \(timeout 1000 ms\)$/);
    expect(res.views.view).toEqual(runPipeline(exactlyOnceDoc(1, { n: 4000 })).views.view);
  });
});
