// `node --import tsx bench/node/csvIngest.ts <rows>`: prints one JSON line of figures.
// CSV ingest from the bytes of a file, read in 1 MB blocks as a dropped file is, against papaparse's
// bare parse of the same text in one call (no types): through the source alone (read, typed, event
// time, watermarks) and through a whole source → sink pipeline on the in-process runtime.
import Papa from 'papaparse';
import { CsvReader } from '../../src/engine/formats/csvReader.ts';
import { StreamedLines } from '../../src/core/lineSource.ts';
import type { ByteSource } from '../../src/core/lineSource.ts';
import { SourceTask } from '../../src/engine/sourceTask.ts';
import { runInProcess } from '../../src/runtime/runInProcess.ts';
import { planOrThrow } from '../../src/testing/runPipeline.ts';

const rows = Number(process.argv[2] ?? 1_000_000);
const lines = ['id,user,amount,ts'];
for (let i = 0; i < rows; i++) lines.push(`${i},u${i % 1000},${(i % 997) / 10},${1_700_000_000_000 + i}`);
const text = lines.join('\n');
const all = new TextEncoder().encode(text);
const bytes: ByteSource = { size: all.length, read: (s, e) => all.subarray(s, Math.min(e, all.length)) };
const schema = { id: 'integer', user: 'string', amount: 'number', ts: 'timestamp' };

/** Best of `reps` runs after one warm-up, in seconds. */
function best(run: () => void, reps = 3): number {
  run();
  let min = Infinity;
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    run();
    min = Math.min(min, performance.now() - t0);
  }
  return min / 1000;
}

const bare = best(() => {
  const res = Papa.parse<string[]>(text, { header: false });
  if (res.data.length !== rows + 1) throw new Error('papaparse lost rows');
});
const source = best(() => {
  const task = new SourceTask('csv', new CsvReader(new StreamedLines(bytes), { delimiter: ',', schema }), { schema, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } });
  let n = 0;
  while (!task.done()) n += task.poll(256).elements.length;
  if (n !== rows) throw new Error(`ingest read ${n} of ${rows}`);
});
const plan = planOrThrow({
  format: 'weir/pipeline',
  version: 1,
  name: 'bench_csv',
  settings: { stateBackend: 'memory', parallelism: 1, seed: 1 },
  nodes: [
    { id: 'src', kind: 'fileSource', params: { format: 'csv', schema, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } },
    { id: 'out', kind: 'collectSink', params: {} },
  ],
  edges: [{ id: 'src-out', from: { node: 'src', port: 'out' }, to: { node: 'out', port: 'in' } }],
});
const pipeline = best(() => {
  const { result } = runInProcess(plan, { keepChangelog: false, inputs: { src: { name: 'bench.csv', bytes } } });
  if (result.status !== 'finished') throw new Error(`the pipeline run ${result.status}: ${result.reason}`);
});
const r2 = (x: number) => Math.round(x * 100) / 100;
console.log(
  JSON.stringify({
    'csv.ingestRecordsPerSec': Math.round(rows / source),
    'csv.pipelineRecordsPerSec': Math.round(rows / pipeline),
    'csv.papaparseRecordsPerSec': Math.round(rows / bare),
    'csv.ratioIngestToParse': r2(bare / source),
    'csv.ratioPipelineToParse': r2(bare / pipeline),
    'csv.rows': rows,
  }),
);
