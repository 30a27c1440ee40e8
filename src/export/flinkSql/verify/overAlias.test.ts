// OVER items as Flink reads them and dt-sql-parser's grammar does not: unnamed, or named without AS.
import { describe, expect, it } from 'vitest';
import { importFlinkSql } from '../../../import/flinkSql/index.ts';
import { parseFlinkSql } from './parseTree.ts';

const TABLE = "CREATE TABLE t (k STRING, v BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/t.jsonl', 'format' = 'json');\n";
const ROWS = 'ROWS BETWEEN 1 PRECEDING AND CURRENT ROW';

describe('OVER items without AS', () => {
  it('parse as Flink reads them, with every written token where it was', () => {
    for (const q of [`SELECT k, COUNT(*) OVER (PARTITION BY k ORDER BY ts ${ROWS}) FROM t`, `SELECT k, COUNT(*) OVER w FROM t WINDOW w AS (PARTITION BY k ORDER BY ts ${ROWS})`, `SELECT k, COUNT(*) OVER (PARTITION BY k ORDER BY ts ${ROWS}) c, v FROM t`]) {
      expect(parseFlinkSql(q).tree, q).not.toBeNull();
    }
    // An error after an unnamed OVER item is still placed at its token.
    const r = importFlinkSql(`${TABLE}SELECT k, SUM(v) OVER (PARTITION BY k ORDER BY ts ${ROWS}) FROM t WHERE nope = 1;`);
    expect(r.ok).toBe(false);
    const line2 = `SELECT k, SUM(v) OVER (PARTITION BY k ORDER BY ts ${ROWS}) FROM t WHERE nope = 1;`;
    expect(!r.ok && r.errors[0]).toMatchObject({ line: 2, column: line2.indexOf('nope') + 1, construct: 'column nope' });
  });

  it('name an unnamed item EXPR$n as Flink does, and read a name written without AS', () => {
    const r = importFlinkSql(`${TABLE}SELECT k, COUNT(*) OVER (PARTITION BY k ORDER BY ts ${ROWS}), SUM(v) OVER w total FROM t WINDOW w AS (PARTITION BY k ORDER BY ts ${ROWS});`);
    if (!r.ok) throw new Error(r.errors[0].message);
    const over = r.doc.nodes.find((n) => n.kind === 'overAggregate')!;
    expect(JSON.stringify(over.params)).toContain('"EXPR$1"');
    expect(JSON.stringify(over.params)).toContain('"total"');
    const ranked = importFlinkSql(`${TABLE}SELECT * FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) rn FROM t) WHERE rn <= 2;`);
    if (!ranked.ok) throw new Error(ranked.errors[0].message);
    expect(ranked.doc.nodes.find((n) => n.kind === 'topN')!.params).toMatchObject({ n: 2, rankField: 'rn' });
  });
});
