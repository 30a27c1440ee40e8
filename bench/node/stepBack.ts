// `node --import tsx bench/node/stepBack.ts <records> <trials>`: prints one JSON line of figures.
// Step-back latency as the designer's engine worker has it: a session steps a job (keyed counts
// and a join, two subtasks each, the observatory attached, a checkpoint and a kill in the history)
// to `records` source records, then steps back one record at a time; each step back deploys the
// job again and replays its history to the point before. The median over `trials` is reported.
import { ClusterSession } from '../../src/worker/clusterSession.ts';
import type { RunSnapshot } from '../../src/worker/protocol.ts';
import { examplePipeline } from '../../src/testing/stepBackPipelines.ts';

const records = Number(process.argv[2] ?? 10_000);
const trials = Number(process.argv[3] ?? 9);

const doc = examplePipeline('orders-payments.json', 2);
for (const n of doc.nodes) if (n.kind === 'generatorSource') n.params = { ...n.params, count: records };

const s = new ClusterSession();
let last: RunSnapshot | null = null;
s.onSnapshot((x) => (last = x));
const snap = () => last!;
const load = await s.load(doc, { speed: null, checkpointIntervalMs: null });
if (!load.ok) throw new Error(load.message);
while (snap().records < records / 2) await s.step('record');
s.triggerCheckpoint();
while (snap().checkpoints < 1) await s.step('barrier');
s.killSubtask('paid#1');
while (snap().records < records && snap().status !== 'finished') await s.step('record');
if (snap().restarts !== 1) throw new Error(`expected one restart in the history, got ${snap().restarts}`);
const reached = snap().records;

const times: number[] = [];
// CPU time beside wall time: on a shared machine the wall clock also counts other processes' turns.
const cpu: number[] = [];
for (let i = 0; i < trials; i++) {
  const before = snap().history!.at;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await s.stepBack('record');
  times.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
  if (snap().history!.at >= before) throw new Error('step back did not go back');
}
times.sort((a, b) => a - b);
cpu.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
const round = (x: number) => Math.round(x * 10) / 10;
console.log(JSON.stringify({ 'stepBack.medianMs': round(median), 'stepBack.maxMs': round(times.at(-1)!), 'stepBack.medianCpuMs': round(cpu[Math.floor(cpu.length / 2)]), 'stepBack.records': reached, 'stepBack.steps': snap().history!.end }));
