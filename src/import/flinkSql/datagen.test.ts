// A datagen table, as Flink tutorials write it, runs at once: Weir's generator makes its columns.
import { describe, expect, it } from 'vitest';
import { importFlinkSql } from './index.ts';
import { exportFlinkSql } from '../../export/flinkSql/index.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';

const TUTORIAL = `CREATE TABLE orders (
  order_id INT,
  product STRING,
  price DOUBLE,
  order_time AS LOCALTIMESTAMP,
  WATERMARK FOR order_time AS order_time - INTERVAL '1' SECOND
) WITH (
  'connector' = 'datagen',
  'rows-per-second' = '4',
  'fields.order_id.kind' = 'sequence',
  'fields.order_id.start' = '1',
  'fields.order_id.end' = '40',
  'fields.product.length' = '3',
  'fields.price.min' = '1',
  'fields.price.max' = '5'
);
SELECT window_start, COUNT(*) AS n, SUM(order_id) AS ids, MAX(price) AS hi
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' SECOND))
GROUP BY window_start, window_end;`;

function imported(sql: string): { doc: PipelineDocument; warnings: string[] } {
  const r = importFlinkSql(sql);
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.line}:${e.column} ${e.message}`).join('\n'));
  return { doc: r.doc, warnings: r.warnings.map((w) => w.message) };
}

describe('datagen tables', () => {
  it('become the generator, with the options as column specs and LOCALTIMESTAMP as the time a row is made', () => {
    const { doc } = imported(TUTORIAL);
    const src = doc.nodes.find((n) => n.id === 'orders')!;
    expect(src).toMatchObject({
      kind: 'generatorSource',
      params: {
        scenario: 'datagen',
        count: 40,
        ratePerSec: 4,
        schema: { order_id: 'integer', product: 'string', price: 'number', order_time: 'timestamp' },
        columns: { order_time: { kind: 'arrival' }, order_id: { kind: 'sequence', start: 1, end: 40 }, product: { length: 3 }, price: { min: 1, max: 5 } },
        eventTime: { field: 'order_time', maxOutOfOrdernessMs: 999 },
      },
    });
    // 40 rows at 4 per second: ten one-second windows of four rows, ids 1..40 in order.
    const run = runPipeline(doc);
    const rows = run.changelogs[Object.keys(run.changelogs)[0]].map((e) => e.row);
    expect(rows.map((r) => r.n)).toEqual(Array(10).fill(4));
    expect(rows.map((r) => r.ids)).toEqual(Array.from({ length: 10 }, (_, w) => 4 * (4 * w + 1) + 6));
    for (const r of rows) expect(r.hi as number).toBeLessThan(5);
    expect(run.deadLetters).toEqual([]);
  });

  it('writes back as the same datagen table, which reads back to the same generator', () => {
    const { doc } = imported(TUTORIAL);
    const sql = exportFlinkSql(doc).sql;
    expect(sql).toContain('`order_time` AS LOCALTIMESTAMP');
    expect(sql).toMatch(/'fields\.order_id\.kind' = 'sequence'[\s\S]*'fields\.order_id\.end' = '40'[\s\S]*'fields\.product\.length' = '3'/);
    const plain = sql.split('\n').filter((l) => !l.startsWith('-- @weir')).join('\n');
    const back = imported(plain).doc.nodes.find((n) => n.id === 'orders')!;
    expect(back.params).toEqual(doc.nodes.find((n) => n.id === 'orders')!.params);
  });

  it('says that a table without number-of-rows would never end in Flink, and makes 1000 rows', () => {
    const { doc, warnings } = imported("CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'datagen');\nSELECT a, b FROM t;");
    expect(doc.nodes.find((n) => n.id === 't')!.params).toMatchObject({ scenario: 'datagen', count: 1000, ratePerSec: 10_000 });
    expect(warnings.join('\n')).toMatch(/no 'number-of-rows' and no sequence column, so in Flink it never ends; Weir makes 1000 rows/);
    const run = runPipeline(doc);
    expect(run.changelogs[Object.keys(run.changelogs)[0]]).toHaveLength(1000);
  });

  it('refuses options it cannot honour, naming the option', () => {
    const errorOf = (options: string) => {
      const r = importFlinkSql(`CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'datagen', ${options});\nSELECT a, b FROM t;`);
      expect(r.ok).toBe(false);
      return r.ok ? '' : `${r.errors[0].construct}: ${r.errors[0].message}`;
    };
    expect(errorOf("'fields.c.min' = '1'")).toMatch(/'fields\.c\.min': `c` is not a column of `t`/);
    expect(errorOf("'fields.a.kind' = 'sequence'")).toMatch(/add 'fields\.a\.end'/);
    expect(errorOf("'fields.a.min' = 'low'")).toMatch(/expected a number, found 'low'/);
    expect(errorOf("'number-of-rows' = 'many'")).toMatch(/'number-of-rows': expected a whole number/);
  });
});
