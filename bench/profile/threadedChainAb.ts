// Chained vs unchained view on the threaded runtime (Node worker_threads), interleaved in one process:
// `node --import tsx bench/profile/threadedChainAb.ts [events] [keys] [parallelism] [pairs]`.
// CPU (user + system) of the whole process, every thread included, per input record; workers pooled.
import { nodeSpawn } from '../../src/runtime/node/nodeSpawn.ts';
import { JobManager } from '../../src/runtime/threaded/jobManager.ts';
import { WorkerPool } from '../../src/runtime/threaded/workerPool.ts';
import { MemoryCheckpointStore } from '../../src/checkpoint/memoryStore.ts';
import { keyedEvents } from '../lib/events.ts';
import { keyedCountDoc } from '../lib/keyedCountDoc.ts';
import { median } from '../lib/stats.ts';

const [events = '300000', keys = '100000', parallelism = '2', pairs = '5'] = process.argv.slice(2);
const doc = keyedCountDoc() as { nodes: { id: string; parallelism?: number }[] };
for (const n of doc.nodes) if (n.id !== 'events') n.parallelism = Number(parallelism);
const lines = keyedEvents(Number(events), Number(keys)).map((e) => JSON.stringify(e));
const pool = new WorkerPool(await nodeSpawn());
const us: Record<'chained' | 'unchained', number[]> = { chained: [], unchained: [] };
try {
  for (let r = 0; r <= Number(pairs); r++) {
    for (const side of (r % 2 ? ['unchained', 'chained'] : ['chained', 'unchained']) as ('chained' | 'unchained')[]) {
      const jm = new JobManager(doc, { spawn: pool.take, store: new MemoryCheckpointStore({ ownership: 'handover' }), keepChangelog: false, checkpointIntervalMs: 1000, chain: side === 'chained', inputs: { events: { name: 'events.jsonl', lines } } });
      const c0 = process.cpuUsage();
      const res = await jm.run();
      const c = process.cpuUsage(c0);
      if (res.status !== 'finished' || res.views.view?.length !== Math.min(Number(keys), Number(events))) throw new Error(`${side}: ${res.status} ${res.reason ?? ''} ${res.views.view?.length} rows`);
      if (r > 0) us[side].push((c.user + c.system) / Number(events));
    }
  }
} finally {
  pool.close();
}
const m = (s: 'chained' | 'unchained') => +median(us[s]).toFixed(2);
console.log(JSON.stringify({ events: Number(events), keys: Number(keys), parallelism: Number(parallelism), pairs: Number(pairs), cpuUsPerRecord: { chained: m('chained'), unchained: m('unchained') }, pairedSpeedup: +median(us.unchained.map((u, i) => u / us.chained[i])).toFixed(3) }));
