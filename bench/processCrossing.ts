// Per-record cost of a keyed process function in the CLI's sandbox: one crossing per record
// against a batch crossing once per run of distinct keys, measured side by side in one process.
// node --import tsx bench/processCrossing.ts [records]
import { performance } from 'node:perf_hooks';
import { installNodeSandbox } from '../src/runtime/node/sandbox/sandboxHost.ts';
import { OperatorHarness } from '../src/testing/harness.ts';

const n = Number(process.argv[2] ?? 20_000);
const BATCH = 256;
const code = `({
  state: { total: { kind: 'value' } },
  processElement(row, ctx) {
    const t = (ctx.state.total.value() ?? 0) + row.amount;
    ctx.state.total.update(t);
    ctx.emit({ customer: ctx.key, total: t });
  },
})`;

installNodeSandbox({ timeoutMs: 10_000, memoryMb: 256 });
for (const keys of [50, 1000]) {
  const rows = Array.from({ length: n }, (_, i) => ({ customer: `c${(i * 7919) % keys}`, amount: i % 7 }));
  const run = (batched: boolean): number => {
    const h = new OperatorHarness('process', { code }, { inputs: { in: { keyedBy: ['customer'] } } });
    const t0 = performance.now();
    if (batched) for (let i = 0; i < n; i += BATCH) h.processBatch(rows.slice(i, i + BATCH));
    else for (const row of rows) h.processElement(row);
    const ms = performance.now() - t0;
    if (h.output().length !== n) throw new Error(`expected ${n} rows, got ${h.output().length}`);
    return ms;
  };
  const per: number[] = [], batch: number[] = [];
  for (let pair = 0; pair < 3; pair++) { per.push(run(false)); batch.push(run(true)); }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[1];
  const us = (ms: number) => ((ms * 1000) / n).toFixed(1);
  console.log(`${keys} keys: per record ${us(med(per))} µs/record, batched ${us(med(batch))} µs/record, ratio ${(med(per) / med(batch)).toFixed(1)}×`);
}
process.exit(0);
