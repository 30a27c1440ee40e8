// crossWorker's stages one by one (bench/lib/crossStages.ts) in one Node thread, by CPU time, trees side by side and
// interleaved: `node --import tsx bench/profile/crossStages.ts [root...]` (default: this tree; an old tree needs a copy
// of bench/lib/crossStages.ts). EVENTS, BATCH and ROUNDS in the environment; with two roots, the paired second/first.
import { pathToFileURL } from 'node:url';
import { median } from '../lib/stats.ts';
import type { StageFigures } from '../lib/crossStages.ts';

const roots = process.argv.slice(2).length ? process.argv.slice(2) : [new URL('../..', import.meta.url).pathname.replace(/\/$/, '')];
const EVENTS = Number(process.env.EVENTS ?? 500_000);
const BATCH = Number(process.env.BATCH ?? 1024);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
/** CPU time of the process (one busy thread here), which a loaded machine's preemption does not inflate as it does wall time. */
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

const sides: (() => StageFigures)[] = [];
for (const root of roots) sides.push((await import(pathToFileURL(`${root}/bench/lib/crossStages.ts`).href)).crossStages(EVENTS, BATCH, cpuMs));
const got: StageFigures[][] = sides.map(() => []);
for (let r = 0; r <= ROUNDS; r++) {
  const order = sides.map((_, i) => i);
  if (r % 2) order.reverse();
  for (const i of order) {
    const res = sides[i]();
    if (r > 0) got[i].push(res);
  }
}
const keys = Object.keys(got[0][0]) as (keyof StageFigures)[];
sides.forEach((_, i) => console.log(roots[i], JSON.stringify(Object.fromEntries(keys.map((k) => [k, +median(got[i].map((g) => g[k])).toFixed(0)])))));
if (sides.length === 2) console.log('paired second/first', JSON.stringify(Object.fromEntries(keys.map((k) => [k, +median(got[1].map((g, j) => g[k] / got[0][j][k])).toFixed(3)]))));
