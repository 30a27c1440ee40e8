// Catalog statements in a Flink script: skipped when they change nothing a pipeline runs, applied
// when they change a table (ALTER TABLE … SET / RENAME TO), refused with a way out otherwise.
import { describe, expect, it } from 'vitest';
import { importFlinkSql } from './index.ts';

const TABLE = "CREATE TABLE t (a STRING, n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '5');\n";
const SINK = "CREATE TABLE s (a STRING, n BIGINT) WITH ('connector' = 'print');\n";

const sourceParams = (sql: string) => {
  const r = importFlinkSql(sql);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return { params: r.doc.nodes.find((n) => n.kind === 'generatorSource')?.params as Record<string, unknown>, warnings: r.warnings.map((w) => w.message) };
};

describe('catalog statements', () => {
  it('ALTER TABLE … SET changes the options the statements after it read', () => {
    const before = sourceParams(`${TABLE}${SINK}INSERT INTO s SELECT a, n FROM t;`);
    const after = sourceParams(`${TABLE}ALTER TABLE t SET ('number-of-rows' = '7');\n${SINK}INSERT INTO s SELECT a, n FROM t;`);
    expect(before.params.count).toBe(5);
    expect(after.params.count).toBe(7);
  });

  it('ALTER TABLE … RENAME TO gives the table its new name, and the old one is gone', () => {
    expect(sourceParams(`${TABLE}ALTER TABLE t RENAME TO t2;\n${SINK}INSERT INTO s SELECT a, n FROM t2;`).params.count).toBe(5);
    const r = importFlinkSql(`${TABLE}ALTER TABLE t RENAME TO t2;\n${SINK}INSERT INTO s SELECT a, n FROM t;`);
    expect(r.ok).toBe(false);
  });

  it('refuses ALTER TABLE of a table the script does not create, naming it', () => {
    const r = importFlinkSql(`ALTER TABLE nope SET ('a' = 'b');\n${TABLE}${SINK}INSERT INTO s SELECT a, n FROM t;`);
    expect(r.ok ? [] : r.errors[0]).toMatchObject({ line: 1, construct: 'ALTER TABLE nope', message: expect.stringMatching(/no table `nope` is created before it/) });
  });

  it('skips CREATE CATALOG and CREATE DATABASE with a warning', () => {
    const { warnings } = sourceParams(`CREATE CATALOG c1 WITH ('type' = 'generic_in_memory');\nCREATE DATABASE IF NOT EXISTS db1 WITH ('k' = 'v');\n${TABLE}${SINK}INSERT INTO s SELECT a, n FROM t;`);
    expect(warnings.filter((w) => /has no effect on a pipeline \(one catalog, one database\)/.test(w))).toHaveLength(2);
  });

  it('skips CREATE DATABASE without WITH (…) too, which the grammar does not read, at its line', () => {
    const r = importFlinkSql(`${TABLE}CREATE DATABASE IF NOT EXISTS shop COMMENT 'orders';\nCREATE DATABASE db2;\n${SINK}INSERT INTO s SELECT a, n FROM t;`);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.warnings.filter((w) => /CREATE DATABASE has no effect on a pipeline/.test(w.message)).map((w) => w.line)).toEqual([2, 3]);
  });
});
