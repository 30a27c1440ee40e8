// The query shapes beyond SELECT … WHERE … GROUP BY: what each plans to, and where what is still
// not carried is refused, at its line:column with the nearest form.
import { describe, expect, it } from 'vitest';
import { importFlinkSql } from './index.ts';

const TABLE = "CREATE TABLE t (a STRING, n BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/t.jsonl', 'format' = 'json');\n";
const OTHER = "CREATE TABLE u (a STRING, m BIGINT) WITH ('connector' = 'filesystem', 'path' = '/u.jsonl', 'format' = 'json');\n";
const SINK = "CREATE TABLE s (a STRING, n BIGINT) WITH ('connector' = 'print');\n";
const script = (q: string) => `${TABLE}${OTHER}${SINK}INSERT INTO s\n${q};`;
const LINE = 5;

function plan(q: string) {
  const r = importFlinkSql(script(q));
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.line}:${e.column} ${e.construct}: ${e.message}`).join('\n'));
  return r.doc;
}
function refusal(q: string) {
  const r = importFlinkSql(script(q));
  expect(r.ok).toBe(false);
  return r.ok ? null! : r.errors[0];
}
const kinds = (q: string) => plan(q).nodes.map((n) => n.kind);

describe('query shapes', () => {
  it('ORDER BY … LIMIT is a global Top-N, LIMIT alone keeps the first arrivals, ORDER BY the time attribute plans no node', () => {
    const top = plan('SELECT a, n FROM t ORDER BY n DESC LIMIT 3').nodes.find((n) => n.kind === 'topN')!;
    expect(top.params).toMatchObject({ partitionBy: [], orderBy: [{ field: 'n', direction: 'desc' }], n: 3 });
    expect(kinds('SELECT a, n FROM t LIMIT 2')).toContain('topN');
    expect(kinds('SELECT a, n FROM (SELECT a, n, ts FROM t ORDER BY ts)')).not.toContain('topN');
    expect(refusal('SELECT a, n FROM t\nORDER BY a')).toMatchObject({ line: LINE + 1, column: 1, construct: 'ORDER BY' });
  });

  it('LIMIT n OFFSET m and OFFSET … FETCH rank m + n rows and keep those after m; OFFSET alone is refused at its place', () => {
    for (const q of ['SELECT a, n FROM t ORDER BY n DESC LIMIT 3 OFFSET 2', 'SELECT a, n FROM t ORDER BY n DESC OFFSET 2 ROWS FETCH NEXT 3 ROWS ONLY']) {
      const doc = plan(q);
      expect(doc.nodes.find((x) => x.kind === 'topN')!.params).toMatchObject({ n: 5 });
      expect(doc.nodes.find((x) => x.kind === 'filter')!.params).toEqual({ where: '`rownum` > 2' });
    }
    expect(plan('SELECT a, n FROM t ORDER BY n FETCH FIRST 4 ROWS ONLY').nodes.filter((x) => x.kind === 'topN' || x.kind === 'filter').map((x) => [x.kind, x.params.n])).toEqual([['topN', 4]]);
    expect(refusal('SELECT a, n FROM t ORDER BY n\nOFFSET 2 ROWS')).toMatchObject({ line: LINE + 1, column: 1, construct: 'OFFSET', message: expect.stringMatching(/LIMIT n OFFSET m/) });
  });

  it('an unnamed item that starts with a column and goes on (`n - 1`, `a || a`) is the whole expression, not the column', () => {
    const fields = plan('SELECT a || a, n - 1 FROM t').nodes.find((x) => x.kind === 'project')!.params.fields as { expr: string }[];
    expect(fields.map((f) => f.expr)).toEqual(['`a` || `a`', '`n` - 1']);
  });

  it('JOIN … USING merges its key; USING and NATURAL name what is missing', () => {
    const doc = plan('SELECT * FROM (SELECT a, n FROM t) JOIN (SELECT a FROM u) USING (a)');
    expect(doc.nodes.find((n) => n.kind === 'join')!.params).toMatchObject({ leftKey: ['a'], rightKey: ['a'] });
    expect(refusal('SELECT a, n FROM t JOIN u USING (m)')).toMatchObject({ line: LINE, construct: 'USING (m)', message: expect.stringMatching(/not a column of the left side \(a, n, ts\)/) });
    expect(refusal('SELECT t.a, n FROM t NATURAL JOIN (SELECT m FROM u)')).toMatchObject({ construct: 'NATURAL JOIN', message: expect.stringMatching(/no column name in common/) });
    // An unqualified key is the merged column, not ambiguous; the sides' copies stay readable qualified.
    expect(() => plan('SELECT a, t.n FROM t LEFT JOIN u USING (a)')).not.toThrow();
  });

  it('UNION is a union and a distinct aggregation', () => {
    expect(kinds('SELECT a, n FROM t UNION SELECT a, m FROM u')).toEqual(expect.arrayContaining(['union', 'aggregate']));
  });

  it('INTERSECT, EXCEPT and MINUS are a null-safe semi / anti join on every column and a distinct aggregation', () => {
    const semi = (q: string) => plan(q).nodes.filter((n) => n.kind === 'semiJoin').map((n) => n.params);
    expect(semi('SELECT a, n FROM t INTERSECT SELECT a, m FROM u')).toEqual([{ type: 'semi', leftKey: ['a', 'n'], rightKey: ['a', 'm'], nullSafeKeys: true }]);
    expect(semi('SELECT a, n FROM t EXCEPT SELECT a, m FROM u')).toEqual([{ type: 'anti', leftKey: ['a', 'n'], rightKey: ['a', 'm'], nullSafeKeys: true }]);
    expect(semi('SELECT a, n FROM t MINUS SELECT a, m FROM u')).toEqual([{ type: 'anti', leftKey: ['a', 'n'], rightKey: ['a', 'm'], nullSafeKeys: true }]);
    expect(kinds('SELECT a, n FROM t INTERSECT SELECT a, m FROM u')).toEqual(expect.arrayContaining(['semiJoin', 'aggregate']));
    // INTERSECT binds tighter: t UNION (t INTERSECT u), so the semi join's right input is u's source.
    const doc = plan('SELECT a, n FROM t UNION SELECT a, n FROM t INTERSECT SELECT a, m FROM u');
    const join = doc.nodes.find((n) => n.kind === 'semiJoin')!;
    expect(doc.edges.find((e) => e.to.node === join.id && e.to.port === 'right')?.from.node).toBe('u');
  });

  it('INTERSECT ALL / EXCEPT ALL number the copies of each row on both sides (a Top-N per row) and join on the number too, with no distinct after', () => {
    for (const [op, type] of [['INTERSECT ALL', 'semi'], ['EXCEPT ALL', 'anti'], ['MINUS ALL', 'anti']]) {
      const doc = plan(`SELECT a, n FROM t ${op} SELECT a, m FROM u`);
      expect(doc.nodes.map((n) => n.kind).filter((k) => k !== 'fileSource' && k !== 'logSink')).toEqual(['project', 'topN', 'topN', 'semiJoin', 'project']);
      expect(doc.nodes.find((n) => n.kind === 'semiJoin')!.params).toEqual({ type, leftKey: ['a', 'n', '_copy'], rightKey: ['a', 'm', '_copy'], nullSafeKeys: true });
      expect(doc.nodes.find((n) => n.kind === 'topN')!.params).toMatchObject({ partitionBy: ['a', 'n'], rankField: '_copy' });
    }
  });

  it('a name the SELECT list repeats (SELECT * over a join whose sides share a column) takes the first free name0, name1, … as in Calcite', () => {
    const bare = (q: string) => {
      const r = importFlinkSql(`${TABLE}${OTHER}${q};`);
      if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
      return r.doc;
    };
    const project = bare('SELECT * FROM t JOIN u ON t.a = u.a').nodes.find((n) => n.kind === 'project')!;
    expect((project.params.fields as { name: string }[]).map((f) => f.name)).toEqual(['a', 'n', 'ts', 'a0', 'm']);
    const twice = bare('SELECT a, a, a AS a0, n FROM t').nodes.find((n) => n.kind === 'project')!;
    expect((twice.params.fields as { name: string }[]).map((f) => f.name)).toEqual(['a', 'a1', 'a0', 'n']);
  });

  it('set operator operands of other widths are refused at the operand', () => {
    expect(refusal('SELECT a, n FROM t\nINTERSECT\nSELECT a FROM u')).toMatchObject({ line: LINE + 2, column: 1, construct: 'INTERSECT', message: expect.stringMatching(/operand 2 has 1 columns, the first has 2/) });
  });

  it('set operator operands whose column types differ are refused at the operand; numbers of either kind meet as DOUBLE', () => {
    expect(refusal('SELECT a, n FROM t\nUNION ALL\nSELECT m, a FROM u')).toMatchObject({ line: LINE + 2, column: 1, construct: 'UNION ALL', message: expect.stringMatching(/column 1 \(m\) is BIGINT here but STRING .*CAST\(m AS STRING\)/) });
    expect(refusal('SELECT a, n FROM t\nEXCEPT\nSELECT a, a AS b FROM u')).toMatchObject({ line: LINE + 2, construct: 'EXCEPT', message: expect.stringMatching(/column 2 \(b\) is STRING here but BIGINT/) });
    expect(refusal('SELECT a, ts FROM t UNION SELECT a, a AS b FROM u')).toMatchObject({ construct: 'UNION', message: expect.stringMatching(/column 2 \(b\) is STRING here but TIMESTAMP/) });
    const doc = plan('SELECT a, n FROM t UNION ALL SELECT a, m / 2.0 FROM u');
    expect(doc.nodes.find((n) => n.kind === 'union')).toBeDefined();
    // NULL takes the other side's type.
    expect(plan('SELECT a, n FROM t UNION ALL SELECT a, NULL FROM u').nodes.some((n) => n.kind === 'union')).toBe(true);
  });

  it('INSERT INTO t (columns) fills the columns it leaves out with NULL, as Flink does, in the table\'s order', () => {
    const fieldsOf = (insert: string) => {
      const r = importFlinkSql(`${TABLE}${OTHER}${SINK}${insert};`);
      if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
      const sink = r.doc.nodes.find((n) => n.id === 's')!;
      const edge = r.doc.edges.find((e) => e.to.node === sink.id)!;
      return r.doc.nodes.find((n) => n.id === edge.from.node)!.params.fields;
    };
    expect(fieldsOf('INSERT INTO s (n) SELECT n FROM t')).toEqual([{ name: 'a', expr: 'NULL' }, { name: 'n', expr: '`n`' }]);
    expect(fieldsOf('INSERT INTO s (a) SELECT a FROM t WHERE n > 1')).toEqual([{ name: 'a', expr: '`a`' }, { name: 'n', expr: 'NULL' }]);
    expect(refusal('SELECT a FROM t').construct).toBe('INSERT INTO');
  });

  it('FROM … AS q (x, y) renames the columns in order; a list of another length is refused', () => {
    const doc = plan('SELECT x AS a, y AS n FROM (SELECT a, n FROM t) AS q (x, y) WHERE y > 1');
    expect(doc.nodes.find((n) => n.kind === 'filter')!.params).toEqual({ where: '`n` > 1' });
    expect(plan('SELECT q.x AS a, q.y AS n FROM t AS q (x, y, z)').nodes.map((n) => n.kind)).toContain('project');
    expect(refusal('SELECT x AS a, 1 AS n FROM t AS q (x, y)')).toMatchObject({ construct: 'table alias column list', message: expect.stringMatching(/2 names for the 3 columns \(a, n, ts\)/) });
  });

  it('a window Top-N or deduplication keeps only the window columns its SELECT list names', () => {
    const tvf = "TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '10' MINUTES))";
    const outputOf = (inner: string, where: string) => {
      const cols = 'a STRING, n BIGINT, window_start TIMESTAMP(3), window_end TIMESTAMP(3), rn BIGINT';
      const r = importFlinkSql(`${TABLE}CREATE TABLE s2 (${cols}) WITH ('connector' = 'print');\nINSERT INTO s2 SELECT * FROM (${inner}) WHERE ${where};`);
      if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
      const edge = r.doc.edges.find((e) => e.to.node === 's2')!;
      const last = r.doc.nodes.find((n) => n.id === edge.from.node)!;
      return { kinds: r.doc.nodes.map((n) => n.kind), last: last.kind, fields: (last.params.fields as { name: string }[] | undefined)?.map((f) => f.name) };
    };
    const dedup = outputOf(`SELECT a, n, window_start, window_end, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, a ORDER BY ts DESC) AS rn FROM ${tvf}`, 'rn = 1');
    expect(dedup).toMatchObject({ last: 'project', fields: ['a', 'n', 'window_start', 'window_end', 'rn'] });
    const top = outputOf(`SELECT a, n, window_start, window_end, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY n DESC) AS rn FROM ${tvf}`, 'rn <= 2');
    expect(top.kinds).toContain('topN');
    expect(top).toMatchObject({ last: 'project', fields: ['a', 'n', 'window_start', 'window_end', 'rn'] });
  });

  it('VALUES: rows of one width and one type per column', () => {
    const src = plan("SELECT a, n FROM (VALUES ('x', 1), ('y', 2)) AS v(a, n)").nodes.find((n) => n.kind === 'inlineSource')!;
    expect(src.params).toEqual({ rows: [{ a: 'x', n: 1 }, { a: 'y', n: 2 }], schema: { a: 'string', n: 'integer' } });
    expect(refusal("SELECT a, n FROM (VALUES ('x', 1), ('y')) AS v(a, n)")).toMatchObject({ construct: 'VALUES', message: 'row 2 has 1 values, the first has 2' });
    expect(refusal("SELECT a, n FROM (VALUES ('x', 1), (2, 3)) AS v(a, n)")).toMatchObject({ construct: 'VALUES', message: expect.stringMatching(/column `a` holds string values and, in row 2, a integer/) });
    expect(refusal("SELECT a, n FROM (VALUES ('x', 1)) AS v(a)")).toMatchObject({ construct: 'VALUES … AS t(…)' });
  });

  it('VALUES: a value may be any constant expression, read at its own line:column', () => {
    const src = plan("SELECT a, n FROM (VALUES (CAST(NULL AS STRING), 1 + 1), (UPPER('y'),CAST(7 AS BIGINT)),('z',-2 * 3)) AS v(a, n)").nodes.find((n) => n.kind === 'inlineSource')!;
    expect(src.params).toEqual({ rows: [{ a: null, n: 2 }, { a: 'Y', n: 7 }, { a: 'z', n: -6 }], schema: { a: 'string', n: 'integer' } });
    expect(refusal("SELECT a, n FROM (VALUES ('x', 1),\n  ('y', 2 + NOSUCH(3))) AS v(a, n)")).toMatchObject({ line: LINE + 1, column: 13, construct: 'NOSUCH(…)' });
  });

  it('GROUPING SETS expand the input, before the window operator over a window table function', () => {
    const agg = plan('SELECT a, SUM(n) AS n FROM t GROUP BY ROLLUP (a)').nodes.find((n) => n.kind === 'aggregate')!;
    expect(agg.params).toMatchObject({ groupBy: ['a', '_grouping_id'] });
    const windowed = plan("SELECT a, SUM(n) AS n FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, ROLLUP (a)");
    expect(windowed.nodes.find((n) => n.kind === 'window')!.params).toMatchObject({ type: 'tumble', sizeMs: 60_000, groupBy: ['a', '_grouping_id'] });
    const window = windowed.nodes.find((n) => n.kind === 'window')!;
    expect(windowed.nodes.find((n) => n.id === windowed.edges.find((e) => e.to.node === window.id)!.from.node)!.kind).toBe('union');
    expect(refusal("SELECT a, SUM(n) AS n FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, ROLLUP (a)")).toMatchObject({ construct: 'GROUP BY', message: expect.stringMatching(/GROUP BY window_start, window_end, GROUPING SETS/) });
    expect(refusal('SELECT a, SUM(n) AS n FROM t GROUP BY CUBE (UPPER(a))')).toMatchObject({ construct: 'GROUPING SETS', message: expect.stringMatching(/compute an expression in a subquery first/) });
  });
});
