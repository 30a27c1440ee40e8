import { runInProcess } from '/work/main/src/runtime/runInProcess.ts';
import { planOrThrow } from '/work/main/src/testing/runPipeline.ts';
import type { ByteSource } from '/work/main/src/core/lineSource.ts';
const rows = Number(process.argv[2] ?? 300_000);
const lines = ['id,user,amount,ts'];
for (let i = 0; i < rows; i++) lines.push(`${i},u${i % 1000},${(i % 997) / 10},${1_700_000_000_000 + i}`);
const all = new TextEncoder().encode(lines.join('\n'));
const bytes: ByteSource = { size: all.length, read: (s, e) => all.subarray(s, Math.min(e, all.length)) };
const schema = { id: 'integer', user: 'string', amount: 'number', ts: 'timestamp' };
const plan = planOrThrow({ format: 'weir/pipeline', version: 1, name: 'bench_csv', settings: { stateBackend: 'memory', parallelism: 1, seed: 1 },
  nodes: [ { id: 'src', kind: 'fileSource', params: { format: 'csv', schema, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } }, { id: 'out', kind: 'collectSink', params: {} } ],
  edges: [{ id: 'src-out', from: { node: 'src', port: 'out' }, to: { node: 'out', port: 'in' } }] } as any);
for (let r = 0; r < 4; r++) { const t0 = performance.now();
  const { result } = runInProcess(plan, { keepChangelog: false, inputs: { src: { name: 'bench.csv', bytes } } } as any);
  console.log(result.status, Math.round(rows / ((performance.now() - t0) / 1000))); }
