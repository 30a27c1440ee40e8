// A syntax error is one clear problem per statement, at the token that is wrong, and nothing on the console.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { importFlinkSql } from './index.ts';

const TABLE = "CREATE TABLE t (\n  a STRING,\n  n BIGINT,\n  ts TIMESTAMP(3),\n  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND\n) WITH ('connector' = 'filesystem', 'path' = '/data/t.jsonl', 'format' = 'json');\n";

function errorsOf(sql: string) {
  const r = importFlinkSql(sql);
  expect(r.ok).toBe(false);
  return r.ok ? [] : r.errors;
}

afterEach(() => vi.restoreAllMocks());

describe('syntax errors', () => {
  it('names a reserved word used as an alias, once, at the word, with the backticks to write', () => {
    const errors = errorsOf(`${TABLE}SELECT a, LAG(n) OVER (PARTITION BY a ORDER BY ts) AS prev FROM t;`);
    expect(errors).toEqual([
      {
        line: 7,
        column: 55,
        construct: 'reserved word',
        message: 'prev is a reserved word in Flink SQL: to use it as a name, write it in backticks as Flink requires (`prev`), or choose another name',
      },
    ]);
    expect(importFlinkSql(`${TABLE}SELECT a, LAG(n) OVER (PARTITION BY a ORDER BY ts) AS \`prev\` FROM t;`).ok).toBe(true);
  });

  it('names every reserved column name of a statement, and each statement once', () => {
    const sql = "CREATE TABLE clicks (\n  user STRING,\n  value INT,\n  ts TIMESTAMP(3)\n) WITH ('connector' = 'datagen');\nSELECT user, value FROM clicks;";
    const errors = errorsOf(sql);
    expect(errors.map((e) => [e.line, e.column, e.construct, e.message.split(' ')[0]])).toEqual([
      [2, 3, 'reserved word', 'user'],
      [3, 3, 'reserved word', 'value'],
      [6, 8, 'reserved word', 'user'],
      [6, 14, 'reserved word', 'value'],
    ]);
    const quoted = sql.replace(/\buser\b/g, '`user`').replace(/\bvalue\b/g, '`value`');
    expect(importFlinkSql(quoted).ok).toBe(true);
  });

  it('finds a reserved word where ANTLR stops at the token after it, and every use in the statement', () => {
    const errors = errorsOf(`${TABLE}SELECT a, rank, n FROM (SELECT a, n, ROW_NUMBER() OVER (PARTITION BY a ORDER BY n DESC) AS rank FROM t) WHERE rank <= 2;`);
    expect(errors.map((e) => [e.line, e.column, e.message.split(' ')[0]])).toEqual([
      [7, 11, 'rank'],
      [7, 92, 'rank'],
      [7, 111, 'rank'],
    ]);
  });

  it('does not call a misplaced keyword a name, and keeps one error per broken statement', () => {
    const errors = errorsOf(`${TABLE}SELECT a, FROM t;\nSELECT a n FROM t WHERE;`);
    expect(errors).toHaveLength(2);
    expect(errors.map((e) => [e.line, e.construct])).toEqual([
      [7, 'syntax'],
      [8, 'syntax'],
    ]);
  });

  it('gives the quoted form of a SET written without quotes', () => {
    const [e] = errorsOf(`SET table.exec.mini-batch.enabled = true;\n${TABLE}SELECT a FROM t;`);
    expect(e).toMatchObject({ line: 1, construct: 'SET', message: "write the key and the value in quotes, as Flink's SQL client reads them: SET 'table.exec.mini-batch.enabled' = 'true'" });
  });

  it('prints nothing on the console while it reads a broken script', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    errorsOf(`${TABLE}SELECT a, LAG(n) OVER (PARTITION BY a ORDER BY ts) AS prev FROM t;\nSELECT 'x FROM t;`);
    expect(error).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });
});
