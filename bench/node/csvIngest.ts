// `node --import tsx bench/node/csvIngest.ts <rows>`: prints one JSON line of figures.
// CSV ingest through a fileSource (read, typed, event time, watermarks) against papaparse's
// bare parse of the same text in one call: the ingest path should cost at most half the rate.
import Papa from 'papaparse';
import { CsvReader } from '../../src/engine/formats/csvReader.ts';
import { SourceTask } from '../../src/engine/sourceTask.ts';

const rows = Number(process.argv[2] ?? 1_000_000);
const lines = ['id,user,amount,ts'];
for (let i = 0; i < rows; i++) lines.push(`${i},u${i % 1000},${(i % 997) / 10},${1_700_000_000_000 + i}`);
const text = lines.join('\n');

function best(run: () => void, reps = 3): number {
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
const ingest = best(() => {
  const task = new SourceTask('csv', new CsvReader(lines, { delimiter: ',', schema: { id: 'integer', user: 'string', amount: 'number', ts: 'timestamp' } }), {
    schema: { id: 'integer', user: 'string', amount: 'number', ts: 'timestamp' },
    eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 },
  });
  let n = 0;
  while (!task.done()) n += task.poll(256).elements.length;
  if (n !== rows) throw new Error(`ingest read ${n} of ${rows}`);
});
console.log(JSON.stringify({ 'csv.ingestRecordsPerSec': Math.round(rows / ingest), 'csv.papaparseRecordsPerSec': Math.round(rows / bare), 'csv.ratioIngestToParse': Math.round((bare / ingest) * 100) / 100, 'csv.rows': rows }));
