// SQL outside the subset the export writes gets a precise error: line, column and the construct.
import { describe, expect, it } from 'vitest';
import { importFlinkSql } from './index.ts';

const TABLE = "CREATE TABLE `t` (\n  `a` STRING,\n  `n` BIGINT\n) WITH ('connector' = 'filesystem', 'path' = '/data/t.jsonl', 'format' = 'json');\n";
const SINK = "CREATE TABLE `s` (`a` STRING, `n` BIGINT) WITH ('connector' = 'print');\n";

function errorsOf(sql: string) {
  const r = importFlinkSql(sql);
  expect(r.ok).toBe(false);
  return r.ok ? [] : r.errors;
}

describe('Flink SQL import errors', () => {
  it('names the unsupported clause with its position', () => {
    const [e] = errorsOf(`${TABLE}CREATE TEMPORARY VIEW \`v\` AS\nSELECT \`a\`, \`n\`\nFROM \`t\`\nLIMIT 10;\n`);
    expect(e).toEqual({ line: 8, column: 1, construct: 'LIMIT', message: 'LIMIT is not supported: use Top-N (ROW_NUMBER() OVER …)' });
  });

  it('reports every broken statement, in order', () => {
    const errors = errorsOf(`CREATE CATALOG c WITH ('type' = 'x');\n${TABLE}SELECT * FROM \`t\`;\nCREATE TEMPORARY VIEW \`v\` AS SELECT * FROM \`t\`;\n`);
    expect(errors.map((e) => [e.line, e.construct])).toEqual([
      [1, 'CREATE CATALOG'],
      [6, 'SELECT'],
      [7, 'SELECT *'],
    ]);
    expect(errors[2].column).toBe(37);
  });

  it('rejects MATCH_RECOGNIZE, UNION without ALL, HAVING and SELECT DISTINCT', () => {
    const view = (q: string) => errorsOf(`${TABLE}CREATE TEMPORARY VIEW \`v\` AS ${q};`)[0].construct;
    expect(view('SELECT `a` FROM `t` MATCH_RECOGNIZE (PARTITION BY `a`)')).toBe('MATCH_RECOGNIZE');
    expect(view('SELECT `a`, `n` FROM `t` UNION SELECT `a`, `n` FROM `t`')).toBe('UNION');
    expect(view('SELECT `a`, COUNT(*) AS `c` FROM `t` GROUP BY `a` HAVING COUNT(*) > 1')).toBe('HAVING');
    expect(view('SELECT DISTINCT `a` FROM `t`')).toBe('SELECT DISTINCT');
    expect(view('SELECT `a` FROM TABLE(SESSION(TABLE `t`, DESCRIPTOR(`ts`), INTERVAL \'1\' MINUTE))')).toBe('SESSION table function');
  });

  it('points into an expression Weir cannot read', () => {
    const [e] = errorsOf(`${TABLE}CREATE TEMPORARY VIEW \`v\` AS\nSELECT \`a\`, \`n\`\nFROM \`t\`\nWHERE \`a\` ~ 'x';\n${SINK}INSERT INTO \`s\` SELECT \`a\`, \`n\` FROM \`v\`;`);
    expect(e).toMatchObject({ line: 8, construct: 'character' });
  });

  it('reports unknown tables, bad Weir expressions and INSERTs that do not match their sink', () => {
    expect(errorsOf(`${TABLE}CREATE TEMPORARY VIEW \`v\` AS SELECT \`a\` FROM \`nope\`;`)[0]).toMatchObject({ line: 5, construct: 'FROM', message: '`nope` is not a table or view defined above' });
    const bad = errorsOf(`${TABLE}CREATE TEMPORARY VIEW \`v\` AS\nSELECT \`a\`, \`n\`\nFROM \`t\`\nWHERE NOSUCH(\`a\`) = 1;\n${SINK}INSERT INTO \`s\` SELECT \`a\`, \`n\` FROM \`v\`;`)[0];
    expect(bad).toMatchObject({ line: 8, column: 7, construct: 'WHERE' });
    expect(errorsOf(`${TABLE}${SINK}INSERT INTO \`s\` SELECT \`a\` FROM \`t\`;`)[0]).toMatchObject({ line: 6, construct: 'INSERT INTO' });
  });

  it('imports a hand-written script without annotations, with warnings where it has to guess', () => {
    const r = importFlinkSql(`SET 'parallelism.default' = '2';\nSET 'sql-client.verbose' = 'true';\n${TABLE}CREATE TEMPORARY VIEW \`big\` AS\nSELECT \`a\`, \`n\` FROM \`t\` WHERE \`n\` > 10;\n${SINK}INSERT INTO \`s\` SELECT \`a\`, \`n\` FROM \`big\`;`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.doc.settings?.parallelism).toBe(2);
    expect(r.doc.nodes.map((n) => [n.id, n.kind])).toEqual([
      ['t', 'fileSource'],
      ['big', 'filter'],
      ['s', 'logSink'],
    ]);
    expect(r.doc.nodes[0].params).toEqual({ path: '/data/t.jsonl', schema: { a: 'string', n: 'integer' } });
    expect(r.warnings).toEqual([{ line: 2, message: "SET 'sql-client.verbose' has no Weir equivalent and is ignored" }]);
  });
});
