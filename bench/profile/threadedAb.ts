// CPU per record of the threaded runtime (Node worker_threads, every thread of the process counted),
// old against new, interleaved in one process: copy the old src/ (with package.json) to a directory
// outside the repository with a node_modules symlink, then
// `node --import tsx bench/profile/threadedAb.ts <old root> [events] [keys] [rounds] [parallelism] [intervalMs] [inline|jsonl] [listen|silent]`.
// The job is the keyed count (inline rows → GROUP BY count+sum at `parallelism` → view), checkpointed;
// `jsonl` runs the job of `threaded.cpuUsPerRecord` instead (JSON Lines input, keyBy, GROUP BY and view at `parallelism`).
// `listen` (default) counts the published rows through `onPublish`; `silent` has no listener, as the suite runs it.
import { pathToFileURL } from 'node:url';
import { median, percentile } from '../lib/stats.ts';
import { threadedKeyedCountDoc } from './threadedDoc.ts';
import { keyedEvents } from '../lib/events.ts';
import { keyedCountDoc } from '../lib/keyedCountDoc.ts';

function suiteDoc(parallelism: number): unknown {
  const doc = keyedCountDoc() as { nodes: { id: string; parallelism?: number }[] };
  for (const n of doc.nodes) if (n.id !== 'events') n.parallelism = parallelism;
  return doc;
}

interface Side {
  run(doc: unknown, intervalMs: number, listen: boolean, inputs?: Record<string, unknown>): Promise<{ status: string; reason?: string; checkpoints: number; rows: number; durations: number[] }>;
}

async function load(root: string): Promise<Side> {
  const at = (p: string) => import(pathToFileURL(`${root}/src/${p}`).href);
  const [{ nodeSpawn }, { JobManager }, { WorkerPool }, { MemoryCheckpointStore }] = await Promise.all([
    at('runtime/node/nodeSpawn.ts'),
    at('runtime/threaded/jobManager.ts'),
    at('runtime/threaded/workerPool.ts'),
    at('checkpoint/memoryStore.ts'),
  ]);
  const pool = new WorkerPool(await nodeSpawn());
  return {
    async run(doc, intervalMs, listen, inputs) {
      let rows = 0;
      const jm = new JobManager(doc, { spawn: pool.take, store: new MemoryCheckpointStore({ ownership: 'handover' }), keepChangelog: false, checkpointIntervalMs: intervalMs, ...(listen ? { onPublish: (_s: string, c: { els: unknown[] }) => (rows += c.els.length) } : {}), ...(inputs ? { inputs } : {}) });
      const res = await jm.run();
      const done = res.checkpoints.filter((c: { status: string }) => c.status === 'completed') as { triggeredAt: number; completedAt: number }[];
      return { status: res.status, reason: res.reason, checkpoints: done.length, rows, durations: done.map((c) => c.completedAt - c.triggeredAt) };
    },
  };
}


const [oldRoot, events = '200000', keys = '20000', rounds = '5', par = '2', interval = '100', job = 'inline', publish = 'listen'] = process.argv.slice(2);
const jsonl = job === 'jsonl';
const doc = jsonl ? suiteDoc(Number(par)) : threadedKeyedCountDoc(Number(events), Number(keys), Number(par));
const inputs = jsonl ? { events: { name: 'events.jsonl', lines: keyedEvents(Number(events), Number(keys)).map((e) => JSON.stringify(e)) } } : undefined;
const sides: Record<string, Side> = { before: await load(oldRoot), after: await load(new URL('../..', import.meta.url).pathname.replace(/\/$/, '')) };
const us: Record<string, number[]> = { before: [], after: [] };
const dur: Record<string, number[]> = { before: [], after: [] };
for (let r = 0; r <= Number(rounds); r++) {
  for (const name of r % 2 ? ['after', 'before'] : ['before', 'after']) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const res = await sides[name].run(doc, Number(interval), publish !== 'silent', inputs);
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const perRecord = (c.user + c.system) / Number(events);
    if (res.status !== 'finished') throw new Error(`${name}: ${res.status} ${res.reason}`);
    console.error(`round ${r} ${name}: ${perRecord.toFixed(2)} µs/record CPU, ${ms.toFixed(0)} ms wall, ${res.checkpoints} checkpoints, ${res.rows} published`);
    if (r > 0) {
      us[name].push(perRecord);
      dur[name].push(...res.durations);
    }
  }
}
const ratio = median(us.after.map((a, i) => a / us.before[i]));
const ms = (xs: number[]) => ({ p50: +median(xs).toFixed(1), p99: +percentile([...xs].sort((a, b) => a - b), 99).toFixed(1), n: xs.length });
console.log(JSON.stringify({ beforeUsPerRecord: +median(us.before).toFixed(2), afterUsPerRecord: +median(us.after).toFixed(2), pairedRatio: +ratio.toFixed(3), checkpointMs: { before: ms(dur.before), after: ms(dur.after) } }));
process.exit(0);
