// Flink's built-in functions through the planner: the special forms land in Weir's expression
// language, and every function it cannot carry is refused at its line:column with the nearest form.
import { describe, expect, it } from 'vitest';
import { importFlinkSql } from './index.ts';

const TABLE = "CREATE TABLE t (a STRING, n BIGINT, j STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/t.jsonl', 'format' = 'json');\n";
const SINK = "CREATE TABLE s (x STRING) WITH ('connector' = 'print');\n";
/** The query is on line 3; `x` is what the expression became in the project node. */
function planned(expr: string, where = ''): string {
  const r = importFlinkSql(`${TABLE}${SINK}INSERT INTO s SELECT ${expr} AS x FROM t${where};`);
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.line}:${e.column} ${e.construct}: ${e.message}`).join('\n'));
  const project = r.doc.nodes.find((n) => n.kind === 'project')!;
  return (project.params.fields as { name: string; expr: string }[])[0].expr;
}
function refused(expr: string) {
  const r = importFlinkSql(`${TABLE}${SINK}INSERT INTO s SELECT ${expr} AS x FROM t;`);
  if (r.ok) throw new Error(`${expr} was planned`);
  return r.errors[0];
}
/** Column of the expression's first character on line 3 (`INSERT INTO s SELECT ` is 21 characters). */
const COL = 22;

describe('Flink built-ins in the planner', () => {
  it('reads calls the grammar lexes as keywords (SQRT, CHAR_LENGTH, CHARACTER_LENGTH), and names them as written when refused', () => {
    expect(planned('SQRT(n)')).toBe('SQRT(`n`)');
    expect(planned('sqrt(n * n) + 1')).toBe('SQRT(`n` * `n`) + 1');
    expect(planned('CHARACTER_LENGTH(a)')).toBe('CHAR_LENGTH(`a`)');
    expect(planned('CHAR_LENGTH(a)')).toBe('CHAR_LENGTH(`a`)');
    expect(refused('OCTET_LENGTH(a)')).toMatchObject({ line: 3, column: COL, construct: 'OCTET_LENGTH(…)' });
  });

  it('reads the special forms the grammar does not, into Weir forms', () => {
    expect(planned("TRIM(LEADING '0' FROM a)")).toBe("TRIM(LEADING '0' FROM `a`)");
    expect(planned('trim(trailing from a)')).toBe('TRIM(TRAILING FROM `a`)');
    expect(planned("TRIM(BOTH ' ' FROM a)")).toBe('TRIM(`a`)');
    expect(planned("TRIM('x' FROM a)")).toBe("TRIM(BOTH 'x' FROM `a`)");
    expect(planned('EXTRACT(HOUR FROM ts)')).toBe('EXTRACT(HOUR FROM `ts`)');
    expect(planned('CAST(FLOOR(ts TO DAY) AS STRING)')).toBe("DATE_FORMAT(FLOOR(`ts` TO DAY), 'yyyy-MM-dd HH:mm:ss.SSS')");
    expect(planned('CEILING(ts TO HOUR)')).toBe('CEIL(`ts` TO HOUR)');
    expect(planned("POSITION('b' IN a)")).toBe("POSITION('b' IN `a`)");
    expect(planned('TIMESTAMPADD(HOUR, 2, ts)')).toBe('TIMESTAMPADD(HOUR, 2, `ts`)');
    expect(planned('TIMESTAMPDIFF(SECOND, ts, ts)')).toBe('TIMESTAMPDIFF(SECOND, `ts`, `ts`)');
    expect(planned("DATE '2024-01-01'")).toBe("CAST('2024-01-01' AS DATE)");
    expect(planned("TIMESTAMP '2024-01-01 10:00:00'")).toBe("CAST('2024-01-01 10:00:00' AS TIMESTAMP(3))");
    expect(planned('CAST(a AS TIMESTAMP(3))')).toBe('CAST(`a` AS TIMESTAMP(3))');
    expect(planned('CAST(ts AS TIMESTAMP_LTZ(3))')).toBe('`ts`');
    expect(planned('CAST(ts AS DATE)')).toBe('CAST(`ts` AS DATE)');
    // An epoch read as a time prints as one, as Flink prints a TIMESTAMP_LTZ(3) in a UTC session.
    expect(planned('CAST(TO_TIMESTAMP_LTZ(n, 3) AS STRING)')).toBe("DATE_FORMAT(TO_TIMESTAMP_LTZ(`n`, 3), 'yyyy-MM-dd HH:mm:ss.SSS')");
    expect(planned('CAST(TO_TIMESTAMP_LTZ(n, 0) AS STRING)')).toBe("DATE_FORMAT(TO_TIMESTAMP_LTZ(`n`, 0), 'yyyy-MM-dd HH:mm:ss.SSS')");
    expect(planned('j IS JSON OBJECT')).toBe('`j` IS JSON OBJECT');
    expect(planned('(n > 1) IS TRUE')).toBe('COALESCE(`n` > 1, FALSE)');
    expect(planned('(n > 1) IS NOT FALSE')).toBe('COALESCE(`n` > 1, TRUE)');
    expect(planned('(n > 1) IS UNKNOWN')).toBe('(`n` > 1) IS NULL');
    expect(planned('n BETWEEN SYMMETRIC 5 AND 1')).toBe('`n` BETWEEN LEAST(5, 1) AND GREATEST(5, 1)');
    expect(planned("JSON_VALUE(j, '$.a.b')")).toBe("JSON_VALUE(`j`, '$.a.b')");
    expect(planned("JSON_VALUE(j, '$.n' RETURNING INT)")).toBe("CAST(JSON_VALUE(`j`, '$.n') AS BIGINT)");
    expect(planned("JSON_VALUE(j, '$.n' RETURNING DECIMAL(10, 2))")).toBe("CAST(JSON_VALUE(`j`, '$.n') AS DOUBLE)");
    expect(planned("JSON_VALUE(j, '$.n' RETURNING INT NULL ON EMPTY NULL ON ERROR)")).toBe("CAST(JSON_VALUE(`j`, '$.n') AS BIGINT)");
    expect(planned("JSON_VALUE(j, '$.n' DEFAULT 'x' ON EMPTY)")).toMatch(/^CASE WHEN `j` IS NULL THEN NULL WHEN .*JSON_QUERY\(`j`, '\$\.n'\) IS NOT NULL THEN NULL WHEN JSON_VALUE\(`j`, '\$\.n'\) IS NULL THEN 'x' ELSE/);
    expect(planned("REGEXP_EXTRACT(a, '(\\d+)', 1)")).toBe("REGEXP_EXTRACT(`a`, '(\\d+)', 1)");
    expect(planned('IFNULL(a, MD5(a))')).toBe('IFNULL(`a`, MD5(`a`))');
    expect(planned("CAST(ts + INTERVAL '1 02' DAY TO HOUR AS STRING)")).toBe("DATE_FORMAT(`ts` + INTERVAL '26' HOUR, 'yyyy-MM-dd HH:mm:ss.SSS')");
    expect(planned("CAST(ts - INTERVAL '0 00:01:30' DAY TO SECOND AS STRING)")).toBe("DATE_FORMAT(`ts` - INTERVAL '90' SECOND, 'yyyy-MM-dd HH:mm:ss.SSS')");
  });

  it('names each function it cannot carry, at its line:column, with the nearest form', () => {
    const cases: [string, string, RegExp][] = [
      ['CURRENT_TIMESTAMP', 'CURRENT_TIMESTAMP', /processing time .*event-time column/],
      ['NOW()', 'NOW(…)', /processing time/],
      ['UNIX_TIMESTAMP()', 'UNIX_TIMESTAMP()', /current time.*UNIX_TIMESTAMP\(text\[, pattern\]\) is read/],
      ['UUID()', 'UUID(…)', /randomness .*MD5 or SHA256/],
      ["DATE_ADD(ts, 1)", 'DATE_ADD(…)', /not a Flink built-in: TIMESTAMPADD\(DAY, n, d\)/],
      ["CONVERT_TZ(a, 'UTC', 'Asia/Taipei')", 'CONVERT_TZ(…)', /UTC.*TIMESTAMPADD\(HOUR, n, ts\)/],
      ['STARTSWITH(a, \'x\')', 'STARTSWITH(…)', /LIKE 'prefix%'/],
      ["JSON_VALUE(j, '$.a' RETURNING TIME)", 'JSON_VALUE(… RETURNING TIME)', /Weir reads RETURNING STRING, .*BIGINT, .*TIMESTAMP/],
      ["JSON_VALUE(j, '$.a' ERROR ON ERROR)", 'JSON_VALUE(… ERROR ON ERROR)', /Flink fails the job there.*DEFAULT value ON ERROR/],
      ["a SIMILAR TO 'x('", 'SIMILAR TO', /not a valid regular expression/],
      ["a LIKE 'x!y' ESCAPE '!'", 'LIKE … ESCAPE', /must stand before %, _ or itself/],
      ["TRANSLATE(a, 'ab', 'cd')", 'TRANSLATE(…)', /REPLACE/],
      ['LEAD(n) OVER (PARTITION BY a ORDER BY ts)', 'LEAD(…) OVER', /streaming planner refuses LEAD.*LAG\(…\) OVER/],
      ['NOSUCH(a)', 'NOSUCH(…)', /CREATE FUNCTION.*docs\/flink-sql\.md/],
    ];
    for (const [expr, construct, message] of cases) {
      const e = refused(expr);
      expect({ expr, line: e.line, column: e.column, construct: e.construct }).toEqual({ expr, line: 3, column: COL, construct });
      expect(e.message, expr).toMatch(message);
    }
  });

  it("reads TIME '…' as its 'HH:mm:ss' text, as a DATE is its 'yyyy-MM-dd' text", () => {
    expect(planned("TIME '10:00:00'")).toBe("'10:00:00'");
  });

  it('reads a backslash in a string as itself, as Flink does, even last before the quote', () => {
    expect(planned("REPLACE(a, '\\', '/')")).toBe("REPLACE(`a`, '\\', '/')");
    expect(planned("'x\\' || a || '\\'")).toBe("'x\\' || `a` || '\\'");
    expect(planned("REGEXP_EXTRACT(a, '(\\d+)\\.', 1)")).toBe("REGEXP_EXTRACT(`a`, '(\\d+)\\.', 1)");
  });

  it('reads the ARRAY[…] and MAP[…] constructors, nested and subscripted', () => {
    expect(planned("ARRAY['x', a][2]")).toBe("ARRAY['x', `a`][2]");
    expect(planned("CARDINALITY(MAP['k', ARRAY[n, 1]])")).toBe("CARDINALITY(MAP['k', ARRAY[`n`, 1]])");
    expect(planned("CAST(ARRAY_CONTAINS(ARRAY['p', 'q'], a) AS STRING)")).toBe("CAST(ARRAY_CONTAINS(ARRAY['p', 'q'], `a`) AS STRING)");
  });

  it('reads an OVER call inside an expression as a column the over node computes', () => {
    expect(planned('n - LAG(n) OVER (PARTITION BY a ORDER BY ts)')).toBe('`n` - `w_over_1`');
    expect(planned('CAST(SUM(n) OVER (PARTITION BY a ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS STRING)')).toBe('CAST(`w_over_1` AS STRING)');
    const r = importFlinkSql(`${TABLE}${SINK}INSERT INTO s SELECT CAST(COUNT(*) OVER w + 1 AS STRING) AS x\nFROM t WINDOW w AS (PARTITION BY a ORDER BY ts);`);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.doc.nodes.find((n) => n.kind === 'overAggregate')!.params).toMatchObject({ partitionBy: ['a'], frame: 'range', aggregates: [{ fn: 'count', as: 'w_over_1' }] });
  });

  it('names what LAG cannot take at the frame or argument, as Flink refuses it', () => {
    const frame = refused('LAG(n) OVER (PARTITION BY a ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)');
    expect(frame).toMatchObject({ line: 3, column: COL + 40, construct: 'LAG(…) OVER (… ROWS/RANGE …)' });
    expect(frame.message).toMatch(/no frame with LAG: write LAG\(x\) OVER \(PARTITION BY … ORDER BY <time attribute>\)/);
    expect(refused('LAG(n, a) OVER (PARTITION BY a ORDER BY ts)')).toMatchObject({ column: COL + 7, construct: 'LAG(…, offset)', message: expect.stringMatching(/expected a constant .* found a$/) });
    expect(refused('LAG(n, -1) OVER (PARTITION BY a ORDER BY ts)')).toMatchObject({ column: COL + 7, message: expect.stringMatching(/0 or more; found -1/) });
    expect(refused("LAG(n, 1, 'x', 2) OVER (PARTITION BY a ORDER BY ts)").message).toMatch(/LAG\(value \[, offset \[, default\]\]\)/);
    expect(refused('LAG(n)').message).toMatch(/LAG reads an OVER window/);
    // Inside an expression (read by overLift.ts), a mistake is still named at its own line:column.
    expect(refused('n - LAG(n, -1) OVER (PARTITION BY a ORDER BY ts)')).toMatchObject({ line: 3, column: COL + 11, message: expect.stringMatching(/0 or more; found -1/) });
    expect(refused('CAST(LEAD(n) OVER (PARTITION BY a ORDER BY ts) AS STRING)')).toMatchObject({ line: 3, column: COL + 5, construct: 'LEAD(…) OVER' });
  });

  it('names processing-time functions inside other expressions, and IS NOT JSON at its IS', () => {
    const e = refused('TIMESTAMPDIFF(HOUR, ts, CURRENT_TIMESTAMP)');
    expect(e).toMatchObject({ line: 3, column: COL + 24, construct: 'CURRENT_TIMESTAMP' });
    expect(e.message).toMatch(/processing time/);
    const notJson = refused('j IS NOT JSON');
    expect(notJson).toMatchObject({ line: 3, column: COL + 2, construct: 'IS NOT JSON' });
    expect(notJson.message).toMatch(/NOT \(s IS JSON\)/);
  });

  it('names a unit or an interval Weir does not read, inside the expression', () => {
    const unit = refused('EXTRACT(MICROSECOND FROM ts)');
    expect(unit).toMatchObject({ line: 3, column: COL });
    expect(unit.message).toMatch(/Expected the unit of EXTRACT: .*MILLISECOND.*found identifier 'MICROSECOND'/);
    expect(refused("TIMESTAMPADD(HOUR, 1, ts) + INTERVAL '1' MONTH").message).toMatch(/calendar interval .*TIMESTAMPADD\(MONTH, 1, ts\)/);
    expect(refused('FLOOR(ts TO WEEK)').message).toMatch(/Expected the unit of FLOOR/);
  });

  it('reads OVERLAY(s PLACING r FROM n [FOR len]), nested and beside FROM of the query', () => {
    expect(planned("OVERLAY(a PLACING 'x' FROM 2 FOR 1)")).toBe("OVERLAY(`a` PLACING 'x' FROM 2 FOR 1)");
    expect(planned("OVERLAY(UPPER(a) PLACING TRIM(LEADING '0' FROM a) FROM n + 1)")).toBe("OVERLAY(UPPER(`a`) PLACING TRIM(LEADING '0' FROM `a`) FROM `n` + 1)");
  });

  it('reads JSON_OBJECT and JSON_ARRAY in every form Flink documents, nested, with their NULL clauses', () => {
    expect(planned("JSON_OBJECT(KEY 'a' VALUE a, KEY 'n' VALUE n + 1)")).toBe("JSON_OBJECT(KEY 'a' VALUE `a`, KEY 'n' VALUE `n` + 1)");
    expect(planned("JSON_OBJECT('a' VALUE a ABSENT ON NULL)")).toBe("JSON_OBJECT(KEY 'a' VALUE `a` ABSENT ON NULL)");
    expect(planned("JSON_OBJECT(KEY 'k' VALUE JSON_ARRAY(1, n, 'x' NULL ON NULL), KEY 't' VALUE t.a NULL ON NULL)")).toBe(
      "JSON_OBJECT(KEY 'k' VALUE JSON_ARRAY(1, `n`, 'x' NULL ON NULL), KEY 't' VALUE `a` NULL ON NULL)",
    );
    expect(planned('JSON_ARRAY()')).toBe('JSON_ARRAY()');
    expect(planned('JSON_OBJECT()')).toBe('JSON_OBJECT()');
    expect(planned("JSON_ARRAY(JSON_OBJECT(KEY 'x' VALUE n), a)")).toBe("JSON_ARRAY(JSON_OBJECT(KEY 'x' VALUE `n`), `a`)");
    expect(planned('JSON_ARRAY(a, n ABSENT ON NULL)')).toBe('JSON_ARRAY(`a`, `n` ABSENT ON NULL)');
  });

  it('reads element access and CARDINALITY over ARRAY, MAP and ROW columns', () => {
    const ddl = "CREATE TABLE c (id STRING, tags ARRAY<STRING>, attrs MAP<STRING, STRING>, items ARRAY<ROW<sku STRING, qty INT>>) WITH ('connector' = 'filesystem', 'path' = '/c.jsonl', 'format' = 'json');\n";
    const exprOf = (select: string) => {
      const r = importFlinkSql(`${ddl}CREATE TABLE o (x STRING) WITH ('connector' = 'print');\nINSERT INTO o SELECT CAST(${select} AS STRING) AS x FROM c;`);
      if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
      return (r.doc.nodes.find((n) => n.kind === 'project')!.params.fields as { expr: string }[])[0].expr;
    };
    expect(exprOf('tags[1]')).toBe('CAST(`tags`[1] AS STRING)');
    expect(exprOf("attrs['color']")).toBe("CAST(`attrs`['color'] AS STRING)");
    expect(exprOf('CARDINALITY(tags)')).toBe('CAST(CARDINALITY(`tags`) AS STRING)');
    expect(exprOf("ARRAY_CONTAINS(tags, 'red')")).toBe("CAST(ARRAY_CONTAINS(`tags`, 'red') AS STRING)");
    expect(exprOf("ARRAY_JOIN(MAP_KEYS(attrs), ',')")).toBe("CAST(ARRAY_JOIN(MAP_KEYS(`attrs`), ',') AS STRING)");
  });
});
