// Table names as Flink scripts write them: qualified with the default catalog and database, quoted
// part by part, or qualified elsewhere.
import { describe, expect, it } from 'vitest';
import { importFlinkSql } from '../index.ts';

const DDL = "CREATE TABLE orders (id STRING, amount DOUBLE) WITH ('connector' = 'filesystem', 'path' = '/o.jsonl', 'format' = 'json');\nCREATE TABLE big (id STRING) WITH ('connector' = 'print');\n";

function sourceOf(insert: string): string[] {
  const r = importFlinkSql(`${DDL}${insert}`);
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.line}:${e.column} ${e.construct}: ${e.message}`).join('\n'));
  return r.doc.nodes.map((n) => n.id);
}

describe('table names', () => {
  it('are the same table qualified with default_catalog.default_database, quoted or not', () => {
    const plain = sourceOf('INSERT INTO big SELECT id FROM orders WHERE amount > 1;');
    expect(sourceOf('INSERT INTO default_catalog.default_database.big SELECT id FROM default_catalog.default_database.orders WHERE amount > 1;')).toEqual(plain);
    expect(sourceOf('INSERT INTO `default_catalog`.`default_database`.`big` SELECT o.id FROM default_database.orders AS o WHERE o.amount > 1;')).toEqual(plain);
    expect(sourceOf('INSERT INTO big SELECT orders.id FROM default_catalog.default_database.orders WHERE orders.amount > 1;')).toEqual(plain);
  });

  it('name another catalog in full when it is not there', () => {
    const r = importFlinkSql(`${DDL}INSERT INTO big SELECT id FROM hive.sales.orders;`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]).toMatchObject({ construct: 'hive.sales.orders', message: expect.stringMatching(/is not a table or view defined above/) });
  });
});
