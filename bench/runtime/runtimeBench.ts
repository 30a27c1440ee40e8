// Throughput of the threaded runtime at parallelism 1–4 and recovery time, on Node worker_threads.
// Run: node --import tsx bench/runtime/runtimeBench.ts [records]
import { loadExamples } from '../../src/testing/examples.ts';
import { runPipeline } from '../../src/testing/runPipeline.ts';
import { JobManager } from '../../src/runtime/threaded/jobManager.ts';
import { WorkerPool } from '../../src/runtime/threaded/workerPool.ts';
import { exactlyOnceDoc, withParallelism } from '../../src/testing/exactlyOncePipelines.ts';
import { nodeSpawn } from '../../src/runtime/node/nodeSpawn.ts';
import { cpus, loadavg } from 'node:os';

const records = Number(process.argv[2] ?? 200_000);
const base = loadExamples().find((e) => e.entry.file === 'sales-by-store.json')!.doc as { nodes: { id: string; params: Record<string, unknown> }[] };
const doc = { ...base, nodes: base.nodes.map((n) => (n.id === 'transactions' ? { ...n, params: { ...n.params, count: records } } : n)) };

console.log(`sales-by-store with ${records} records; ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)}`);
let t0 = performance.now();
runPipeline(doc);
const single = performance.now() - t0;
console.log(`plain in-process run: ${(records / (single / 1000) / 1000).toFixed(0)} k records/s (${single.toFixed(0)} ms)`);

const pool = new WorkerPool(await nodeSpawn());
for (const [p, every] of [[1, null], [2, null], [3, null], [4, null], [1, 1000], [4, 1000]] as const) {
  pool.prewarm(p);
  await new Promise((r) => setTimeout(r, 1500)); // let the workers load, so start-up is not measured
  let deployMs = 0;
  t0 = performance.now();
  const res = await new JobManager(withParallelism(doc, p), { spawn: pool.take, checkpointIntervalMs: every, log: (l) => (deployMs = Number(/in (\d+) ms/.exec(l)?.[1] ?? deployMs)) }).run();
  const ms = performance.now() - t0;
  const run = ms - deployMs;
  console.log(`parallelism ${p}, checkpoints ${every ? `every ${every} ms` : 'only at the end'}: ${res.status}, ${(records / (run / 1000) / 1000).toFixed(0)} k records/s after deploy (${run.toFixed(0)} ms + ${deployMs} ms deploy), ${res.checkpoints.filter((c) => c.status === 'completed').length} checkpoints`);
}

// CPU-bound: a map that does ~20k loop iterations per record, parallel map and aggregate.
const heavyDoc = (p: number) => {
  const d = exactlyOnceDoc(p, { n: records / 5 });
  d.nodes[1].params = { code: '(row) => { let x = 0; for (let i = 0; i < 20000; i++) x += i % 7; return { ...row, x }; }' };
  return d;
};
t0 = performance.now();
runPipeline(heavyDoc(1));
console.log(`CPU-bound map, ${records / 5} records: plain in-process run ${((records / 5) / ((performance.now() - t0) / 1000) / 1000).toFixed(1)} k records/s`);
for (const p of [1, 2, 3, 4]) {
  pool.prewarm(p);
  await new Promise((r) => setTimeout(r, 1000));
  let deployMs = 0;
  t0 = performance.now();
  await new JobManager(heavyDoc(p), { spawn: pool.take, checkpointIntervalMs: 1000, log: (l) => (deployMs = Number(/in (\d+) ms/.exec(l)?.[1] ?? deployMs)) }).run();
  const run = performance.now() - t0 - deployMs;
  console.log(`CPU-bound map, parallelism ${p}: ${((records / 5) / (run / 1000) / 1000).toFixed(1)} k records/s after deploy`);
}

for (const standby of [false, true]) {
  const spawn = standby ? pool.take : await nodeSpawn();
  if (standby) pool.prewarm(2);
  const jm = new JobManager(withParallelism(doc, 2), { spawn, prewarm: standby ? (n) => pool.prewarm(n) : undefined, checkpointIntervalMs: 100, restart: { type: 'fixedDelay', delayMs: 0, maxAttempts: 3 } });
  const run = jm.run();
  while (!jm.checkpointHistory().some((c) => c.status === 'completed')) await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, 300));
  jm.killSubtask('sales#1');
  const res = await run;
  const r = res.recoveries[0];
  console.log(`recovery ${standby ? 'with standby workers' : 'starting new workers'}: ${r?.recoveryMs.toFixed(0)} ms from detection to running again (restored checkpoint ${r?.restoredFrom}), job ${res.status}`);
}
pool.close();
