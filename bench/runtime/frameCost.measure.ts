/**
 * Measures ClusterObserver.frame() at 100k keys (not a test: timings depend on the machine).
 * Run: npx tsx bench/runtime/frameCost.measure.ts [keys]
 */
import { LocalCluster } from '../../src/runtime/localCluster.ts';
import { planOrThrow } from '../../src/testing/runPipeline.ts';
import { ClusterObserver } from '../../src/runtime/observe/observer.ts';
import { DEFAULT_REQUEST } from '../../src/runtime/observe/types.ts';
import type { ObserveRequest } from '../../src/runtime/observe/types.ts';

const KEYS = Number(process.argv[2] ?? 100_000);
const rows = Array.from({ length: KEYS }, (_, i) => ({ user: `user-${i}`, amount: i % 97, ts: i }));
const doc = {
  format: 'weir/pipeline',
  version: 1,
  name: 'frame-cost',
  settings: { parallelism: 1 },
  nodes: [
    { id: 'src', kind: 'inlineSource', params: { rows, eventTime: { field: 'ts' } } },
    { id: 'agg', kind: 'aggregate', params: { groupBy: ['user'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'sum', field: 'amount', as: 'total' }] } },
    { id: 'view', kind: 'viewSink', params: {} },
  ],
  edges: [
    { from: { node: 'src', port: 'out' }, to: { node: 'agg', port: 'in' } },
    { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
  ],
};

const cluster = new LocalCluster(planOrThrow(doc), { batchSize: 512, channelCapacity: 64 });
const obs = new ClusterObserver(cluster);
const t0 = performance.now();
await cluster.run();
console.log(`ran ${KEYS} keys in ${(performance.now() - t0).toFixed(0)} ms`);

const base: ObserveRequest = { ...DEFAULT_REQUEST, node: 'agg', stateLimit: 100 };
const cases: [string, ObserveRequest][] = [
  ['no node selected', { ...DEFAULT_REQUEST }],
  ['state window, insertion order', base],
  ['sort by key asc', { ...base, sort: { column: 'key', dir: 'asc' } }],
  ['sort by updated desc (newest keys last)', { ...base, sort: { column: 'updated', dir: 'desc' } }],
  ['sort by updated asc', { ...base, sort: { column: 'updated', dir: 'asc' } }],
  ['sort by a state column', { ...base, sort: { column: 'agg', dir: 'desc' } }],
  ['search "user-9999"', { ...base, search: 'user-9999' }],
  ['pinned + sort by key', { ...base, pinned: ['"user-5"', '"user-77"'], sort: { column: 'key', dir: 'asc' } }],
  ['deep offset 50k, sorted (full sort)', { ...base, stateOffset: 50_000, sort: { column: 'key', dir: 'asc' } }],
];
/** Cold: a fresh observer per frame, so nothing is cached, as when state changes between frames. */
function measure(req: ObserveRequest, cold: boolean): { median: number; p90: number } {
  for (let i = 0; i < 5; i++) (cold ? new ClusterObserver(cluster) : obs).frame(req); // warm up the JIT
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    const o = cold ? new ClusterObserver(cluster) : obs;
    const s = performance.now();
    o.frame(req);
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  return { median: times[15], p90: times[27] };
}

console.log(`${'request'.padEnd(40)} ${'cold median / p90'.padEnd(22)} cached median / p90`);
for (const [name, req] of cases) {
  const cold = measure(req, true);
  const warm = measure(req, false);
  console.log(`${name.padEnd(40)} ${`${cold.median.toFixed(2)} / ${cold.p90.toFixed(2)} ms`.padEnd(22)} ${warm.median.toFixed(2)} / ${warm.p90.toFixed(2)} ms`);
}
