// Step-back latency of two trees interleaved in one Node process:
// `node --import tsx bench/profile/stepBackAb.ts <tree A> <tree B> [pairs] [stepBacksPerSide]`, each tree a
// checkout (or `git archive`) with src/ and node_modules reachable. Both sessions run the scenario of
// bench/node/stepBack.ts (10k records, a checkpoint and a kill in the history); then each round steps each
// side back one record at a time, alternating which goes first, and reports the median CPU time (user +
// system: other tenants of a shared machine stretch wall time) and wall time per side. Round 0 warms up.
import { pathToFileURL } from 'node:url';
import { median } from '../lib/stats.ts';

type Snap = { records: number; checkpoints: number; restarts: number; status: string; history: { at: number } | null };
type Session = {
  onSnapshot(f: (s: Snap) => void): void;
  load(doc: unknown, opts: unknown): Promise<{ ok: boolean }>;
  step(kind: string): Promise<void>;
  stepBack(kind: string): Promise<void>;
  triggerCheckpoint(): void;
  killSubtask(id: string): void;
};

const [treeA, treeB, pairs = '7', perSide = '5'] = process.argv.slice(2);
const RECORDS = 10_000;

async function setup(tree: string): Promise<{ s: Session; snap: () => Snap }> {
  const { ClusterSession } = await import(pathToFileURL(`${tree}/src/worker/clusterSession.ts`).href);
  const { examplePipeline } = await import(pathToFileURL(`${tree}/src/testing/stepBackPipelines.ts`).href);
  const doc = examplePipeline('orders-payments.json', 2);
  for (const n of doc.nodes) if (n.kind === 'generatorSource') n.params = { ...n.params, count: RECORDS };
  const s = new ClusterSession() as Session;
  let last: Snap | null = null;
  s.onSnapshot((x) => (last = x));
  const snap = () => last!;
  if (!(await s.load(doc, { speed: null, checkpointIntervalMs: null })).ok) throw new Error(`${tree}: the job did not load`);
  while (snap().records < RECORDS / 2) await s.step('record');
  s.triggerCheckpoint();
  while (snap().checkpoints < 1) await s.step('barrier');
  s.killSubtask('paid#1');
  while (snap().records < RECORDS && snap().status !== 'finished') await s.step('record');
  if (snap().restarts !== 1) throw new Error(`${tree}: expected one restart in the history, got ${snap().restarts}`);
  return { s, snap };
}

const sides = [await setup(treeA), await setup(treeB)];
const rows: { cpu: [number, number]; wall: [number, number] }[] = [];
for (let round = 0; round <= Number(pairs); round++) {
  const cpu: [number[], number[]] = [[], []];
  const wall: [number[], number[]] = [[], []];
  for (let i = 0; i < Number(perSide); i++) {
    for (const k of (round + i) % 2 ? [1, 0] : [0, 1]) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      await sides[k].s.stepBack('record');
      const c = process.cpuUsage(c0);
      wall[k].push(performance.now() - t0);
      cpu[k].push((c.user + c.system) / 1000);
    }
  }
  if (sides[0].snap().history?.at !== sides[1].snap().history?.at) throw new Error('the sides stepped back to different points');
  if (round === 0) continue;
  const r = { cpu: [median(cpu[0]), median(cpu[1])] as [number, number], wall: [median(wall[0]), median(wall[1])] as [number, number] };
  rows.push(r);
  console.log(`pair ${round}: CPU ms A ${r.cpu[0].toFixed(1)} B ${r.cpu[1].toFixed(1)} (B/A ${(r.cpu[1] / r.cpu[0]).toFixed(3)}); wall ms A ${r.wall[0].toFixed(1)} B ${r.wall[1].toFixed(1)} (B/A ${(r.wall[1] / r.wall[0]).toFixed(3)})`);
}
const m = (f: (r: (typeof rows)[number]) => number) => median(rows.map(f)).toFixed(3);
console.log(`median of ${rows.length} pairs: CPU ms A ${m((r) => r.cpu[0])} B ${m((r) => r.cpu[1])}, paired B/A ${m((r) => r.cpu[1] / r.cpu[0])}; wall ms A ${m((r) => r.wall[0])} B ${m((r) => r.wall[1])}, paired B/A ${m((r) => r.wall[1] / r.wall[0])}`);
