// One run of threaded.cpuUsPerRecord's job (JSON Lines, keyBy, GROUP BY and view at `parallelism`), for
// `node --cpu-prof --cpu-prof-dir=<dir> --import tsx bench/profile/threadedSuiteProbe.ts [events] [keys] [parallelism] [intervalMs]`
// (every worker thread writes its own profile; bench/profile/summarize.ts reads them).
import { nodeSpawn } from '../../src/runtime/node/nodeSpawn.ts';
import { JobManager } from '../../src/runtime/threaded/jobManager.ts';
import { WorkerPool } from '../../src/runtime/threaded/workerPool.ts';
import { MemoryCheckpointStore } from '../../src/checkpoint/memoryStore.ts';
import { keyedEvents } from '../lib/events.ts';
import { keyedCountDoc } from '../lib/keyedCountDoc.ts';

const [events = '300000', keys = '100000', par = '2', interval = '1000'] = process.argv.slice(2);
const doc = keyedCountDoc() as { nodes: { id: string; parallelism?: number }[] };
for (const n of doc.nodes) if (n.id !== 'events') n.parallelism = Number(par);
const lines = keyedEvents(Number(events), Number(keys)).map((e) => JSON.stringify(e));
const pool = new WorkerPool(await nodeSpawn());
const jm = new JobManager(doc, { spawn: pool.take, store: new MemoryCheckpointStore({ ownership: 'handover' }), keepChangelog: false, checkpointIntervalMs: Number(interval), inputs: { events: { name: 'events.jsonl', lines } } });
const c0 = process.cpuUsage();
const t0 = performance.now();
const res = await jm.run();
const c = process.cpuUsage(c0);
console.log(res.status, `${((c.user + c.system) / Number(events)).toFixed(2)} µs/record CPU`, `${(performance.now() - t0).toFixed(0)} ms`, `${res.checkpoints.filter((x) => x.status === 'completed').length} checkpoints`);
pool.close();
process.exit(0);
