import { nodeSpawn } from '../../src/runtime/node/nodeSpawn.ts';
import { JobManager } from '../../src/runtime/threaded/jobManager.ts';
import { WorkerPool } from '../../src/runtime/threaded/workerPool.ts';
import { MemoryCheckpointStore } from '../../src/checkpoint/memoryStore.ts';
import { keyedEvents } from '../lib/events.ts';
import { keyedCountDoc } from '../lib/keyedCountDoc.ts';
import { median, type RunPlan } from '../lib/stats.ts';

export interface ThreadedSize {
  events: number;
  keys: number;
  /** Parallelism of keyBy, GROUP BY and view (the source is one subtask): records cross workers. */
  parallelism: number;
  checkpointIntervalMs: number;
}

/**
 * threaded.cpuUsPerRecord: the keyed count on the threaded runtime in Node worker_threads, CPU
 * (user + system) of the whole process, every thread included, per input record. The workers are
 * pooled and recycled, so after the warm-up runs no worker start-up is counted.
 */
export async function threadedSuite(size: ThreadedSize, plan: RunPlan): Promise<Record<string, number>> {
  const doc = keyedCountDoc() as { nodes: { id: string; parallelism?: number }[] };
  for (const n of doc.nodes) if (n.id !== 'events') n.parallelism = size.parallelism;
  const lines = keyedEvents(size.events, size.keys).map((e) => JSON.stringify(e));
  const pool = new WorkerPool(await nodeSpawn());
  const cpu: number[] = [];
  const eps: number[] = [];
  try {
    for (let r = 0; r < plan.warmups + plan.runs; r++) {
      const jm = new JobManager(doc, { spawn: pool.take, store: new MemoryCheckpointStore({ ownership: 'handover' }), keepChangelog: false, checkpointIntervalMs: size.checkpointIntervalMs, inputs: { events: { name: 'events.jsonl', lines } } });
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const res = await jm.run();
      const ms = performance.now() - t0;
      const c = process.cpuUsage(c0);
      if (res.status !== 'finished') throw new Error(`threaded keyed count ${res.status}: ${res.reason}`);
      if ((res.views.view?.length ?? 0) !== Math.min(size.keys, size.events)) throw new Error(`threaded keyed count: ${res.views.view?.length} view rows for ${size.keys} keys`);
      if (r < plan.warmups) continue;
      cpu.push((c.user + c.system) / size.events);
      eps.push(size.events / (ms / 1000));
    }
  } finally {
    pool.close();
  }
  return {
    'threaded.cpuUsPerRecord': median(cpu),
    'threaded.eventsPerSec': median(eps),
    'threaded.parallelism': size.parallelism,
  };
}
