// What the planner cannot plan is an error at line:column naming the construct and the nearest supported form.
import { describe, expect, it } from 'vitest';
import { importFlinkSql, planFlinkSql } from './index.ts';
import { compile } from '../../pipeline/compile.ts';

const TABLE = "CREATE TABLE `t` (\n  `a` STRING,\n  `n` BIGINT,\n  `ts` TIMESTAMP(3),\n  WATERMARK FOR `ts` AS `ts` - INTERVAL '1' SECOND\n) WITH ('connector' = 'filesystem', 'path' = '/data/t.jsonl', 'format' = 'json');\n";
const SINK = "CREATE TABLE `s` (`a` STRING, `n` BIGINT) WITH ('connector' = 'print');\n";
const LINES = TABLE.split('\n').length + SINK.split('\n').length - 2;

function errorsOf(sql: string) {
  const r = importFlinkSql(sql);
  expect(r.ok).toBe(false);
  return r.ok ? [] : r.errors;
}
const insert = (q: string) => errorsOf(`${TABLE}${SINK}INSERT INTO s\n${q};`);

describe('Flink SQL planner errors', () => {
  it('names an unsupported clause with its position and the nearest supported form', () => {
    const [e] = insert('SELECT a, n FROM t\nORDER BY n');
    expect(e).toMatchObject({ line: LINES + 3, column: 1, construct: 'ORDER BY' });
    expect(e.message).toMatch(/ORDER BY … LIMIT n \(Top-N\)/);
    expect(insert('SELECT a, n FROM t ORDER BY n LIMIT 0')[0].construct).toBe('LIMIT');
    expect(importFlinkSql(`${TABLE}${SINK}INSERT INTO s SELECT a, n FROM t ORDER BY n + 1 LIMIT 3;`).ok).toBe(true);
    expect(insert('SELECT a, n FROM t ORDER BY 3 LIMIT 3')[0]).toMatchObject({ construct: 'ORDER BY 3', message: expect.stringMatching(/has 2 columns; order by a position from 1 to 2/) });
    expect(insert('SELECT DISTINCT a FROM t ORDER BY n LIMIT 3')[0].message).toMatch(/with SELECT DISTINCT, order by columns of the SELECT list/);
    expect(insert('SELECT a, n FROM t ORDER BY nope LIMIT 3')[0]).toMatchObject({ construct: 'column nope', message: expect.stringMatching(/columns in scope are t.a, t.n, t.ts/) });
  });

  it('refuses a window over a processing-time attribute, naming the event-time column to use', () => {
    const proc = TABLE.replace('  WATERMARK FOR', '  `pt` AS PROCTIME(),\n  WATERMARK FOR');
    const r = importFlinkSql(`${proc}${SINK}INSERT INTO s SELECT a, COUNT(*) FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(pt), INTERVAL '1' MINUTE)) GROUP BY a, window_start, window_end;`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]).toMatchObject({ construct: 'DESCRIPTOR(pt)', message: expect.stringMatching(/processing-time attribute.*`t` has `ts`/) });
  });

  it('skips DROP, SHOW, USE and EXPLAIN with a warning that names them, and lets a dropped table be created again', () => {
    const r = importFlinkSql(`DROP TABLE IF EXISTS \`t\`;\nSHOW TABLES;\n${TABLE}USE CATALOG default_catalog;\nDROP TEMPORARY VIEW IF EXISTS v;\nDROP TABLE t;\n${TABLE}${SINK}INSERT INTO s SELECT a, n FROM t;`);
    expect(r.ok).toBe(true);
    expect(r.warnings.map((w) => w.message)).toEqual([
      'DROP TABLE t has no effect on a pipeline and is skipped',
      'SHOW TABLES has no effect on a pipeline and is skipped',
      'USE CATALOG has no effect on a pipeline and is skipped',
      'DROP VIEW v has no effect on a pipeline and is skipped',
      'DROP TABLE t has no effect on a pipeline and is skipped',
    ]);
  });

  it('reads an unnamed one-argument call of a function the grammar does not know by name as the call, named EXPR$n as Flink names it', () => {
    const planned = (sql: string) => {
      const r = importFlinkSql(sql);
      if (!r.ok) throw new Error(r.errors.map((e) => `${e.line}:${e.column} ${e.construct}: ${e.message}`).join('\n'));
      return r.doc;
    };
    // The grammar read `LTRIM(a)` as the column LTRIM aliased `(a)`: the call vanished.
    const doc = planned(`${TABLE}${SINK}INSERT INTO s SELECT LTRIM(a), n FROM t;`);
    expect(JSON.stringify(doc.nodes.find((n) => n.kind === 'project')!.params)).toMatch(/LTRIM\(`a`\)/);
    const view = planned(`${TABLE}${SINK}CREATE TEMPORARY VIEW v AS SELECT REVERSE(a), n FROM t;\nINSERT INTO s SELECT \`EXPR$0\`, n FROM v;`);
    expect(JSON.stringify(view.nodes.map((n) => n.params))).toMatch(/REVERSE\(`a`\)/);
    const created = planned(`CREATE TEMPORARY FUNCTION my_upper AS 'com.example.Upper';\n${TABLE}${SINK}INSERT INTO s SELECT my_upper(a), n FROM t;`);
    expect(JSON.stringify(created.nodes.map((n) => n.params))).toMatch(/MY_UPPER is not written yet/);
    const unknown = errorsOf(`${TABLE}${SINK}INSERT INTO s SELECT foo(a), n FROM t;`)[0];
    expect(unknown).toMatchObject({ construct: 'FOO(…)', message: expect.stringMatching(/not a built-in Weir's expression language carries, nor a function the script creates/) });
  });

  it('says why a PROCTIME() column cannot be selected, and what it is for', () => {
    const sql = "CREATE TABLE g (id INT, pt AS PROCTIME()) WITH ('connector' = 'datagen', 'number-of-rows' = '5');\nSELECT id, pt FROM g;";
    const [e] = errorsOf(sql);
    expect(e).toMatchObject({ line: 2, column: 12, construct: 'column pt' });
    expect(e.message).toMatch(/processing-time attribute \(PROCTIME\(\)\).*drives FOR SYSTEM_TIME AS OF/);
  });

  it('reads LISTAGG as Flink types it: text values (also with DISTINCT), a text constant separator, no SESSION window', () => {
    const at = (q: string) => insert(q)[0];
    expect(at('SELECT a, LISTAGG(n) AS l FROM t GROUP BY a')).toMatchObject({ line: LINES + 2, column: 19, construct: 'LISTAGG(…)', message: expect.stringMatching(/LISTAGG\(CAST\(n AS STRING\)\)/) });
    expect(at('SELECT a, LISTAGG(a, a) AS l FROM t GROUP BY a')).toMatchObject({ column: 22, construct: 'LISTAGG(…, separator)' });
    expect(at("SELECT a, LISTAGG(a, 1) AS l FROM t GROUP BY a").message).toMatch(/a text constant such as ', ', found 1/);
    expect(at("SELECT a, LISTAGG(a, ',', 'x') AS l FROM t GROUP BY a")).toMatchObject({ column: 11, message: expect.stringMatching(/LISTAGG\(value \[, separator\]\)/) });
    expect(at('SELECT a, LISTAGG(DISTINCT n) AS l FROM t GROUP BY a')).toMatchObject({ construct: 'LISTAGG(…)', message: expect.stringMatching(/LISTAGG\(CAST\(n AS STRING\)\)/) });
    expect(at("SELECT a, LISTAGG(a) AS l FROM t GROUP BY a, SESSION(ts, INTERVAL '1' MINUTE)")).toMatchObject({ construct: 'LISTAGG(…) in a SESSION window', message: expect.stringMatching(/TUMBLE, HOP or CUMULATE/) });
    expect(at('SELECT a, n FROM t WHERE LISTAGG(a) IS NULL').message).toMatch(/GROUP BY/);
  });

  it('reports every broken statement, in order', () => {
    const errors = errorsOf(`${TABLE}${SINK}INSERT INTO s SELECT a, n FROM nope;\nINSERT INTO s SELECT a FROM t;\n`);
    expect(errors.map((e) => [e.line, e.construct])).toEqual([
      [LINES + 1, 'nope'],
      [LINES + 2, 'INSERT INTO'],
    ]);
  });

  it('rejects MATCH_RECOGNIZE, SESSION TVFs cut otherwise than grouped, OVER windows not ordered by time and extra conditions in outer interval joins', () => {
    expect(insert('SELECT a, n FROM t MATCH_RECOGNIZE (PARTITION BY a)')[0].construct).toBe('MATCH_RECOGNIZE');
    expect(insert("SELECT a, COUNT(*) AS n FROM TABLE(SESSION(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY a, window_start, window_end")[0]).toMatchObject({
      construct: 'GROUP BY',
      message: expect.stringMatching(/SESSION\(TABLE t PARTITION BY a, …\)/),
    });
    const over = insert('SELECT a, SUM(n) OVER (PARTITION BY a ORDER BY n ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS n FROM t')[0];
    expect(over.construct).toBe('OVER (ORDER BY …)');
    expect(over.message).toMatch(/time attribute, ascending \(`ts`\)/);
    expect(insert('SELECT a, SUM(n) OVER (PARTITION BY a ORDER BY ts ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) AS n FROM t')[0].construct).toBe('OVER (… frame)');
    const join = insert("SELECT l.a, r.n FROM t l LEFT JOIN t r ON l.a = r.a AND r.ts BETWEEN l.ts AND l.ts + INTERVAL '1' MINUTE AND l.n < r.n")[0];
    expect(join).toMatchObject({ construct: 'JOIN … ON' });
    expect(join.message).toMatch(/outer interval join/);
  });

  it('reads FOR SYSTEM_TIME AS OF only at a time attribute or a PROCTIME() column of the probe side, which must be append-only', () => {
    const probe = TABLE.replace('  WATERMARK', '  `pt` AS PROCTIME(),\n  WATERMARK');
    const script = (q: string) => `${probe}${SINK}INSERT INTO s\n${q};`;
    const notTime = errorsOf(script('SELECT l.a, r.n FROM t l JOIN t FOR SYSTEM_TIME AS OF l.n AS r ON l.a = r.a'))[0];
    expect(notTime).toMatchObject({ line: LINES + 3, construct: 'FOR SYSTEM_TIME AS OF' });
    expect(notTime.message).toMatch(/time attribute \(ts\) or a PROCTIME\(\) column of it \(pt\)/);
    const upserts = "CREATE TABLE `u` (`a` STRING, `n` BIGINT, `pt` AS PROCTIME(), PRIMARY KEY (`a`) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 'u', 'key.format' = 'json', 'value.format' = 'json');\n";
    const updating = errorsOf(`${upserts}${script('SELECT l.a, r.n FROM u l JOIN t FOR SYSTEM_TIME AS OF l.pt AS r ON l.a = r.a')}`)[0];
    expect(updating?.message).toMatch(/lookup join probes with an append-only table/);
    const outer = errorsOf(script('SELECT l.a, r.n FROM t l LEFT JOIN t FOR SYSTEM_TIME AS OF l.pt AS r ON l.a = r.a AND l.n < r.n'))[0];
    expect(outer.message).toMatch(/outer temporal or lookup join/);
    const ok = importFlinkSql(script('SELECT l.a, r.n FROM t l LEFT JOIN t FOR SYSTEM_TIME AS OF l.pt AS r ON l.a = r.a'));
    expect(ok.ok && ok.doc.nodes.find((n) => n.kind === 'lookupJoin')?.params).toEqual({ type: 'left', leftKey: ['a'], rightKey: ['a'] });
  });

  it('names what a window table function or a computed time attribute cannot be, and where the CTEs go', () => {
    const onWindow = insert("SELECT a, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) WHERE window_start > ts GROUP BY a, window_start, window_end")[0];
    expect(onWindow).toMatchObject({ line: LINES + 2, construct: 'WHERE … window_start' });
    const computed = errorsOf("CREATE TABLE e (sec BIGINT, ts AS UPPER(CAST(sec AS STRING)), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/e.jsonl', 'format' = 'json');\n" + SINK + 'INSERT INTO s SELECT CAST(sec AS STRING) AS a, sec AS n FROM e;')[0];
    expect(computed).toMatchObject({ line: 1, column: 29, construct: 'WATERMARK' });
    expect(computed.message).toMatch(/which is a string; compute a TIMESTAMP\(3\): ts AS TO_TIMESTAMP\(<text column>/);
    const cte = errorsOf(`${TABLE}${SINK}WITH x AS (SELECT a, n FROM t)\nINSERT INTO s SELECT a, n FROM x;`)[0];
    expect(cte).toMatchObject({ line: LINES + 2, column: 1, construct: 'WITH … INSERT INTO' });
  });

  it('names a function Weir cannot carry', () => {
    const [e] = insert("SELECT CONVERT_TZ(a, 'UTC', 'Asia/Taipei') AS a, n FROM t");
    expect(e).toMatchObject({ line: LINES + 2, column: 8, construct: 'CONVERT_TZ(…)' });
    expect(insert('SELECT a, NOSUCH(n) AS n FROM t')[0].construct).toBe('NOSUCH(…)');
  });

  it('reports unknown columns, ungrouped columns and INSERTs that do not match their sink', () => {
    expect(insert('SELECT a, m FROM t')[0]).toMatchObject({ construct: 'column m' });
    expect(insert('SELECT a, n FROM t GROUP BY a')[0].message).toMatch(/neither in GROUP BY nor inside an aggregate/);
    expect(insert('SELECT a FROM t')[0]).toMatchObject({ line: LINES + 2, construct: 'INSERT INTO' });
  });

  it('does not call the tables and views of a statement that failed to plan unused; a table nothing names still is', () => {
    const unused = "CREATE TABLE `u` (`a` STRING) WITH ('connector' = 'print');\n";
    const view = 'CREATE VIEW v AS SELECT a, n FROM t;\n';
    const warningsOf = (sql: string) =>
      planFlinkSql(sql)
        .problems.filter((p) => p.severity === 'warning')
        .map((p) => p.message);
    const table = (failing: string) => `${TABLE}${SINK}${unused}${view}${failing}`;
    const readingT = table("INSERT INTO s SELECT a, CONVERT_TZ(a, 'UTC', 'CET') FROM t;");
    expect(planFlinkSql(readingT).problems.filter((p) => p.severity === 'error')).toHaveLength(1);
    expect(warningsOf(readingT).sort()).toEqual(['table `u` is neither read nor written; it has no node', 'view `v` is not read by any INSERT; it has no node']);
    // Through a view: neither the view nor its table is unused.
    expect(warningsOf(table("INSERT INTO s SELECT a, CONVERT_TZ(a, 'UTC', 'CET') FROM v;"))).toEqual(['table `u` is neither read nor written; it has no node']);
    // A view whose own statement fails: its table is not unused either.
    expect(warningsOf(`${TABLE}${SINK}CREATE VIEW w AS SELECT a, CONVERT_TZ(a, 'UTC', 'CET') AS b FROM t;\nINSERT INTO s SELECT a, n FROM w;\n`)).toEqual([]);
  });

  it('reports a malformed @weir annotation as a warning with its line', () => {
    const r = planFlinkSql(`${TABLE}${SINK}-- @weir {"label": oops}\nINSERT INTO s SELECT a, n FROM t;`);
    expect(r.problems).toContainEqual(expect.objectContaining({ severity: 'warning', line: LINES + 1, construct: '-- @weir annotation' }));
    expect(r.doc).not.toBeNull();
  });

  it('turns a call of a created function into a map node holding a stub to fill in', () => {
    const r = planFlinkSql(`${TABLE}CREATE TEMPORARY FUNCTION score AS 'com.example.Score';\nCREATE TABLE s (a STRING, m STRING) WITH ('connector' = 'print');\nINSERT INTO s SELECT a, score(n, 'x') AS m FROM t;`);
    expect(r.doc).not.toBeNull();
    const udf = r.doc!.nodes.find((n) => n.kind === 'map')!;
    expect(udf.params.code).toMatch(/const score = \(arg1, arg2\) => \{\n\s+throw new Error\('SCORE is not written yet/);
    expect(udf.params.code).toContain('"m": score(row["n"], "x")');
    expect(r.problems).toContainEqual(expect.objectContaining({ severity: 'warning', construct: `node \`${udf.id}\``, message: expect.stringMatching(/^node `s_udf` params\.code: SCORE is not written yet/) }));
    expect(r.spans[udf.id]).toMatchObject({ line: LINES + 2, column: 25 });
    // The document holds the problem too: it does not run until the function is written.
    const problems = compile(r.doc).problems;
    expect(problems).toEqual([expect.objectContaining({ target: udf.id, field: 'params.code', code: 'unwritten-function' })]);
    const written = { ...r.doc!, nodes: r.doc!.nodes.map((n) => (n.id === udf.id ? { ...n, params: { code: String(n.params.code).replace(/throw new Error\([^;]*;/, 'return arg1 * 2;') } } : n)) };
    expect(compile(written).problems).toEqual([]);
  });

  it('imports a hand-written script, with warnings where it has to guess', () => {
    const r = importFlinkSql(`SET 'parallelism.default' = '2';\nSET 'sql-client.verbose' = 'true';\n${TABLE}CREATE TEMPORARY VIEW big AS\nSELECT a, n FROM t WHERE n > 10;\n${SINK}INSERT INTO s SELECT * FROM big;`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.doc.settings?.parallelism).toBe(2);
    expect(r.doc.nodes.map((n) => [n.id, n.kind])).toEqual([
      ['t', 'fileSource'],
      ['big_filter', 'filter'],
      ['big', 'project'],
      ['s', 'logSink'],
    ]);
    expect(r.doc.nodes[0].params).toEqual({ path: '/data/t.jsonl', schema: { a: 'string', n: 'integer', ts: 'timestamp' }, eventTime: { field: 'ts', maxOutOfOrdernessMs: 999 } });
    expect(r.warnings).toEqual([{ line: 2, message: "SET 'sql-client.verbose' has no Weir equivalent and is ignored" }]);
    expect(r.spans?.big_filter).toMatchObject({ line: 10, column: 26 });
  });
});
