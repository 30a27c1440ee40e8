// Throughput of the threaded runtime in Node (worker_threads) on one document, for profiling and A/B of
// its knobs: `node --import tsx bench/profile/threadedProbe.ts doc.json '{"batchSize":256}' [runs]`.
import { readFileSync } from 'node:fs';
import { nodeSpawn } from '../../src/runtime/node/nodeSpawn.ts';
import { JobManager } from '../../src/runtime/threaded/jobManager.ts';
import { WorkerPool } from '../../src/runtime/threaded/workerPool.ts';
import { MemoryCheckpointStore } from '../../src/checkpoint/memoryStore.ts';
import type { JobOptions } from '../../src/runtime/threaded/jobOptions.ts';

const [file, optsText = '{}', runsText = '3'] = process.argv.slice(2);
const doc = JSON.parse(readFileSync(file, 'utf8'));
const records = doc.nodes[0].params.rows?.length ?? doc.nodes[0].params.count;
const variants = optsText.split(';').map((s) => JSON.parse(s) as Partial<JobOptions>);
const spawn = await nodeSpawn();
for (let r = 0; r < Number(runsText); r++) {
  for (const v of variants) {
    const pool = new WorkerPool(spawn);
    let published = 0;
    const jm = new JobManager(doc, { spawn: pool.take, store: new MemoryCheckpointStore({ ownership: 'handover' }), keepChangelog: false, onPublish: (_s, c) => (published += c.els.length), ...v });
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const res = await jm.run().finally(() => pool.close());
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const cpuMs = (c.user + c.system) / 1000;
    console.log(JSON.stringify(v), res.status, `${Math.round(records / (ms / 1000))} rec/s`, `${ms.toFixed(0)} ms`, `cpu ${cpuMs.toFixed(0)} ms (all threads)`, `published ${published}`, `checkpoints ${res.checkpoints.filter((c) => c.status === 'completed').length}`);
  }
}
