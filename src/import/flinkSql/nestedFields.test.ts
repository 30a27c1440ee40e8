// Fields inside ROW columns, as Flink users read a nested JSON payload: unqualified, qualified by
// the table or its alias, with quoted names, and run over rows to check the values read.
import { describe, expect, it } from 'vitest';
import { importFlinkSql } from './index.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import { withInlineData } from '../../testing/sql/cases.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';

const EVENTS = `CREATE TABLE events (
  payload ROW<\`user\` ROW<id STRING, name STRING>, amount DOUBLE>,
  ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '/data/events.jsonl', 'format' = 'json');
CREATE TABLE out_t (uid STRING, amount DOUBLE) WITH ('connector' = 'print');
`;
const ROWS = [
  { payload: { user: { id: 'u1', name: 'Ann' }, amount: 3 }, ts: 1 },
  { payload: { user: { id: 'u2', name: 'Bo' }, amount: 5 }, ts: 2 },
  { payload: { user: null, amount: 7 }, ts: 3 },
];

function plan(select: string): PipelineDocument {
  const r = importFlinkSql(`${EVENTS}INSERT INTO out_t ${select};`);
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.line}:${e.column} ${e.construct}: ${e.message}`).join('\n'));
  return r.doc;
}

describe('Flink SQL fields of ROW columns', () => {
  for (const select of [
    'SELECT payload.`user`.id, payload.amount FROM events WHERE payload.`user`.name <> \'Bo\'',
    'SELECT events.payload.`user`.id, events.payload.amount FROM events WHERE events.payload.`user`.name <> \'Bo\'',
    'SELECT e.payload.`user`.id, e.payload.amount FROM events AS e WHERE e.payload.`user`.name <> \'Bo\'',
  ]) {
    it(`reads a path two levels down: ${select}`, () => {
      const run = runPipeline(withInlineData(plan(select), { events: ROWS }));
      expect(run.deadLetters).toEqual([]);
      // A NULL row field reads as NULL, so its name is NULL and `<> 'Bo'` drops the row, as in SQL.
      expect(run.views.out_t).toEqual([{ uid: 'u1', amount: 3 }]);
    });
  }

  it('names the column it could not find when the path starts nowhere', () => {
    const r = importFlinkSql(`${EVENTS}INSERT INTO out_t SELECT body.\`user\`.id, payload.amount FROM events;`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(`${r.errors[0].construct}: ${r.errors[0].message}`).toMatch(/body.*not found; the columns in scope are events.payload, events.ts/);
  });
});
