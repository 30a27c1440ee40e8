// Window semi and anti joins, with the tables and results of Flink's window join documentation.
import { describe, expect, it } from 'vitest';
import { importFlinkSql } from './index.ts';
import { exportFlinkSql } from '../../export/flinkSql/index.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';

const DDL = ['LeftTable', 'RightTable']
  .map((t) => `CREATE TABLE ${t} (row_time TIMESTAMP(3), num INT, id STRING, WATERMARK FOR row_time AS row_time - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/${t}.jsonl', 'format' = 'json');\n`)
  .join('');
const L = "(SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) L";
const R = "(SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) R";
const ON_WINDOW = 'L.window_start = R.window_start AND L.window_end = R.window_end';

const at = (hhmm: string) => Date.UTC(2020, 3, 15, Number(hhmm.slice(0, 2)), Number(hhmm.slice(3)));
const rows = (list: [string, number | null, string][]) => list.map(([t, num, id]) => ({ row_time: `2020-04-15 ${t}:00`, num, id }));
const LEFT = rows([['12:02', 1, 'L1'], ['12:06', 2, 'L2'], ['12:03', 3, 'L3']]);
const RIGHT = rows([['12:01', 2, 'R2'], ['12:04', 3, 'R3'], ['12:05', 4, 'R4']]);

function bytes(list: object[]) {
  const all = new TextEncoder().encode(list.map((l) => JSON.stringify(l)).join('\n'));
  return { size: all.length, read: (s: number, e: number) => all.subarray(s, Math.min(e, all.length)) };
}
function imported(sql: string): PipelineDocument {
  const r = importFlinkSql(sql);
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.line}:${e.column} ${e.construct}: ${e.message}`).join('\n'));
  return r.doc;
}
/** Weir's export carries timestamps as epoch ms in `<name>_ms` (docs/flink-sql.md), so its tables read those. */
const asMs = (list: ReturnType<typeof rows>) => list.map(({ row_time, ...r }) => ({ ...r, row_time_ms: Date.parse(`${row_time.replace(' ', 'T')}Z`) }));
function run(doc: PipelineDocument, right = RIGHT, ms = false): string[] {
  const [l, r] = ms ? [asMs(LEFT), asMs(right)] : [LEFT, right];
  const out = runPipeline(doc, { inputs: { LeftTable: { name: 'l.jsonl', bytes: bytes(l) }, RightTable: { name: 'r.jsonl', bytes: bytes(r) } } });
  const sink = Object.keys(out.changelogs)[0];
  return out.changelogs[sink].map((e) => `${e.row.id} ${new Date(e.row.window_start as number).toISOString().slice(11, 16)}-${new Date(e.row.window_end as number).toISOString().slice(11, 16)}`).sort();
}
const query = (where: string) => `${DDL}SELECT * FROM ${L} WHERE ${where};`;

describe('window semi and anti joins', () => {
  it('IN and EXISTS keep the left rows with a partner in their window (Flink docs: L3)', () => {
    expect(run(imported(query(`L.num IN (SELECT num FROM ${R} WHERE ${ON_WINDOW})`)))).toEqual(['L3 12:00-12:05']);
    expect(run(imported(query(`EXISTS (SELECT * FROM ${R} WHERE L.num = R.num AND ${ON_WINDOW})`)))).toEqual(['L3 12:00-12:05']);
  });

  it('NOT IN and NOT EXISTS keep the others (Flink docs: L1, L2); a NULL on the right keeps NOT IN from any row of its window', () => {
    const notIn = imported(query(`L.num NOT IN (SELECT num FROM ${R} WHERE ${ON_WINDOW})`));
    expect(notIn.nodes.find((n) => n.kind === 'windowJoin')!.params).toMatchObject({ type: 'anti', leftKey: [], rightKey: [], nullAware: { left: 'num', right: 'num' } });
    expect(run(notIn)).toEqual(['L1 12:00-12:05', 'L2 12:05-12:10']);
    expect(run(imported(query(`NOT EXISTS (SELECT * FROM ${R} WHERE L.num = R.num AND ${ON_WINDOW})`)))).toEqual(['L1 12:00-12:05', 'L2 12:05-12:10']);
    const withNull = [...RIGHT, ...rows([['12:07', null, 'R5']])];
    expect(run(notIn, withNull)).toEqual(['L1 12:00-12:05']);
    expect(run(imported(query(`NOT EXISTS (SELECT * FROM ${R} WHERE L.num = R.num AND ${ON_WINDOW})`)), withNull)).toEqual(['L1 12:00-12:05', 'L2 12:05-12:10']);
  });

  it('keeps window_time as the event time, so a window aggregate can follow', () => {
    const doc = imported(`${DDL}SELECT window_start, window_end, COUNT(*) AS n FROM (SELECT * FROM ${L} WHERE L.num NOT IN (SELECT num FROM ${R} WHERE ${ON_WINDOW})) GROUP BY window_start, window_end;`);
    const out = runPipeline(doc, { inputs: { LeftTable: { name: 'l.jsonl', bytes: bytes(LEFT) }, RightTable: { name: 'r.jsonl', bytes: bytes(RIGHT) } } });
    expect(out.changelogs[Object.keys(out.changelogs)[0]].map((e) => [e.row.window_start, e.row.n])).toEqual([
      [at('12:00'), 1],
      [at('12:05'), 1],
    ]);
  });

  it('refuses windows that differ and a correlation on one bound only, at the subquery', () => {
    const refused = (sql: string) => {
      const r = importFlinkSql(sql);
      expect(r.ok).toBe(false);
      return r.ok ? '' : r.errors[0].message;
    };
    expect(refused(query(`L.num IN (SELECT num FROM (SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '10' MINUTES))) R WHERE ${ON_WINDOW})`))).toMatch(/use the same window/);
    expect(refused(query(`L.num IN (SELECT num FROM ${R} WHERE L.window_start = R.window_start)`))).toMatch(/correlate both window bounds/);
  });

  it('exports as Flink SQL that reads back to the same node', () => {
    for (const where of [`L.num NOT IN (SELECT num FROM ${R} WHERE ${ON_WINDOW})`, `EXISTS (SELECT * FROM ${R} WHERE L.num = R.num AND ${ON_WINDOW})`]) {
      const doc = imported(query(where));
      const sql = exportFlinkSql(doc).sql;
      const plain = sql.split('\n').filter((l) => !l.startsWith('-- @weir')).join('\n');
      const back = imported(plain);
      expect(back.nodes.find((n) => n.kind === 'windowJoin')?.params).toEqual(doc.nodes.find((n) => n.kind === 'windowJoin')!.params);
      expect(run(back, RIGHT, true)).toEqual(run(doc));
    }
  });
});
