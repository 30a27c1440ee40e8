import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, runMain, salesPipeline, tempDir, writeJson } from './cliTestKit.ts';

afterAll(removeTempDirs);

describe('weir import', () => {
  it('turns an exported script back into the same pipeline', async () => {
    const dir = tempDir();
    const sql = join(dir, 'job.sql');
    expect((await runMain(['export', writeJson(dir, 'p.json', salesPipeline('visits.jsonl')), '--to', 'flink-sql', '--out', sql])).code).toBe(0);
    const out = join(dir, 'back.json');
    const r = await runMain(['import', '--from', 'flink-sql', sql, '--out', out]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/wrote .*back\.json \(4 nodes, 3 edges\)/);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    expect(doc.nodes.map((n: { id: string; kind: string }) => `${n.id}:${n.kind}`)).toEqual(['visits:fileSource', 'spend:aggregate', 'raw:logSink', 'by_customer:viewSink']);
    expect((await runMain(['validate', out])).code).toBe(0);
    const printed = await runMain(['import', '--from=flink-sql', sql]);
    expect(JSON.parse(printed.out)).toEqual(doc);
  });

  it('reports SQL outside the subset as file:line:column: construct: problem and exits 1', async () => {
    const dir = tempDir();
    const sql = join(dir, 'bad.sql');
    writeFileSync(sql, "CREATE TABLE `t` (`a` STRING) WITH ('connector' = 'datagen');\nCREATE TEMPORARY VIEW `v` AS SELECT `a` FROM `t` ORDER BY `a`;\n");
    const r = await runMain(['import', '--from', 'flink-sql', sql]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(new RegExp(`${sql.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:\\d+: ORDER BY: a streaming query is ordered only by its time attribute`));
    expect(r.out).toBe('');
  });

  it('warns about a malformed -- @weir annotation by file and line instead of ignoring it silently', async () => {
    const dir = tempDir();
    const sql = join(dir, 'job.sql');
    writeFileSync(
      sql,
      [
        "CREATE TABLE visits (customer STRING, amount INT) WITH ('connector' = 'filesystem', 'path' = 'visits.jsonl', 'format' = 'json');",
        "CREATE TABLE totals (customer STRING, total INT) WITH ('connector' = 'print');",
        '-- @weir {"kind": "aggregate",',
        'INSERT INTO totals SELECT customer, SUM(amount) AS total FROM visits GROUP BY customer;',
      ].join('\n'),
    );
    const r = await runMain(['import', '--from', 'flink-sql', sql, '--out', join(dir, 'p.json')]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`warning: ${sql}:3: not a JSON object (`);
    expect(r.err).toContain('the annotation is ignored');
  });

  it('plans a hand-written script, and `weir run script.sql --input table=file` runs it', async () => {
    const dir = tempDir();
    const sql = join(dir, 'totals.sql');
    writeFileSync(
      sql,
      `CREATE TABLE orders (id STRING, city STRING, amount DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'orders.jsonl', 'format' = 'json');
CREATE TABLE totals (city STRING, total DOUBLE, PRIMARY KEY (city) NOT ENFORCED) WITH ('connector' = 'upsert-kafka');
INSERT INTO totals SELECT UPPER(city) AS city, SUM(amount) AS total FROM orders WHERE amount > 0 GROUP BY UPPER(city);
`,
    );
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, ['{"id":"1","city":"tpe","amount":5,"ts":1000}', '{"id":"2","city":"TPE","amount":7,"ts":2000}', '{"id":"3","city":"khh","amount":-1,"ts":3000}'].join('\n') + '\n');
    const planned = await runMain(['import', '--from', 'flink-sql', sql]);
    expect(planned.code).toBe(0);
    expect(JSON.parse(planned.out).nodes.map((n: { kind: string }) => n.kind)).toEqual(['fileSource', 'filter', 'map', 'aggregate', 'project', 'viewSink']);
    const out = join(dir, 'out');
    const r = await runMain(['run', sql, '--input', `orders=${input}`, '--out', out]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'totals.view.json'), 'utf8'))).toEqual([{ city: 'TPE', total: 12 }]);
    const bad = join(dir, 'bad.sql');
    writeFileSync(bad, `${readFileSync(sql, 'utf8').replace('SUM(amount)', 'COLLECT(city)')}`);
    const failed = await runMain(['run', bad, '--out', out]);
    expect(failed.code).toBe(1);
    expect(failed.err).toContain(`${bad}:4:`);
  });

  it('exits 1 on an unknown language or missing arguments', async () => {
    expect((await runMain(['import', '--from', 'hive-sql', 'x.sql'])).err).toMatch(/unknown language "hive-sql"/);
    const missing = await runMain(['import', 'x.sql']);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/--from <language> is required[\s\S]*Usage: weir import/);
    expect((await runMain(['import', '--from', 'flink-sql', '/nonexistent/x.sql'])).err).toMatch(/cannot read the script: no such file/);
  });
});
