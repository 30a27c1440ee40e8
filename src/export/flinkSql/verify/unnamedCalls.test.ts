// Unnamed one-argument calls in SELECT lists, which dt-sql-parser's grammar reads as a column with
// an alias when it does not know the function's name: they are named only where they stand alone.
import { describe, expect, it } from 'vitest';
import { importFlinkSql } from '../../../import/flinkSql/index.ts';

const TABLE = "CREATE TABLE t (a STRING, n BIGINT, d DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/t.jsonl', 'format' = 'json');\n";

function fields(select: string): { name: string; expr: string }[] {
  const r = importFlinkSql(`${TABLE}${select};`);
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.line}:${e.column} ${e.construct}: ${e.message}`).join('\n'));
  return r.doc.nodes.find((n) => n.kind === 'project')!.params.fields as { name: string; expr: string }[];
}

const docOf = (select: string): string => {
  const r = importFlinkSql(`${TABLE}${select};`);
  if (!r.ok) throw new Error(r.errors[0].message);
  return JSON.stringify(r.doc.nodes.map((n) => n.params));
};

describe('unnamed calls in a SELECT list', () => {
  it('are calls named EXPR$n, first item, middle and last, after DISTINCT, and in a subquery', () => {
    expect(fields('SELECT ROUND(d), n, INITCAP(a) FROM t')).toEqual([
      { name: 'EXPR$0', expr: 'ROUND(`d`)' },
      { name: 'n', expr: '`n`' },
      { name: 'EXPR$2', expr: 'INITCAP(`a`)' },
    ]);
    expect(docOf('SELECT DISTINCT LOG10(n) FROM t')).toContain('LOG10(`n`)');
    expect(fields('SELECT x FROM (SELECT QUARTER(ts) AS x, REVERSE(a) FROM t)').map((f) => f.expr)).toContain('QUARTER(`ts`)');
  });

  it('leave alone calls inside other expressions, named items, and a parenthesised column', () => {
    expect(fields("SELECT CONCAT(LTRIM(a), 'x') AS c, RTRIM(a) r, ROUND(d) * 2 AS twice FROM t")).toEqual([
      { name: 'c', expr: "CONCAT(LTRIM(`a`), 'x')" },
      { name: 'r', expr: 'RTRIM(`a`)' },
      { name: 'twice', expr: 'ROUND(`d`) * 2' },
    ]);
    expect(fields('SELECT (a), n FROM t').map((f) => f.expr)).toEqual(['`a`', '`n`']);
    expect(docOf('SELECT DISTINCT (a), n FROM t')).not.toMatch(/DISTINCT\(/);
  });
});

describe('calls after an operator at the top of a SELECT item', () => {
  it('parse as the calls Flink reads, named or not, for functions the grammar has no name for', () => {
    expect(fields("SELECT n + ROUND(d) AS r, '#' || MD5(a) AS h, -SQRT(d) AS s, CHAR_LENGTH(a) + LOG10(n) AS l FROM t")).toEqual([
      { name: 'r', expr: '`n` + ROUND(`d`)' },
      { name: 'h', expr: "'#' || MD5(`a`)" },
      { name: 's', expr: '-SQRT(`d`)' },
      { name: 'l', expr: 'CHAR_LENGTH(`a`) + LOG10(`n`)' },
    ]);
    expect(fields("SELECT a || DATE_FORMAT(ts, 'yyyy'), n * IFNULL(n, 0) twice FROM t")).toEqual([
      { name: 'EXPR$0', expr: "`a` || DATE_FORMAT(`ts`, 'yyyy')" },
      { name: 'twice', expr: '`n` * IFNULL(`n`, 0)' },
    ]);
  });

  it('leave table aliases with column lists and subqueries in FROM alone', () => {
    expect(docOf('SELECT x + ROUND(y) AS z FROM (SELECT n AS x, d AS y FROM t) AS s (x, y)')).toContain('{"name":"z","expr":"`x` + ROUND(`y`)"}');
  });
});
