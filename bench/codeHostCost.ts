// Per-record cost of the boundary user code crosses, measured in one process, one run:
// the old direct call in the host realm, the shared driver in this realm, and the CLI's sandbox
// (child process under the permission model, batches over a blocking bridge).
// node --import tsx bench/codeHostCost.ts [records]
import { performance } from 'node:perf_hooks';
import { loadFunction } from '../src/expr/udf.ts';
import { inProcessCodeHost, installCodeHost, loadCode } from '../src/engine/codeHost.ts';
import { installNodeSandbox } from '../src/runtime/node/sandbox/sandboxHost.ts';
import { CODE_BATCH } from '../src/engine/operators/codeBatches.ts';

const n = Number(process.argv[2] ?? 200_000);
const code = '(row) => ({ ...row, total: row.price * row.qty })';
const rows = Array.from({ length: n }, (_, i) => ({ id: i, customer: `c${i % 50}`, price: (i % 17) + 0.5, qty: i % 5, note: 'ok' }));

function time(label: string, run: () => number): void {
  run(); // warm-up
  const t0 = performance.now();
  const check = run();
  const ms = performance.now() - t0;
  console.log(`${label.padEnd(44)} ${((ms * 1e6) / n).toFixed(0).padStart(6)} ns/record  (${ms.toFixed(0)} ms for ${n}, check ${check})`);
}

const direct = loadFunction<(r: object) => { total: number }>(code, 'map code');
time('direct call in the host realm (before)', () => rows.reduce((s, r) => s + direct(r).total, 0));

const batched = (): number => {
  const c = loadCode({ nodeId: 'm', what: 'map code' }, code);
  let s = 0;
  for (let i = 0; i < n; i += CODE_BATCH) for (const o of c.callEach('value', rows.slice(i, i + CODE_BATCH))) s += o.ok ? (o.value as { total: number }).total : 0;
  return s;
};
installCodeHost(inProcessCodeHost);
time(`driver in this realm, batches of ${CODE_BATCH}`, batched);
installNodeSandbox({ timeoutMs: 10_000, memoryMb: 256 });
time(`sandbox process, batches of ${CODE_BATCH} (after)`, batched);
