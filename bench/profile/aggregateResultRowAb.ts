// A GROUP BY's result row built by stores into {} (as settle did) against the compiled literal, q17's calls, interleaved:
// `node --import tsx bench/profile/aggregateResultRowAb.ts`. CPU time of 2M rows per side per round.
import { AggregateSet } from '../../src/engine/aggregates.ts';
const calls = [{ fn: 'count', as: 'total_bids' }, { fn: 'count', field: 'rank1', as: 'rank1_bids' }, { fn: 'count', field: 'rank2', as: 'rank2_bids' }, { fn: 'count', field: 'rank3', as: 'rank3_bids' }, { fn: 'min', field: 'price', as: 'min_price' }, { fn: 'max', field: 'price', as: 'max_price' }, { fn: 'avg', field: 'price', as: 'avg_price' }, { fn: 'sum', field: 'price', as: 'sum_price' }] as never;
const set = new AggregateSet(calls);
const groupBy = ['auction', 'day'];
const states = Array.from({ length: 100 }, (_, i) => { const s = set.create(); set.add(s, { auction: i, day: 1, price: i * 7, rank1: 1, rank2: null, rank3: null }); return s; });
const rows = states.map((_, i) => ({ auction: i, day: 1, price: i * 7, rank1: 1, rank2: null, rank3: null }));
const result = set.resultRowFunction(groupBy)!;
const stores = (s: unknown[], row: Record<string, unknown>) => { const out: Record<string, unknown> = {}; for (const f of groupBy) out[f] = row[f] ?? null; return set.write(s, out); };
let sink = 0;
const run = (f: (s: unknown[], r: Record<string, unknown>) => Record<string, unknown>) => { const t = process.cpuUsage(); for (let k = 0; k < 2_000_000; k++) { const o = f(states[k % 100], rows[k % 100]); sink += o.total_bids as number; } const c = process.cpuUsage(t); return (c.user + c.system) / 1000; };
for (let r = 0; r < 7; r++) { const a = run(stores); const b = run(result); console.log(`stores ${a.toFixed(0)} ms, literal ${b.toFixed(0)} ms, x${(a / b).toFixed(2)}`); }
console.log(sink > 0);
