// CURRENT_WATERMARK as Flink users write it to drop late rows: planned, run one record per batch
// (so the watermark moves after every record), exported back and refused where Flink refuses it.
import { describe, expect, it } from 'vitest';
import { importFlinkSql } from './index.ts';
import { exportFlinkSql } from '../../export/flinkSql/index.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';
import { withInlineData } from '../../testing/sql/cases.ts';

const CLICKS = `CREATE TABLE clicks (
  id INT,
  amount DOUBLE,
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '/data/clicks.jsonl', 'format' = 'json');
CREATE TABLE on_time (id INT, wm TIMESTAMP(3)) WITH ('connector' = 'print');
`;
const LATE_FILTER = `${CLICKS}INSERT INTO on_time
SELECT id, CURRENT_WATERMARK(ts) FROM clicks
WHERE CURRENT_WATERMARK(ts) IS NULL OR ts > CURRENT_WATERMARK(ts);`;

// Arrival order; the watermark after a record is the highest time seen minus 1 s, as Flink SQL's
// WATERMARK FOR ts AS ts - INTERVAL '1' SECOND emits it.
const ROWS = [
  { id: 1, amount: 1, ts: 10_000 },
  { id: 2, amount: 1, ts: 12_000 }, // watermark 11 000 after it
  { id: 3, amount: 1, ts: 9_000 }, // behind it: late
  { id: 4, amount: 1, ts: 11_500 }, // ahead of it: on time
  { id: 5, amount: 1, ts: 15_000 }, // watermark 14 000 after it
  { id: 6, amount: 1, ts: 14_000 }, // at it: late (Flink keeps only rows above the watermark)
  { id: 7, amount: 1, ts: 14_500 },
];

function plan(sql: string): PipelineDocument {
  const r = importFlinkSql(sql);
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.line}:${e.column} ${e.construct}: ${e.message}`).join('\n'));
  return r.doc;
}

describe('Flink SQL CURRENT_WATERMARK', () => {
  it('keeps the rows above the watermark the filter has seen, and reads it as NULL before the first one', () => {
    const run = runPipeline(withInlineData(plan(LATE_FILTER), { clicks: ROWS }), { batchSize: 1 });
    expect(run.deadLetters).toEqual([]);
    expect(run.views.on_time).toEqual([
      { id: 1, wm: null },
      { id: 2, wm: 9_000 },
      { id: 4, wm: 11_000 },
      { id: 5, wm: 11_000 },
      { id: 7, wm: 14_000 },
    ]);
  });

  it('is exported as Flink writes it, and the export reads back to the same pipeline', () => {
    const once = exportFlinkSql(plan(LATE_FILTER)).sql;
    expect(once).toContain('CURRENT_WATERMARK(`ts`)');
    expect(exportFlinkSql(plan(once)).sql).toBe(once);
  });

  it('refuses an argument that is not a time attribute, at the call', () => {
    const r = importFlinkSql(`${CLICKS}INSERT INTO on_time SELECT id, ts FROM clicks WHERE CURRENT_WATERMARK(amount) IS NULL;`);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[0]).toMatchObject({ line: 8, construct: 'CURRENT_WATERMARK(…)' });
    expect(r.errors[0].message).toMatch(/time attribute/);
  });
});
