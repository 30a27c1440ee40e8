// `node --import tsx bench/node/hopWindow.ts [records] [runs] [nexmarkEvents]`: the HOP window aggregate on its
// own (size 10 s, slide 2 s, 1,000 keys, COUNT and SUM, a snapshot every 20k records), the sliced
// path against the per-pane one interleaved in one process; then Nexmark q5 and q7 in process.
// Prints one JSON line: CPU milliseconds per window run (medians; the machine may be shared) and Nexmark events per wall second.
import { OperatorHarness } from '../../src/testing/harness.ts';
import type { Row } from '../../src/core/types.ts';
import { windowAggregate, perPaneWindowAggregate } from '../../src/engine/operators/window.ts';
import { interleave, pairedRatio } from '../lib/stats.ts';
import { nexmarkPlan, runQuery } from '../suites/nexmark.ts';

const [records = 200_000, runs = 5, nexmarkEvents = 200_000] = process.argv.slice(2).map(Number);
const KEYS = 1000;
const BATCH = 256;
const SNAPSHOT_EVERY = 20_000;
const params = { type: 'hop', sizeMs: 10_000, slideMs: 2_000, groupBy: ['k'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'sum', field: 'v', as: 's' }] };

/** 1,000 records per second of event time, up to 400 ms out of order, from a fixed LCG. */
function input(n: number): Row[][] {
  let x = 7;
  const next = (m: number) => ((x = (x * 1103515245 + 12345) % 2147483648), x % m);
  const batches: Row[][] = [];
  for (let i = 0; i < n; i += BATCH) {
    const b: Row[] = [];
    for (let j = i; j < Math.min(n, i + BATCH); j++) b.push({ k: next(KEYS), v: next(100), ts: j - next(400) });
    batches.push(b);
  }
  return batches;
}

function runWindow(def: typeof windowAggregate, batches: Row[][]): number {
  const c0 = process.cpuUsage();
  const h = new OperatorHarness('window', params, { definition: def });
  let seen = 0;
  let maxTs = -Infinity;
  for (const b of batches) {
    h.processBatch(b);
    for (const r of b) maxTs = Math.max(maxTs, r.ts as number);
    h.processWatermark(maxTs - 500);
    if ((seen += b.length) % SNAPSHOT_EVERY < BATCH) h.task.snapshot();
    h.clearOutput();
  }
  h.processWatermark(Infinity);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

const batches = input(records);
const plan = { runs, warmups: 1 };
const win = await interleave({ sliced: () => runWindow(windowAggregate, batches), perPane: () => runWindow(perPaneWindowAggregate, batches) }, plan);
const out: Record<string, number> = {};
for (const [k, v] of Object.entries(win.median)) out[`hopWindow.${k}CpuMs`] = Math.round(v);
out['hopWindow.perPaneOverSliced'] = +pairedRatio(win, 'perPane', 'sliced').toFixed(2);
for (const q of ['q5', 'q7']) {
  const p = nexmarkPlan(q, nexmarkEvents);
  const r = await interleave({ [q]: async () => (await runQuery(p, nexmarkEvents)).eps }, plan);
  out[`nexmark.${q}.eventsPerSec`] = Math.round(r.median[q]);
}
console.log(JSON.stringify(out));
